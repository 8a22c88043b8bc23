/** The budget API's reads: the list, one budget, the codes, a balance and the download. */
import { clockIn } from '@imprest/domain/days.ts';
import type { BudgetCodesResponse } from '@imprest/domain/api/budgets.ts';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeEach, describe, expect, it } from 'vitest';
import { budgetChanges, budgets } from '../../db/schema.ts';
import type { TestUser } from '../../../test/helpers.ts';
import { downloadBatchSize } from './service.ts';
import {
  t,
  otherOrganizationId,
  finance,
  director,
  secretary,
  chairman,
  staff,
  custodian,
  buildBudget,
  buildRequest,
  post,
  put,
  get,
  editOf,
  validBudget,
  useBudgetOrganization,
} from '../../../test/budget-organization.ts';

useBudgetOrganization();

describe('GET /budget', () => {
  beforeEach(async () => {
    await buildBudget({ costCode: 1, name: 'Shared', department: 'all' });
    await buildBudget({ costCode: 2, name: 'Engineering kit', department: 'engineering' });
    await buildBudget({ costCode: 3, name: 'Finance office', department: 'finance' });
    await buildBudget({ costCode: 4, name: 'Marketing 100%', department: 'marketing' });
    await buildBudget({ organization: otherOrganizationId, costCode: 1, name: 'Other org' });
  });

  it('lists every department for finance, ordered by code, paginated', async () => {
    const first = await get(finance, 'budget?per_page=3');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ page: 1, per_page: 3, total: 4 });
    expect(first.json().budget_codes.map((budget: { code: string }) => budget.code)).toEqual([
      '6101',
      '6102',
      '6103',
    ]);
    const second = await get(finance, 'budget?per_page=3&page=2');
    expect(second.json().budget_codes.map((budget: { code: string }) => budget.code)).toEqual([
      '6104',
    ]);
    const beyond = await get(finance, 'budget?per_page=3&page=9');
    expect(beyond.json()).toMatchObject({ budget_codes: [], total: 4 });
  });

  it("limits other roles to their department and 'all', whatever department they ask for", async () => {
    const own = await get(staff, 'budget');
    expect(own.json().total).toBe(2);
    expect(own.json().budget_codes.map((budget: { name: string }) => budget.name)).toEqual([
      'Shared',
      'Engineering kit',
    ]);
    const asked = await get(staff, 'budget?department=finance');
    expect(asked.json()).toMatchObject({ budget_codes: [], total: 0 });
    const custodianView = await get(custodian, 'budget');
    expect(
      custodianView.json().budget_codes.map((budget: { name: string }) => budget.name),
    ).toEqual(['Shared', 'Finance office']);
  });

  it('lets the four roles that see everything filter by department', async () => {
    for (const user of [finance, director, secretary, chairman]) {
      const response = await get(user, 'budget?department=marketing');
      expect(response.json().budget_codes.map((budget: { name: string }) => budget.name)).toEqual([
        'Marketing 100%',
      ]);
    }
  });

  it('searches name and code, taking % literally', async () => {
    const byName = await get(finance, 'budget?search=ENGINEER');
    expect(byName.json().budget_codes.map((budget: { code: string }) => budget.code)).toEqual([
      '6102',
    ]);
    const byCode = await get(finance, 'budget?search=6103');
    expect(byCode.json().total).toBe(1);
    const percent = await get(finance, `budget?search=${encodeURIComponent('100%')}`);
    expect(percent.json().total).toBe(1);
    const wildcard = await get(finance, `budget?search=${encodeURIComponent('%')}`);
    expect(wildcard.json().total).toBe(1);
  });

  it('answers committed and available per budget from the newest committing requests', async () => {
    const [budget] = await t.db.select().from(budgets).where(eq(budgets.code, '6101'));
    if (!budget) throw new Error('no budget');
    await buildRequest(budget, { status: 'pending', amount: 100 });
    await buildRequest(budget, { status: 'on_progress', amount: 200.5 });
    await buildRequest(budget, { status: 'approved', amount: 300 });
    await buildRequest(budget, { status: 'rejected', amount: 4000 });
    await buildRequest(budget, { status: 'request_edit', amount: 5000 });
    await buildRequest(budget, { status: 'pending', amount: 6000, isLatest: false });
    const response = await get(finance, 'budget?search=6101');
    expect(response.json().budget_codes[0]).toMatchObject({
      amount: 1_000_000,
      committed: 600.5,
      available: 999_399.5,
      requests: { total: 5 },
    });
  });

  it.each(['per_page=101', 'page=0', 'department=kitchen', 'page=abc'])(
    'answers 400 for %s',
    async (query) => {
      const response = await get(finance, `budget?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/^Invalid input in the querystring/);
    },
  );
});

describe('GET /budget/:code', () => {
  it("lists only the requests the caller may read: staff their own, admins everyone's (decisions §8)", async () => {
    const budget = await buildBudget({ amount: 1_000_000 });
    const own = await buildRequest(budget, { amount: 100 });
    const colleagues = await buildRequest(budget, { amount: 200, owner: custodian });
    const idsFor = async (user: TestUser) =>
      ((await get(user, `budget/${budget.code}`)).json().data.requests.data as { id: string }[])
        .map((request) => request.id)
        .sort();
    expect(await idsFor(staff)).toEqual([own]);
    expect(await idsFor(finance)).toEqual([own, colleagues].sort());
    expect(await idsFor(custodian)).toEqual([own, colleagues].sort());
  });

  it('answers the budget with requests (newest 50), totals, changelog (newest first) and history', async () => {
    const created = (await post(finance, validBudget)).json().data;
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, created.id));
    if (!row) throw new Error('no budget');
    const base = Date.now() - 60 * 60 * 1000;
    for (let i = 0; i < 52; i += 1) {
      await buildRequest(row, {
        status: i % 2 ? 'approved' : 'pending',
        amount: 1000,
        createdAt: new Date(base + i * 1000),
        purpose: `purpose ${i}`,
      });
    }
    await put(finance, editOf(row, { amount: 600_000_000 }));
    await put(finance, { id: row.id, current_status: 'archived' });

    const response = await get(staff, 'budget/6105');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({
      code: '6105',
      amount: 600_000_000,
      current_status: 'archived',
      committed: 52_000,
      available: 599_948_000,
    });
    expect(data.requests.total).toBe(52);
    expect(data.requests.data).toHaveLength(50);
    expect(data.requests.data[0]).toEqual({
      id: expect.any(String),
      request_owner_name: 'Asha Staff',
      purpose: 'purpose 51',
      expenditure_date: '2026-03-01',
      amount_requested: 1000,
      amount_currency: 'tzs',
      current_status: 'approved',
      approval_number: expect.stringMatching(/^AP-2026-/),
    });
    expect(data.changelog.map((change: { action: string }) => change.action)).toEqual([
      'archive',
      'edit',
      'create',
    ]);
    expect(data.changelog[1]).toMatchObject({
      actor_name: 'Chausiku Finance',
      before: { amount: 500_000_000 },
      after: { amount: 600_000_000 },
    });
    expect(data.history).toEqual([
      {
        month: expect.stringMatching(/^\d{4}-\d{2}$/),
        amount: 600_000_000,
        committed: 52_000,
        spent: 26_000,
      },
    ]);
  });

  it('builds the monthly history from the changelog and the requests of each month', async () => {
    const created = (await post(finance, { ...validBudget, amount: 1000 })).json().data;
    // Months on the organisation's clock, as the history counts them: near a month's end, UTC
    // may still read the month before (CI ran at 23:40 UTC on 30 November, 1 December in Dar).
    const today = clockIn(t.context.config.orgTimezone);
    const monthsAgo = (months: number) =>
      new Date(Date.UTC(today.year, today.month - 1 - months, 15, 12));
    await t.db
      .update(budgets)
      .set({ created_at: monthsAgo(2) })
      .where(eq(budgets.id, created.id));
    await t.db
      .update(budgetChanges)
      .set({ created_at: monthsAgo(2) })
      .where(eq(budgetChanges.budget_id, created.id));
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, created.id));
    if (!row) throw new Error('no budget');
    await buildRequest(row, { status: 'approved', amount: 100, createdAt: monthsAgo(2) });
    await buildRequest(row, { status: 'pending', amount: 50, createdAt: monthsAgo(1) });
    await buildRequest(row, { status: 'rejected', amount: 999, createdAt: monthsAgo(1) });
    await put(finance, editOf(row, { amount: 2000 }));

    const { history } = (await get(finance, 'budget/6105')).json().data;
    const month = (date: Date) => date.toISOString().slice(0, 7);
    expect(history).toEqual([
      { month: month(monthsAgo(2)), amount: 1000, committed: 100, spent: 100 },
      { month: month(monthsAgo(1)), amount: 1000, committed: 150, spent: 100 },
      { month: month(monthsAgo(0)), amount: 2000, committed: 150, spent: 100 },
    ]);
  });

  it("counts a request dated before the budget's first month in that month, so the last month's committed is the budget's", async () => {
    const created = (await post(finance, { ...validBudget, amount: 1000 })).json().data;
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, created.id));
    if (!row) throw new Error('no budget');
    const twoMonthsBefore = new Date(row.created_at);
    twoMonthsBefore.setUTCMonth(twoMonthsBefore.getUTCMonth() - 2);
    await buildRequest(row, { status: 'approved', amount: 300, createdAt: twoMonthsBefore });
    await buildRequest(row, { status: 'pending', amount: 20 });

    const { data } = (await get(finance, 'budget/6105')).json();
    expect(data.committed).toBe(320);
    expect(data.history).toEqual([
      { month: expect.stringMatching(/^\d{4}-\d{2}$/), amount: 1000, committed: 320, spent: 300 },
    ]);
  });

  it("answers 404 for another department's budget, another organisation's code and an unknown code", async () => {
    await buildBudget({ costCode: 9, department: 'marketing' });
    await buildBudget({ organization: otherOrganizationId, costCode: 8 });
    expect((await get(staff, 'budget/6109')).statusCode).toBe(404);
    expect((await get(chairman, 'budget/6109')).statusCode).toBe(200);
    const foreign = await get(finance, 'budget/6108');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'No budget with code 6108 was found.' });
    expect((await get(finance, 'budget/nope')).statusCode).toBe(404);
  });
});

describe('GET /budget/codes', () => {
  it('lists every active code of the organisation to any user, with balance', async () => {
    const spent = await buildBudget({
      costCode: 1,
      name: 'Spent',
      amount: 100,
      department: 'marketing',
    });
    await buildRequest(spent, { status: 'approved', amount: 100 });
    await buildBudget({ costCode: 2, name: 'Open', amount: 500, currency: 'usd' });
    await buildBudget({ costCode: 3, name: 'Old', status: 'archived' });
    await buildBudget({ organization: otherOrganizationId, costCode: 4 });
    const response = await get(staff, 'budget/codes');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      budget_codes: [
        { code: '6101', name: 'Spent', currency: 'tzs', has_balance: false, available: 0 },
        { code: '6102', name: 'Open', currency: 'usd', has_balance: true, available: 500 },
      ],
    });
  });

  it('looks up the active codes matching what is typed, codes starting with it first, at most limit', async () => {
    await buildBudget({ costCode: 1, name: 'Dar park operations' });
    await buildBudget({ costCode: 2, name: 'Dar fuel' });
    await buildBudget({
      category: 'marketing and advertisements',
      costCode: 5,
      name: 'Route 61 buses',
    });
    await buildBudget({ costCode: 3, name: 'Archived 61', status: 'archived' });
    await buildBudget({ organization: otherOrganizationId, costCode: 4, name: 'Elsewhere 61' });
    const codesOf = async (query: string) => {
      const response = await get(staff, `budget/codes?${query}`);
      expect(response.statusCode).toBe(200);
      return (response.json() as BudgetCodesResponse).budget_codes.map((entry) => entry.code);
    };
    // Codes starting with "61" before the name that merely contains it.
    expect(await codesOf('search=61')).toEqual(['6101', '6102', '4105']);
    expect(await codesOf('search=61&limit=2')).toEqual(['6101', '6102']);
    expect(await codesOf('limit=1')).toEqual(['4105']);
    expect(await codesOf('search=%20ROUTE%20')).toEqual(['4105']);
    expect(await codesOf('search=dar')).toEqual(['6101', '6102']);
    // A wildcard typed is a character, not a pattern; an empty search is no search.
    expect(await codesOf('search=%25')).toEqual([]);
    expect(await codesOf('search=_')).toEqual([]);
    expect(await codesOf('search=')).toEqual(['4105', '6101', '6102']);
  });

  it('refuses a limit that is not a whole number from 1 to 100 (400)', async () => {
    for (const [limit, message] of [
      ['0', 'limit must be at least 1'],
      ['101', 'limit must be at most 100'],
      ['1.5', 'limit must be a whole number'],
      ['x', 'limit must be a number'],
    ]) {
      const response = await get(staff, `budget/codes?limit=${limit}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toContain(message);
    }
  });
});

