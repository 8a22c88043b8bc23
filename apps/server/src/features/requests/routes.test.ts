import { messages } from '@imprest/domain/messages.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetBalance } from '../budgets/ledger.ts';
import { requests, reviews } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { uploaded } from '../../../test/factories/files.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import {
  futureDay,
  requestBody,
  review,
  submit,
  submitted,
} from '../../../test/factories/requests.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import type { BudgetRow } from '../budgets/ledger.ts';

let t: TestApp;
let organizationId: string;
let staff: TestUser;
let otherStaff: TestUser;
let finance: TestUser;
let director: TestUser;
let budget: BudgetRow;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, staff, otherStaff, finance, director, budget } =
    await buildStaffedOrganization(t.db));
});

const available = async (row: BudgetRow) => (await budgetBalance(t.db, row)).available;
const requestCount = async () => t.db.$count(requests);

describe('POST /requests', () => {
  it('creates a pending request owned by the signed-in user with a reviewer chain from the default matrix', async () => {
    const invoice = await uploaded(t.app, staff, 'invoice.pdf');
    const photo = await uploaded(t.app, staff, 'photo.jpg', 'jpeg bytes');
    const before = await available(budget);
    t.events.length = 0;
    const response = await submit(
      t.app,
      staff,
      requestBody('6105', {
        amount_requested: 250_000.5,
        request_owner_id: otherStaff.id,
        request_owner_name: 'Mallory',
        department: 'finance',
        file_paths: [invoice, photo],
      }),
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      request_owner_id: staff.id,
      request_owner_name: 'Asha Staff',
      department: 'engineering',
      purpose: 'travel',
      mode_of_service: 'public',
      amount_requested: 250_000.5,
      amount_currency: 'tzs',
      exchange_rate: 1,
      amount_base: 250_000.5,
      budget_code: '6105',
      budget: { code: '6105', name: 'Field operations' },
      payment_mode: 'cash',
      tax_status: 'taxInclusive',
      current_status: 'pending',
      approval_number: null,
      version: 1,
      parent_request: null,
      is_latest: true,
      current_retirement: null,
      owner_unretired_total: 0,
      file_paths: [invoice, photo],
      files: [
        { name: invoice, type: 'pdf' },
        { name: photo, type: 'image' },
      ],
    });
    expect(body.chain_id).toBe(body.id);
    expect(body.version_history).toEqual([
      { id: body.id, version: 1, created_at: body.created_at, current_status: 'pending' },
    ]);
    expect(body.reviews).toEqual([
      expect.objectContaining({
        step: 1,
        title: 'First Reviewer',
        reviewer_role: 'finance_officer',
        reviewer_title: 'Finance Officer',
        status: 'pending',
        comments: '',
        reviewer_id: null,
        reviewer_name: null,
      }),
      expect.objectContaining({
        step: 2,
        title: 'Second Reviewer',
        reviewer_role: 'executive_secretary',
        status: 'pending',
      }),
    ]);
    expect(await available(budget)).toBe(before - 250_000.5);
    expect(t.events).toEqual([
      { organizationId, event: 'request_updated', payload: { request_id: body.id } },
      { organizationId, event: 'budget_updated', payload: { code: '6105' } },
    ]);
  });

  it.each([
    [149_999_999, ['finance_officer', 'executive_secretary']],
    [150_000_000, ['finance_officer', 'executive_secretary', 'director']],
  ])('routes %d tzs to %j', async (amount, roles) => {
    const body = await submitted(t.app, staff, requestBody('6105', { amount_requested: amount }));
    expect(body.reviews.map((item) => item.reviewer_role)).toEqual(roles);
  });

  it('converts another currency to tzs with the organisation rate to choose the reviewers, and stores the rate', async () => {
    const usd = await buildBudget(t.db, { organizationId, currency: 'usd', amount: 1_000_000 });
    const small = await submitted(
      t.app,
      staff,
      requestBody(usd.code, { amount_currency: 'usd', amount_requested: 57_692 }),
    );
    expect(small).toMatchObject({
      exchange_rate: 2600,
      amount_base: 149_999_200,
      amount_currency: 'usd',
    });
    expect(small.reviews).toHaveLength(2);
    const large = await submitted(
      t.app,
      staff,
      requestBody(usd.code, { amount_currency: 'usd', amount_requested: 57_693 }),
    );
    expect(large).toMatchObject({ amount_base: 150_001_800 });
    expect(large.reviews).toHaveLength(3);
    // The usd budget holds the request's own amount, not the tzs one.
    expect(await available(usd)).toBe(1_000_000 - 57_692 - 57_693);
  });

  it('accepts today and an ISO date-time, stored as the calendar day in the organisation time zone', async () => {
    const today = todayIn(t.context.config.orgTimezone);
    const plain = await submitted(t.app, staff, requestBody('6105', { expenditure_date: today }));
    expect(plain.expenditure_date).toBe(today);
    const day = futureDay(10);
    // Midnight in Dar es Salaam (UTC+3) is 21:00 UTC the evening before.
    const previousEvening = new Date(Date.parse(`${day}T00:00:00Z`) - 3 * 3_600_000).toISOString();
    const withTime = await submitted(
      t.app,
      staff,
      requestBody('6105', { expenditure_date: previousEvening }),
    );
    expect(withTime.expenditure_date).toBe(day);
  });

  it('drops the mode of a purpose without modes', async () => {
    const body = await submitted(
      t.app,
      staff,
      requestBody('6105', { purpose: 'pettyCash', mode_of_service: 'public' }),
    );
    expect(body.mode_of_service).toBeNull();
  });

  describe('refuses bad input and changes nothing', () => {
    const yesterday = () => {
      const now = new Date(Date.now() - 86_400_000);
      return todayIn(t.context.config.orgTimezone, now);
    };

    it.each([
      [
        'a text amount',
        () => ({ amount_requested: '1000' }),
        400,
        /^Invalid input: amount_requested: Amount must be a number/,
      ],
      ['a zero amount', () => ({ amount_requested: 0 }), 400, /greater than zero/],
      ['a negative amount', () => ({ amount_requested: -10 }), 400, /greater than zero/],
      ['a missing purpose', () => ({ purpose: undefined }), 400, /purpose/],
      [
        'a mode of another purpose',
        () => ({ mode_of_service: 'hotel' }),
        400,
        /mode_of_service must be one of/,
      ],
      [
        'a malformed date',
        () => ({ expenditure_date: '31/12/2030' }),
        400,
        /expenditure_date must be a date/,
      ],
      [
        'a date-time of a day the calendar lacks',
        () => ({ expenditure_date: `${new Date().getUTCFullYear() + 1}-02-30T10:00:00Z` }),
        400,
        /expenditure_date must be a date/,
      ],
      [
        'a date whose retirement would fall due after the year 9999',
        () => ({ expenditure_date: '9999-12-31' }),
        400,
        /^The expenditure date is too far in the future\.$/,
      ],
      [
        'a past date',
        () => ({ expenditure_date: yesterday() }),
        400,
        /^The expenditure date cannot be before today\.$/,
      ],
      [
        'an unknown budget code',
        () => ({ budget_code: '9999' }),
        400,
        /^Budget code 9999 does not exist\.$/,
      ],
      [
        'a currency mismatch',
        () => ({ amount_currency: 'usd' }),
        400,
        new RegExp(`^${messages.currencyDiffers}$`),
      ],
      [
        'an amount above the balance',
        () => ({ amount_requested: 900_000_000_000 }),
        400,
        new RegExp(`^${messages.amountExceedsBalance}$`),
      ],
    ])('%s', async (_name, change, status, message) => {
      const before = [await available(budget), await requestCount(), await t.db.$count(reviews)];
      const response = await submit(t.app, staff, requestBody('6105', change()));
      expect(response.statusCode).toBe(status);
      expect(response.json().error).toMatch(message);
      expect([await available(budget), await requestCount(), await t.db.$count(reviews)]).toEqual(
        before,
      );
    });

    it('an archived budget', async () => {
      const archived = await buildBudget(t.db, { organizationId, status: 'archived' });
      const before = await requestCount();
      const response = await submit(t.app, staff, requestBody(archived.code));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(
        `Budget code ${archived.code} is archived and cannot take new requests.`,
      );
      expect(await requestCount()).toBe(before);
    });

    it("another organisation's budget code", async () => {
      const otherOrganization = await buildOrganization(t.db, 'Other Org');
      const foreign = await buildBudget(t.db, { organizationId: otherOrganization, code: '7001' });
      const response = await submit(t.app, staff, requestBody('7001'));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('Budget code 7001 does not exist.');
      expect(await available(foreign)).toBe(1_000_000);
    });

    it('a locked user, with the locked-account message', async () => {
      const locked = await buildUser(t.db, { organizationId, isLocked: true });
      const before = await available(budget);
      const response = await submit(t.app, locked, requestBody('6105'));
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe(messages.lockedAccount);
      expect(await available(budget)).toBe(before);
    });

    it('no token', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/requests',
        payload: requestBody('6105'),
      });
      expect(response.statusCode).toBe(401);
    });
  });
});

