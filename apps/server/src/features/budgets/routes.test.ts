import { randomUUID } from 'node:crypto';
import { budgetCode } from '@imprest/domain/budget-code.ts';
import { clockIn } from '@imprest/domain/days.ts';
import type { Branch, BudgetCategory, Currency, RequestStatus } from '@imprest/domain/enums.ts';
import type { BudgetCodesResponse } from '@imprest/domain/api/budgets.ts';
import { messages } from '@imprest/domain/messages.ts';
import { asc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { budgetChanges, budgets, requests } from '../../db/schema.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import type { BudgetRow } from './ledger.ts';
import { insertBudget } from './queries.ts';
import { downloadBatchSize } from './service.ts';

let t: TestApp;
let organizationId: string;
let otherOrganizationId: string;
let finance: TestUser;
let director: TestUser;
let secretary: TestUser;
let chairman: TestUser;
let staff: TestUser;
let custodian: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  organizationId = await buildOrganization(t.db, 'Budget Org');
  otherOrganizationId = await buildOrganization(t.db, 'Other Org');
  const user = (role: TestUser['role'], department: TestUser['department'], fullname: string) =>
    buildUser(t.db, {
      organizationId,
      role: role as never,
      department: department as never,
      fullname,
    });
  finance = await user('finance_officer', 'finance', 'Chausiku Finance');
  director = await user('director', 'administration', 'Eshe Director');
  secretary = await user('executive_secretary', 'administration', 'Daudi Secretary');
  chairman = await user('board_chairman', 'administration', 'Faraji Chairman');
  staff = await user('staff', 'engineering', 'Asha Staff');
  custodian = await user('petty_cash_custodian', 'finance', 'Baraka Custodian');
  outsider = await buildUser(t.db, {
    organizationId: otherOrganizationId,
    role: 'finance_officer',
    department: 'finance',
  });
});

beforeEach(async () => {
  // Each test starts from empty budgets; changelog and requests go with them.
  await t.db.delete(requests);
  await t.db.delete(budgetChanges);
  await t.db.delete(budgets);
  t.events.length = 0;
});

type BudgetFixture = {
  organization?: string;
  category?: BudgetCategory;
  branch?: Branch;
  costCode?: number;
  name?: string;
  description?: string;
  amount?: number;
  currency?: Currency;
  department?: string;
  status?: 'active' | 'archived';
  createdAt?: Date;
};

/** Inserts a budget directly (no changelog), for tests that are not about creating one. */
async function buildBudget(options: BudgetFixture = {}): Promise<BudgetRow> {
  const category = options.category ?? 'operating cost';
  const branch = options.branch ?? 'stemParkDar';
  const costCode = options.costCode ?? 5;
  return insertBudget(t.db, {
    organization_id: options.organization ?? organizationId,
    code: budgetCode({ category, branch, costCode }),
    cost_code: costCode,
    name: options.name ?? 'Dar park operations',
    description: options.description ?? null,
    amount: String(options.amount ?? 1_000_000),
    department: options.department ?? 'all',
    currency: options.currency ?? 'tzs',
    category,
    branch,
    current_status: options.status ?? 'active',
    created_by: finance.id,
    ...(options.createdAt ? { created_at: options.createdAt, modified_at: options.createdAt } : {}),
  });
}

/** Inserts a request on a budget. */
async function buildRequest(
  budget: BudgetRow,
  options: {
    status?: RequestStatus;
    amount?: number;
    isLatest?: boolean;
    createdAt?: Date;
    purpose?: string;
    owner?: TestUser;
  } = {},
): Promise<string> {
  const id = randomUUID();
  const amount = (options.amount ?? 1000).toFixed(2);
  await t.db.insert(requests).values({
    id,
    organization_id: budget.organization_id,
    chain_id: id,
    is_latest: options.isLatest ?? true,
    request_owner_id: (options.owner ?? staff).id,
    request_owner_name: (options.owner ?? staff).fullname,
    department: 'engineering',
    purpose: options.purpose ?? 'travel',
    expenditure_date: '2026-03-01',
    amount_requested: amount,
    amount_currency: budget.currency,
    amount_base: amount,
    budget_id: budget.id,
    budget_code: budget.code,
    payment_mode: 'cash',
    tax_status: 'taxInclusive',
    current_status: options.status ?? 'pending',
    approval_number: options.status === 'approved' ? `AP-2026-${id.slice(0, 5)}` : null,
    ...(options.createdAt ? { created_at: options.createdAt } : {}),
  });
  return id;
}