describe('GET /budget/:code/balance', () => {
  it('answers has_balance, currency and the committed amount as total (decisions §8)', async () => {
    const budget = await buildBudget({ amount: 1000, currency: 'usd' });
    await buildRequest(budget, { status: 'on_progress', amount: 400 });
    const fits = await get(staff, 'budget/6105/balance?amount=600');
    expect(fits.statusCode).toBe(200);
    // Remaining Balance = amount − total (spec §2): 1000 − 400.
    const figures = { currency: 'usd', total: 400, amount: 1000, available: 600 };
    expect(fits.json()).toEqual({ has_balance: true, ...figures });
    const tooMuch = await get(staff, 'budget/6105/balance?amount=600.01');
    expect(tooMuch.json()).toEqual({ has_balance: false, ...figures });
    const noAmount = await get(staff, 'budget/6105/balance');
    expect(noAmount.json().has_balance).toBe(true);
  });

  it('says an archived budget has no balance for new requests', async () => {
    await buildBudget({ status: 'archived' });
    expect((await get(staff, 'budget/6105/balance?amount=1')).json()).toMatchObject({
      has_balance: false,
      total: 0,
      available: 1_000_000,
    });
  });

  it("answers 400 for a bad amount and 404 for another organisation's code", async () => {
    await buildBudget();
    await buildBudget({ organization: otherOrganizationId, costCode: 6 });
    expect((await get(staff, 'budget/6105/balance?amount=-1')).statusCode).toBe(400);
    expect((await get(staff, 'budget/6105/balance?amount=lots')).statusCode).toBe(400);
    for (const spelling of ['0x10', '1e3', '', '0.001', '1,000']) {
      const response = await get(staff, `budget/6105/balance?amount=${spelling}`);
      expect(response.statusCode, spelling).toBe(400);
    }
    expect((await get(staff, 'budget/6106/balance?amount=1')).statusCode).toBe(404);
  });
});