describe('GET /requests/request/{id}', () => {
  let mine: { id: string };

  beforeAll(async () => {
    mine = await submitted(
      t.app,
      staff,
      requestBody('6105', { purpose: 'meals', mode_of_service: 'catering' }),
    );
  });

  it('answers the owner and any admin of the organisation', async () => {
    for (const user of [staff, finance, director]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/requests/request/${mine.id}`,
        headers: auth(user),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: mine.id,
        purpose: 'meals',
        reviews: expect.any(Array),
      });
    }
  });

  it('hides it from other staff, other organisations and unknown ids with 404', async () => {
    const otherOrganization = await buildOrganization(t.db, 'Elsewhere');
    const outsider = await buildUser(t.db, { organizationId: otherOrganization, role: 'director' });
    for (const [user, id] of [
      [otherStaff, mine.id],
      [outsider, mine.id],
      [staff, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/requests/request/${id}`,
        headers: auth(user),
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(messages.requestNotFound);
    }
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/requests/request/42',
      headers: auth(staff),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/id must be a UUID/);
  });
});

describe('lists, counts and downloads', () => {
  let listOrganization: string;
  let owner: TestUser;
  let colleague: TestUser;
  let officer: TestUser;
  let officer2: TestUser;
  let secretary2: TestUser;
  let approvedId: string;

  beforeAll(async () => {
    listOrganization = await buildOrganization(t.db, 'Lists Org');
    owner = await buildUser(t.db, { organizationId: listOrganization, fullname: 'Neema Owner' });
    colleague = await buildUser(t.db, {
      organizationId: listOrganization,
      fullname: 'Baraka Colleague',
    });
    officer = await buildUser(t.db, {
      organizationId: listOrganization,
      role: 'finance_officer',
      fullname: 'Officer One',
    });
    officer2 = await buildUser(t.db, {
      organizationId: listOrganization,
      role: 'finance_officer',
      fullname: 'Officer Two',
    });
    secretary2 = await buildUser(t.db, {
      organizationId: listOrganization,
      role: 'executive_secretary',
    });
    await buildBudget(t.db, { organizationId: listOrganization, code: '5001', amount: 10_000_000 });
    // Owner: travel (pending), meals (approved), kits (rejected), procurement (on_progress).
    await submitted(
      t.app,
      owner,
      requestBody('5001', { purpose: 'travel', amount_requested: 100 }),
    );
    const meals = await submitted(
      t.app,
      owner,
      requestBody('5001', { purpose: 'meals', mode_of_service: 'catering', amount_requested: 200 }),
    );
    const kits = await submitted(
      t.app,
      owner,
      requestBody('5001', { purpose: 'kits', mode_of_service: 'product', amount_requested: 300 }),
    );
    const procurement = await submitted(
      t.app,
      owner,
      requestBody('5001', {
        purpose: 'procurement',
        mode_of_service: 'goods',
        amount_requested: 400,
      }),
    );
    // Colleague: one pending request, and the officer's own request.
    await submitted(
      t.app,
      colleague,
      requestBody('5001', { purpose: 'other', amount_requested: 500 }),
    );
    await submitted(
      t.app,
      officer,
      requestBody('5001', { purpose: 'pettyCash', amount_requested: 600 }),
    );
    const approve = async (
      request: { id: string; reviews: { id: string }[] },
      steps: [TestUser, string][],
    ) => {
      for (const [index, [user, status]] of steps.entries()) {
        const response = await review(t.app, user, {
          id: request.reviews[index]?.id ?? '',
          request_id: request.id,
          status,
        });
        expect(response.statusCode, response.body).toBe(200);
      }
    };
    await approve(meals, [
      [officer, 'approved'],
      [secretary2, 'approved'],
    ]);
    await approve(kits, [[officer, 'rejected']]);
    await approve(procurement, [[officer, 'approved']]);
    approvedId = meals.id;
  });

  const list = (user: TestUser, path: string, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/v1/requests/${path}${query}`, headers: auth(user) });

  it('staff mode lists only the caller’s own newest requests, newest first, as data and requests', async () => {
    const response = await list(owner, `user/${owner.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ page: 1, per_page: 10, total: 4 });
    expect(body.data.map((item: { purpose: string }) => item.purpose)).toEqual([
      'procurement',
      'kits',
      'meals',
      'travel',
    ]);
    expect(body.requests).toEqual(body.data);
    expect(body.data[0].reviews).toBeUndefined();
  });

  it('admin mode lists every request of the organisation', async () => {
    const response = await list(officer, `finance_officer/${officer.id}`, '?per_page=2&page=2');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ page: 2, per_page: 2, total: 6 });
    expect(response.json().data).toHaveLength(2);
  });

  it.each([
    ['pending', 3],
    ['on_progress', 1],
    ['approved', 1],
    ['rejected', 1],
    ['all', 6],
  ])('filters by status %s', async (status, total) => {
    const response = await list(officer, `finance_officer/${officer.id}`, `?status=${status}`);
    expect(response.json().total).toBe(total);
  });

  it('searches purpose, owner name and approval number, without case, treating wildcards literally', async () => {
    const search = async (term: string) =>
      (
        await list(officer, `finance_officer/${officer.id}`, `?search=${encodeURIComponent(term)}`)
      ).json().total;
    expect(await search('MEALS')).toBe(1);
    expect(await search('baraka coll')).toBe(1);
    expect(await search('neema')).toBe(4);
    const approved = (await list(owner, `user/${owner.id}`, '?status=approved')).json().data[0];
    expect(approved.approval_number).toMatch(/^AP-\d{4}-00001$/);
    expect(await search(approved.approval_number.toLowerCase())).toBe(1);
    expect(await search('%')).toBe(0);
    expect(await search('_')).toBe(0);
  });

  it('refuses admin mode to staff, and staff mode for someone else to staff', async () => {
    expect((await list(owner, `staff/${owner.id}`)).statusCode).toBe(403);
    expect((await list(owner, `finance_officer/${owner.id}`)).statusCode).toBe(403);
    const other = await list(owner, `user/${colleague.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('You can only see your own requests.');
    // An admin may look at one user's own requests.
    expect((await list(officer, `user/${owner.id}`)).json().total).toBe(4);
  });

  it('refuses an unknown mode, a bad status and an oversized page with 400', async () => {
    expect((await list(owner, `everyone/${owner.id}`)).statusCode).toBe(400);
    expect((await list(owner, `user/${owner.id}`, '?status=request_edit')).statusCode).toBe(400);
    expect((await list(owner, `user/${owner.id}`, '?per_page=500')).statusCode).toBe(400);
  });

  it("summarises a user's requests for the user and for admins", async () => {
    const expected = {
      pending: 2,
      approved: 1,
      rejected: 1,
      pending_retirement: 0,
      requests: 4,
      outstanding_retirements: [],
    };
    for (const user of [owner, officer]) {
      const response = await list(user, `summary/${owner.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(expected);
    }
    expect((await list(colleague, `summary/${owner.id}`)).statusCode).toBe(403);
    expect((await list(director, `summary/${owner.id}`)).statusCode).toBe(404);
  });

  it('lists requests whose next review is the caller’s role, except the caller’s own', async () => {
    const mine = await list(officer, `finance_officer/pending/${officer.id}`);
    expect(mine.statusCode).toBe(200);
    // travel and the colleague's request; not the officer's own petty cash, not the on_progress one.
    expect(mine.json().total).toBe(2);
    expect(
      mine
        .json()
        .data.map((item: { purpose: string }) => item.purpose)
        .sort(),
    ).toEqual(['other', 'travel']);
    const other = await list(officer2, `finance_officer/pending/${officer2.id}`);
    expect(other.json().total).toBe(3);
    const next = await list(secretary2, `executive_secretary/pending/${secretary2.id}`);
    expect(next.json().data.map((item: { purpose: string }) => item.purpose)).toEqual([
      'procurement',
    ]);
    expect((await list(officer, `executive_secretary/pending/${officer.id}`)).statusCode).toBe(403);
  });

  it('pages the pending list like every list, oldest first, counting every waiting request', async () => {
    const path = `finance_officer/pending/${officer2.id}`;
    const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);
    const whole = (await list(officer2, path)).json();
    expect(whole.data).toHaveLength(3);
    // The requests list shape of spec §3: data, page, per_page, total.
    expect(whole).toMatchObject({ page: 1, per_page: 10, total: 3 });
    const first = await list(officer2, path, '?per_page=2');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ page: 1, per_page: 2, total: 3 });
    const second = (await list(officer2, path, '?per_page=2&page=2')).json();
    expect(second).toMatchObject({ page: 2, per_page: 2, total: 3 });
    expect([...ids(first.json()), ...ids(second)]).toEqual(ids(whole));
    // Past the end: no rows, the same total, whatever the page size.
    const past = (await list(officer2, path, '?per_page=2&page=3')).json();
    expect(past).toMatchObject({ data: [], page: 3, per_page: 2, total: 3 });
    const pastTen = (await list(officer2, path, '?page=2')).json();
    expect(pastTen).toMatchObject({ data: [], page: 2, per_page: 10, total: 3 });
    // An empty queue.
    const none = (await list(director, `director/pending/${director.id}`)).json();
    expect(none).toMatchObject({ data: [], page: 1, per_page: 10, total: 0 });
    const tooMany = await list(officer2, path, '?per_page=101');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toMatch(/per_page/);
  });

  it('shows the owner’s approved total to a reviewer', async () => {
    const pendingOne = (await list(owner, `user/${owner.id}`, '?status=pending')).json().data[0];
    const response = await list(officer, `request/${pendingOne.id}`);
    expect(response.json().owner_unretired_total).toBe(200);
    const approved = await list(officer, `request/${approvedId}`);
    expect(approved.json().reviews.map((item: { status: string }) => item.status)).toEqual([
      'approved',
      'approved',
    ]);
  });

  it('downloads a spreadsheet named after the user', async () => {
    const response = await list(owner, 'download/user', `?id=${owner.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Neema Owner requests.xlsx"; filename*=UTF-8''Neema%20Owner%20requests.xlsx`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Requests');
    const header = sheet?.getRow(1).values as unknown[];
    expect(header.slice(1)).toEqual([
      'Name',
      'Department',
      'Purpose',
      'Supplier',
      'Expenditure date',
      'Amount',
      'Currency',
      'Amount (TZS)',
      'Budget code',
      'Payment mode',
      'Status',
      'Approval number',
      'Justification',
      'Created',
    ]);
    expect(sheet?.rowCount).toBe(5);
    const first = sheet?.getRow(2).values as unknown[];
    expect(first.slice(1, 14)).toEqual([
      'Neema Owner',
      // The department, purpose, payment mode and status in the words the pages use, not their
      // stored keys.
      'Engineering',
      'Procurement',
      'Dar Express',
      expect.any(Date),
      400,
      'TZS',
      400,
      '5001',
      'Cash',
      'On progress',
      // No approval number yet: an empty cell.
      undefined,
      'Field visit to the Tanga stem park',
    ]);
  });

  it('downloads the whole organisation in admin mode, for admins only', async () => {
    const response = await list(officer, 'download/finance_officer', `?id=${officer.id}`);
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Requests')?.rowCount).toBe(7);
    expect((await list(owner, 'download/staff', `?id=${owner.id}`)).statusCode).toBe(403);
    expect((await list(owner, 'download/user', `?id=${colleague.id}`)).statusCode).toBe(403);
    expect((await list(owner, 'download/user')).statusCode).toBe(400);
  });
});