/** The stored row and changelog of a budget, to show that a refused call changed nothing. */
async function stateOf(budgetId: string) {
  const [row] = await t.db.select().from(budgets).where(eq(budgets.id, budgetId));
  const changes = await t.db
    .select()
    .from(budgetChanges)
    .where(eq(budgetChanges.budget_id, budgetId))
    .orderBy(asc(budgetChanges.id));
  return { row, changes };
}

const validBudget = {
  name: 'Dar park operations',
  description: 'Source of funds: grant 12',
  amount: 500_000_000,
  department: 'all',
  amount_currency: 'tzs',
  code: 5,
  meta_data: ['operating cost', 'stemParkDar'],
};

function post(user: TestUser | null, body: object) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/budget',
    headers: user ? auth(user) : {},
    payload: body,
  });
}
function put(user: TestUser, body: object) {
  return t.app.inject({ method: 'PUT', url: '/api/v1/budget', headers: auth(user), payload: body });
}
function remove(user: TestUser, id: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/budget/remove',
    headers: auth(user),
    payload: { id },
  });
}
function get(user: TestUser, url: string) {
  return t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: auth(user) });
}

/** A full edit payload of a budget row with some fields changed. */
function editOf(row: BudgetRow, change: object = {}) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    amount: Number(row.amount),
    department: row.department,
    amount_currency: row.currency,
    code: row.cost_code,
    meta_data: [row.category, row.branch],
    ...change,
  };
}