describe('GET /budget/download/:code', () => {
  it("streams the budget's requests as an xlsx attachment named after the code", async () => {
    const budget = await buildBudget();
    const base = Date.now() - 10_000;
    await buildRequest(budget, { amount: 1234.5, purpose: 'travel', createdAt: new Date(base) });
    await buildRequest(budget, {
      amount: 99,
      status: 'approved',
      purpose: 'meals',
      createdAt: new Date(base + 1000),
    });
    const response = await get(finance, 'budget/download/6105');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="6105-requests.xlsx"; filename*=UTF-8''6105-requests.xlsx`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    expect(sheet.rowCount).toBe(3);
    // The columns of the requests download (features/requests/spreadsheet.ts).
    expect(sheet.getRow(1).getCell(3).value).toBe('Purpose');
    expect(sheet.getRow(1).getCell(11).value).toBe('Status');
    // The department, purpose and status in the words the pages use, not their stored keys.
    expect(sheet.getRow(2).getCell(2).value).toBe('Engineering');
    expect(sheet.getRow(2).getCell(3).value).toBe('Meals');
    expect(sheet.getRow(2).getCell(11).value).toBe('Approved');
    expect(sheet.getRow(3).getCell(11).value).toBe('Pending');
    expect(sheet.getRow(2).getCell(6).value).toBe(99);
    expect(sheet.getRow(3).getCell(6).value).toBe(1234.5);
    expect(sheet.getRow(3).getCell(7).value).toBe('TZS');
  });

  it('writes every request of a large budget across batches, microsecond ties included', async () => {
    const budget = await buildBudget();
    const total = downloadBatchSize * 2 + 37;
    // Pairs share a created_at to the microsecond; neighbours differ by less than a millisecond.
    await t.db.execute(sql`
      INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name, department,
                            purpose, expenditure_date, amount_requested, amount_currency, amount_base,
                            budget_id, budget_code, payment_mode, tax_status, created_at)
      SELECT ${budget.organization_id}, gen_random_uuid(), ${staff.id}, 'Asha Staff', 'engineering',
             'bulk ' || i, '2026-03-01', i, 'tzs', i, ${budget.id}, ${budget.code}, 'cash',
             'taxInclusive', timestamptz '2026-01-01 00:00:00' + (i / 2) * interval '7 microseconds'
      FROM generate_series(1, ${total}) AS i`);
    const response = await get(finance, 'budget/download/6105');
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const amounts = new Set<number>();
    sheet?.eachRow((row, index) => {
      if (index > 1) amounts.add(row.getCell(6).value as number);
    });
    expect(sheet?.rowCount).toBe(total + 1);
    expect(amounts.size).toBe(total);
  });

  it('refuses users without finance permission with 403 and other organisations with 404', async () => {
    await buildBudget();
    await buildBudget({ organization: otherOrganizationId, costCode: 6 });
    const refused = await get(staff, 'budget/download/6105');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/json/);
    expect((await get(chairman, 'budget/download/6105')).statusCode).toBe(403);
    expect((await get(finance, 'budget/download/6106')).statusCode).toBe(404);
  });
});