describe('POST /budget', () => {
  it('creates a budget, computes its code, writes a create changelog row and publishes budget_updated', async () => {
    const response = await post(finance, validBudget);
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({
      id: expect.any(String),
      name: 'Dar park operations',
      description: 'Source of funds: grant 12',
      amount: 500_000_000,
      department: 'all',
      amount_currency: 'tzs',
      currency: 'tzs',
      code: '6105',
      cost_code: 5,
      current_status: 'active',
      meta_data: ['operating cost', 'stemParkDar'],
      requests: { total: 0 },
      committed: 0,
      available: 500_000_000,
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    const { changes } = await stateOf(data.id);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'create',
      budget_code: '6105',
      actor_id: finance.id,
      actor_name: 'Chausiku Finance',
      before: null,
      after: { code: '6105', amount: 500_000_000, meta_data: ['operating cost', 'stemParkDar'] },
    });
    expect(t.events).toEqual([
      { organizationId, event: 'budget_updated', payload: { code: '6105' } },
    ]);
  });

  it("defaults the department to 'all' and keeps an empty description as none", async () => {
    // Undefined fields are left out of the JSON body.
    const response = await post(director, {
      ...validBudget,
      department: undefined,
      description: '',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ department: 'all', description: null });
  });

  it.each([
    ['executive_secretary', () => secretary],
    ['director', () => director],
  ])('lets the %s (finance permission) create', async (_role, user) => {
    expect((await post(user(), { ...validBudget, code: 7 })).statusCode).toBe(201);
  });

  it('refuses a duplicate code in the organisation with 409, but not in another organisation', async () => {
    expect((await post(finance, validBudget)).statusCode).toBe(201);
    const duplicate = await post(director, { ...validBudget, name: 'Another name' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'A budget with code 6105 already exists.' });
    expect(await t.db.$count(budgets)).toBe(1);
    expect(await t.db.$count(budgetChanges)).toBe(1);
    expect((await post(outsider, validBudget)).statusCode).toBe(201);
  });

  it('lets only one of two racing creates of the same code win', async () => {
    const answers = await Promise.all([post(finance, validBudget), post(director, validBudget)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await t.db.$count(budgets)).toBe(1);
    expect(await t.db.$count(budgetChanges)).toBe(1);
  });

  it.each<[string, object, string, RegExp]>([
    ['cost code 0', { code: 0 }, 'code', /cost code must be a whole number from 1 to 99/],
    ['cost code 100', { code: 100 }, 'code', /from 1 to 99/],
    ['cost code 1.5', { code: 1.5 }, 'code', /from 1 to 99/],
    ['a cost code as text', { code: 'five' }, 'code', /from 1 to 99/],
    ['a zero amount', { amount: 0 }, 'amount', /greater than zero/],
    ['a negative amount', { amount: -10 }, 'amount', /greater than zero/],
    ['an amount as text', { amount: '500,000' }, 'amount', /must be a number/],
    [
      'an unknown category',
      { meta_data: ['travel', 'hq'] },
      'meta_data.0',
      /Unknown expense category/,
    ],
    ['an unknown branch', { meta_data: ['unicef', 'moshi'] }, 'meta_data.1', /Unknown branch/],
    ['a missing branch', { meta_data: ['unicef'] }, 'meta_data', /./],
    ['an unknown currency', { amount_currency: 'eur' }, 'amount_currency', /Unknown currency/],
    ['an unknown department', { department: 'kitchen' }, 'department', /Unknown department/],
    ['an empty name', { name: '  ' }, 'name', /Name is required/],
  ])('answers 400 for %s and writes nothing', async (_name, change, path, message) => {
    const response = await post(finance, { ...validBudget, ...change });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toMatch(/^Invalid input/);
    expect(body.error).toMatch(message);
    expect(body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await t.db.$count(budgets)).toBe(0);
    expect(await t.db.$count(budgetChanges)).toBe(0);
  });

  it.each([
    ['staff', () => staff],
    ['board_chairman', () => chairman],
    ['petty_cash_custodian', () => custodian],
  ])('refuses the %s with 403', async (_role, user) => {
    const response = await post(user(), validBudget);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Only finance can change or download budgets.' });
    expect(await t.db.$count(budgets)).toBe(0);
  });

  it('answers 401 without a token', async () => {
    expect((await post(null, validBudget)).statusCode).toBe(401);
  });
});

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

describe('PUT /budget', () => {
  it('edits a budget, writes an edit changelog row with before and after, and publishes', async () => {
    const budget = await buildBudget();
    const response = await put(
      finance,
      editOf(budget, { name: 'Dar park 2026', amount: 2_000_000, department: 'outreach' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      name: 'Dar park 2026',
      amount: 2_000_000,
      department: 'outreach',
      available: 2_000_000,
    });
    const { changes, row } = await stateOf(budget.id);
    expect(row?.modified_at.getTime()).toBeGreaterThan(budget.modified_at.getTime());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'edit',
      actor_name: 'Chausiku Finance',
      before: { name: 'Dar park operations', amount: 1_000_000, department: 'all' },
      after: { name: 'Dar park 2026', amount: 2_000_000, department: 'outreach' },
    });
    expect(t.events).toEqual([
      { organizationId, event: 'budget_updated', payload: { code: '6105' } },
    ]);
  });

  it('keeps department and description when an edit leaves them out', async () => {
    const budget = await buildBudget({ department: 'finance', description: 'Grant 7' });
    const edit = editOf(budget, { name: 'Renamed', department: undefined, description: undefined });
    const response = await put(finance, edit);
    expect(response.json().data).toMatchObject({
      name: 'Renamed',
      department: 'finance',
      description: 'Grant 7',
    });
  });

  it('changes currency and code while no request exists, and publishes both codes', async () => {
    const budget = await buildBudget();
    const response = await put(
      finance,
      editOf(budget, { amount_currency: 'usd', code: 7, meta_data: ['unicef', 'hq'] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ code: '3007', cost_code: 7, currency: 'usd' });
    expect(t.events.map((event) => event.payload)).toEqual([{ code: '6105' }, { code: '3007' }]);
  });

  it('answers 409 when a new code is taken, changing nothing', async () => {
    const budget = await buildBudget();
    await buildBudget({ costCode: 7 });
    const before = await stateOf(budget.id);
    const response = await put(finance, editOf(budget, { code: 7 }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('A budget with code 6107 already exists.');
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it.each<[string, object]>([
    ['currency', { amount_currency: 'usd' }],
    ['cost code', { code: 6 }],
    ['category', { meta_data: ['unicef', 'stemParkDar'] }],
    ['branch', { meta_data: ['operating cost', 'hq'] }],
  ])(
    'refuses a %s change once requests exist with the spec message, changing nothing',
    async (_name, change) => {
      const budget = await buildBudget();
      await buildRequest(budget, { status: 'rejected' });
      const before = await stateOf(budget.id);
      const response = await put(finance, editOf(budget, change));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(
        "Due to the existence of prior requests, curreny and code numbers can't be modified.",
      );
      expect(response.json().error).toBe(messages.priorRequestsBlockChange);
      expect(await stateOf(budget.id)).toEqual(before);
      expect(t.events).toEqual([]);
    },
  );

  it('freezes the terms of a budget that only an earlier version of a request is on', async () => {
    // A request returned for edits and resubmitted on another budget leaves its first version
    // here: none is counted on the budget, yet it has had a request (spec §4).
    const budget = await buildBudget();
    await buildRequest(budget, { isLatest: false, status: 'request_edit' });
    const before = await stateOf(budget.id);
    const detail = (await get(finance, `budget/${budget.code}`)).json().data;
    expect({ total: detail.requests.total, prior: detail.has_prior_requests }).toEqual({
      total: 0,
      prior: true,
    });
    const response = await put(finance, editOf(budget, { amount_currency: 'usd', code: 6 }));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toBe(messages.priorRequestsBlockChange);
    expect(await stateOf(budget.id)).toEqual(before);
    // Its other fields still change, and a budget no request has been on has nothing frozen.
    expect((await put(finance, editOf(budget, { name: 'Renamed' }))).statusCode).toBe(200);
    const unused = await buildBudget({ costCode: 8 });
    expect((await get(finance, `budget/${unused.code}`)).json().data.has_prior_requests).toBe(
      false,
    );
  });

  it('still lets a used budget grow and change its other fields', async () => {
    const budget = await buildBudget();
    await buildRequest(budget, { amount: 250 });
    const response = await put(finance, editOf(budget, { amount: 1_500_000, name: 'Grown' }));
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      amount: 1_500_000,
      committed: 250,
      available: 1_499_750,
      requests: { total: 1 },
    });
  });

  it('refuses an amount decrease with 400, changing nothing', async () => {
    const budget = await buildBudget();
    const before = await stateOf(budget.id);
    const response = await put(finance, editOf(budget, { amount: 999_999.99 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(
      'The amount of a budget can only be increased; it is TZS 1,000,000 now.',
    );
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it('archives and re-activates with {id, current_status}, each with its changelog row', async () => {
    const budget = await buildBudget();
    const archived = await put(finance, { id: budget.id, current_status: 'archived' });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data.current_status).toBe('archived');
    expect((await get(staff, 'budget/codes')).json().budget_codes).toEqual([]);
    const again = await put(finance, { id: budget.id, current_status: 'archived' });
    expect(again.statusCode).toBe(200);
    const reactivated = await put(director, { id: budget.id, current_status: 'active' });
    expect(reactivated.json().data.current_status).toBe('active');
    const { changes } = await stateOf(budget.id);
    // Archiving an archived budget changes nothing, so it writes nothing.
    expect(changes.map((change) => change.action)).toEqual(['archive', 'reactivate']);
    expect(changes[0]).toMatchObject({
      before: { current_status: 'active' },
      after: { current_status: 'archived' },
    });
    expect(t.events).toHaveLength(2);
  });

  it('archives a used budget', async () => {
    const budget = await buildBudget();
    await buildRequest(budget);
    expect((await put(finance, { id: budget.id, current_status: 'archived' })).statusCode).toBe(
      200,
    );
  });

  it("answers 404 for another organisation's budget and an unknown id, changing nothing", async () => {
    const foreign = await buildBudget({ organization: otherOrganizationId });
    const before = await stateOf(foreign.id);
    const response = await put(finance, editOf(foreign, { amount: 5_000_000 }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No such budget was found.' });
    expect((await put(finance, { id: foreign.id, current_status: 'archived' })).statusCode).toBe(
      404,
    );
    expect(await stateOf(foreign.id)).toEqual(before);
    expect((await put(finance, { id: randomUUID(), current_status: 'archived' })).statusCode).toBe(
      404,
    );
  });

  it('refuses a user without finance permission with 403, changing nothing', async () => {
    const budget = await buildBudget();
    const before = await stateOf(budget.id);
    for (const user of [staff, chairman, custodian]) {
      expect((await put(user, { id: budget.id, current_status: 'archived' })).statusCode).toBe(403);
      expect((await put(user, editOf(budget, { amount: 9_000_000 }))).statusCode).toBe(403);
    }
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it.each<[string, (budget: BudgetRow) => object, string]>([
    ['an id alone', (budget) => ({ id: budget.id }), 'current_status'],
    ['a partial edit', (budget) => ({ id: budget.id, name: 'x' }), 'amount'],
    ['a bad id', () => ({ id: 'nope', current_status: 'archived' }), 'id'],
    [
      'an unknown status',
      (budget) => ({ id: budget.id, current_status: 'gone' }),
      'current_status',
    ],
    ['cost code 100', (budget) => editOf(budget, { code: 100 }), 'code'],
    ['a zero amount', (budget) => editOf(budget, { amount: 0 }), 'amount'],
  ])('answers 400 for %s, changing nothing', async (_name, body, path) => {
    const budget = await buildBudget();
    const before = await stateOf(budget.id);
    const response = await put(finance, body(budget));
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await stateOf(budget.id)).toEqual(before);
  });
});

describe('an edit made on the budget read (If-Match, docs/decisions/0036)', () => {
  function putWith(ifMatch: string, body: object) {
    return t.app.inject({
      method: 'PUT',
      url: '/api/v1/budget',
      headers: { ...auth(finance), 'if-match': ifMatch },
      payload: body,
    });
  }
  async function tagOf(code: string) {
    const response = await get(finance, `budget/${code}`);
    expect(response.statusCode).toBe(200);
    return response.headers.etag as string;
  }

  it('refuses with 412 an edit of a budget someone else edited since, changing nothing', async () => {
    const budget = await buildBudget();
    const tag = await tagOf(budget.code);
    expect(tag).toMatch(/^"[\w-]+"$/);

    const first = await putWith(tag, editOf(budget, { name: 'Renamed by the first' }));
    expect(first.statusCode).toBe(200);
    const saved = first.headers.etag;
    expect(saved).not.toBe(tag);
    expect(await tagOf(budget.code)).toBe(saved);

    const before = await stateOf(budget.id);
    const late = await putWith(tag, editOf(budget, { amount: 3_000_000 }));
    expect(late.statusCode).toBe(412);
    expect(late.json().error).toBe(
      'The budget 6105 was changed by someone else after you opened it. Check it and save again.',
    );
    expect(late.headers.etag).toBe(saved);
    expect(await stateOf(budget.id)).toEqual(before);

    // Made on the version now stored (a weak tag from a compressing gateway too), it goes through.
    const retried = await putWith(`W/${saved}`, editOf(budget, { amount: 3_000_000 }));
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ name: 'Dar park operations', amount: 3_000_000 });
  });

  it("keeps the version while only the budget's balance moves, and changes it on archiving", async () => {
    const budget = await buildBudget();
    const tag = await tagOf(budget.code);
    await t.db.update(budgets).set({ committed: '250000.00' }).where(eq(budgets.id, budget.id));
    expect(await tagOf(budget.code)).toBe(tag);
    expect((await put(finance, { id: budget.id, current_status: 'archived' })).statusCode).toBe(
      200,
    );
    expect(await tagOf(budget.code)).not.toBe(tag);
    expect((await putWith(tag, editOf(budget, { name: 'Stale' }))).statusCode).toBe(412);
  });

  it('lets exactly one of four edits made on one version through', async () => {
    const budget = await buildBudget();
    const tag = await tagOf(budget.code);
    const responses = await Promise.all(
      [1, 2, 3, 4].map((index) => putWith(tag, editOf(budget, { name: `Editor ${index}` }))),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    expect((await stateOf(budget.id)).changes).toHaveLength(1);
  });
});

describe('POST /budget/remove', () => {
  it('deletes a budget without requests and keeps its changelog with a delete row', async () => {
    const created = (await post(finance, validBudget)).json().data;
    const response = await remove(finance, created.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: created.id, code: '6105' });
    const { row, changes } = await stateOf(created.id);
    expect(row).toBeUndefined();
    expect(changes.map((change) => change.action)).toEqual(['create', 'delete']);
    expect(changes[1]).toMatchObject({ before: { code: '6105' }, after: null });
    expect(t.events.at(-1)).toEqual({
      organizationId,
      event: 'budget_updated',
      payload: { code: '6105' },
    });
    expect((await get(finance, 'budget/6105')).statusCode).toBe(404);
  });

  it('refuses to delete a used budget with 409, changing nothing', async () => {
    const budget = await buildBudget();
    await buildRequest(budget, { status: 'rejected' });
    const before = await stateOf(budget.id);
    const response = await remove(finance, budget.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(
      "The budget 6105 has requests, so it can't be deleted. Archive it instead.",
    );
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it('refuses when only an older version of a request uses it', async () => {
    const budget = await buildBudget();
    await buildRequest(budget, { isLatest: false });
    expect((await remove(finance, budget.id)).statusCode).toBe(409);
    expect((await stateOf(budget.id)).row).toBeDefined();
    expect(await t.db.$count(budgetChanges)).toBe(0);
  });

  it("answers 404 for another organisation's budget and 403 without finance, changing nothing", async () => {
    const foreign = await buildBudget({ organization: otherOrganizationId });
    const own = await buildBudget({ costCode: 6 });
    expect((await remove(finance, foreign.id)).statusCode).toBe(404);
    expect((await remove(staff, own.id)).statusCode).toBe(403);
    expect((await remove(chairman, own.id)).statusCode).toBe(403);
    expect(await t.db.$count(budgets)).toBe(2);
    expect(await t.db.$count(budgetChanges)).toBe(0);
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
