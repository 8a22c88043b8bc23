import { eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { retirements } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  approvedRequest,
  attachRetirement,
  buildRetirement,
  reviewedRetirement,
  submittedRetirement,
  type RetirementBody,
} from '../../../test/factories/retirements.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

let t: TestApp;
let org: StaffedOrganization;
let other: StaffedOrganization;
/** Asha Staff's retirements, oldest first: 16 travel ones, then one approved meals one. */
let ashas: RetirementBody[];
/** Juma Other's: one on_progress accommodation one. */
let jumas: RetirementBody;

const retirementOf = (owner: TestUser, overrides: Record<string, unknown> = {}) =>
  buildRetirement(t.app, {
    owner,
    finance: org.finance,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    amount: 20_000,
    ...overrides,
  });

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  other = await buildStaffedOrganization(t.db, { name: 'Other Org' });
  ashas = [];
  for (let index = 0; index < 16; index += 1) ashas.push(await retirementOf(org.staff));
  // An approved meals retirement of Asha's, through the API.
  const meals = await approvedRequest(t.app, {
    owner: org.staff,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    overrides: { purpose: 'meals', mode_of_service: 'catering', amount_requested: 8_000 },
  });
  const attached = (await attachRetirement(t.app, org.finance, { id: meals.id })).json()
    .current_retirement as RetirementBody;
  const submitted = await submittedRetirement(t.app, org.staff, attached, { amount_spent: 7_500 });
  const halfway = await reviewedRetirement(t.app, org.finance, submitted, 'approved');
  ashas.push(await reviewedRetirement(t.app, org.secretary, halfway, 'approved'));
  const juma = await retirementOf(org.otherStaff);
  jumas = await submittedRetirement(t.app, org.otherStaff, juma, { amount_spent: 100 });
  // Another organisation's, which no list here may show.
  await buildRetirement(t.app, {
    owner: other.staff,
    finance: other.finance,
    reviewers: [other.finance, other.secretary],
    budgetCode: other.budget.code,
  });
});

const list = (user: TestUser, query: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/retirement/requests?${query}`,
    headers: auth(user),
  });

const ids = (response: { json: () => { data: { id: string }[] } }) =>
  response.json().data.map((item) => item.id);

describe('GET /retirement/requests', () => {
  it('lists the caller’s own, newest first, 15 per page', async () => {
    const first = await list(org.staff, 'role=user');
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ page: 1, per_page: 15, total: 17 });
    expect(body.data).toHaveLength(15);
    expect(body.retirements).toEqual(body.data);
    const newestFirst = [...ashas].reverse().map((retirement) => retirement.id);
    expect(ids(first)).toEqual(newestFirst.slice(0, 15));
    expect(body.data[0]).toEqual({
      id: ashas[16]?.id,
      request_id: ashas[16]?.request_id,
      retirement_owner_id: org.staff.id,
      name: 'Asha Staff',
      purpose: 'meals',
      approval_number: expect.stringMatching(/^AP-\d{4}-\d{5}$/),
      budget_code: org.budget.code,
      status: 'approved',
      due_date: expect.any(String),
      retirement_date: expect.any(String),
      amount_requested: 8_000,
      amountReceived: 8_000,
      amount_spent: 7_500,
      amount_currency: 'tzs',
      currency: 'tzs',
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    const second = await list(org.staff, 'role=user&page=2');
    expect(ids(second)).toEqual(newestFirst.slice(15));
    expect(ids(await list(org.staff, 'role=user&limit=5&page=2'))).toEqual(
      newestFirst.slice(5, 10),
    );
    expect(ids(await list(org.staff, 'per_page=3'))).toEqual(newestFirst.slice(0, 3));
  });

  it('lists every retirement of the organisation in admin mode', async () => {
    for (const user of [org.finance, org.admin, org.director]) {
      const response = await list(user, `role=${user.role}&limit=100`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().total).toBe(18);
      expect(ids(response)).toContain(jumas.id);
      expect(ids(response)[0]).toBe(jumas.id);
    }
  });

  it('filters by status', async () => {
    const approved = await list(org.finance, 'role=finance_officer&status=approved');
    expect(ids(approved)).toEqual([ashas[16]?.id]);
    const underReview = await list(org.finance, 'role=finance_officer&status=on_progress');
    expect(ids(underReview)).toEqual([jumas.id]);
    const pending = await list(org.staff, 'role=user&status=pending');
    expect(pending.json().total).toBe(16);
    expect((await list(org.staff, 'role=user&status=rejected')).json().total).toBe(0);
  });

  it('answers the same total on a page past the end, in every status and in one', async () => {
    // Asha's 17 (16 pending), and Juma's under review in the organisation's.
    const lists = [
      [org.staff, 'role=user', 17],
      [org.staff, 'role=user&status=pending', 16],
      [org.finance, 'role=finance_officer', 18],
      [org.finance, 'role=finance_officer&status=pending', 16],
    ] as const;
    for (const [user, query, total] of lists) {
      const pages = await Promise.all(
        [1, 2, 40].map(async (page) => {
          const response = await list(user, `${query}&per_page=10&page=${page}`);
          expect(response.statusCode, response.body).toBe(200);
          return [response.json().data.length, response.json().total];
        }),
      );
      expect(pages, query).toEqual([
        [10, total],
        [total - 10, total],
        [0, total],
      ]);
    }
  });

  it('searches owner names, purposes and approval numbers', async () => {
    const byName = await list(org.admin, 'role=admin&search=juma');
    expect(ids(byName)).toEqual([jumas.id]);
    const byPurpose = await list(org.admin, 'role=admin&search=Meals');
    expect(ids(byPurpose)).toEqual([ashas[16]?.id]);
    const number = (await list(org.staff, 'role=user&status=approved')).json().data[0]
      .approval_number as string;
    expect(ids(await list(org.admin, `role=admin&search=${number}`))).toEqual([ashas[16]?.id]);
    expect(ids(await list(org.admin, `role=admin&search=${number.slice(-5)}`))).toEqual([
      ashas[16]?.id,
    ]);
    // Staff mode searches only the caller's own.
    expect((await list(org.staff, 'role=user&search=juma')).json().total).toBe(0);
    expect((await list(org.admin, 'role=admin&search=nothing-like-this')).json().total).toBe(0);
  });

  it('refuses admin mode to staff and another role than the caller’s with 403', async () => {
    const staffAsAdmin = await list(org.staff, 'role=staff');
    expect(staffAsAdmin.statusCode).toBe(403);
    expect(staffAsAdmin.json().error).toBe(
      "Only admins can see everyone's retirements. Use user to see your own.",
    );
    const borrowed = await list(org.staff, 'role=finance_officer');
    expect(borrowed.statusCode).toBe(403);
    expect(borrowed.json().error).toBe(
      'Use user for your own retirements, or your own role (staff) for all of them.',
    );
    expect((await list(org.custodian, 'role=director')).statusCode).toBe(403);
  });

  it.each(['role=boss', 'status=done', 'page=0', 'limit=101'])('refuses %s with 400', async (q) => {
    expect((await list(org.staff, q)).statusCode).toBe(400);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/retirement/requests' });
    expect(response.statusCode).toBe(401);
  });
});

describe('what the requests show of retirements', () => {
  it('summary lists at most 10 outstanding, oldest due first; a request shows the oldest due date', async () => {
    const oldest = ashas[3];
    if (!oldest) throw new Error('missing retirement');
    await t.db
      .update(retirements)
      .set({ due_date: '2020-01-01' })
      .where(eq(retirements.id, oldest.id));
    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/summary/${org.staff.id}`,
      headers: auth(org.staff),
    });
    expect(summary.statusCode, summary.body).toBe(200);
    const outstanding = summary.json().outstanding_retirements as { id: string }[];
    expect(outstanding).toHaveLength(10);
    expect(outstanding[0]).toEqual({
      id: oldest.id,
      request_id: oldest.request_id,
      purpose: 'travel',
      status: 'pending',
      amountReceived: 20_000,
      amount_currency: 'tzs',
      due_date: '2020-01-01',
    });
    expect(outstanding.map((item) => item.id)).not.toContain(ashas[16]?.id);
    expect(summary.json().pending_retirement).toBe(16);

    // A rejected retirement is still owed: it stays on the tile and in the list.
    await t.db.update(retirements).set({ status: 'rejected' }).where(eq(retirements.id, oldest.id));
    const afterRejection = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/summary/${org.staff.id}`,
      headers: auth(org.staff),
    });
    expect(afterRejection.json().pending_retirement).toBe(16);
    expect(afterRejection.json().outstanding_retirements[0]).toMatchObject({
      id: oldest.id,
      status: 'rejected',
    });
    await t.db.update(retirements).set({ status: 'pending' }).where(eq(retirements.id, oldest.id));

    const request = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${ashas[0]?.request_id}`,
      headers: auth(org.finance),
    });
    // Every approved request of Asha's but the retired meals one (8,000) is unretired.
    expect(request.json()).toMatchObject({
      owner_oldest_due_date: '2020-01-01',
      owner_unretired_total: 16 * 20_000,
    });
    const jumasRequest = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${jumas.request_id}`,
      headers: auth(org.otherStaff),
    });
    // Under review is neither outstanding nor retired.
    expect(jumasRequest.json()).toMatchObject({
      owner_oldest_due_date: null,
      owner_unretired_total: 20_000,
    });
  });
});

describe("Home's count of the retirements a user owes", () => {
  const summaryOf = async (user: TestUser) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/summary/${user.id}`,
      headers: auth(user),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { pending_retirement: number; outstanding_retirements: unknown[] };
  };
  const ids = () => ashas.slice(0, 16).map((retirement) => retirement.id);
  /** Marks all but the first `owed` of Asha's 16 pending retirements under review. */
  const owing = async (owed: number) => {
    await t.db.update(retirements).set({ status: 'pending' }).where(inArray(retirements.id, ids()));
    await t.db
      .update(retirements)
      .set({ status: 'on_progress' })
      .where(inArray(retirements.id, ids().slice(owed)));
  };

  // The list of 10 holds them all unless it is full: then they are counted (issue 13).
  it.each([
    [10, 10],
    [9, 9],
    [11, 10],
    [0, 0],
  ])('owing %i, Home lists %i and counts them all', async (owed, listed) => {
    try {
      await owing(owed);
      const summary = await summaryOf(org.staff);
      expect(summary.pending_retirement).toBe(owed);
      expect(summary.outstanding_retirements).toHaveLength(listed);
    } finally {
      await owing(16);
    }
  });
});

describe('GET /retirement/download/{role}', () => {
  const download = (user: TestUser, role: string, id: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/retirement/download/${role}?id=${id}`,
      headers: auth(user),
    });

  async function rowsOf(payload: Buffer): Promise<unknown[][]> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(payload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Retirements');
    const rows: unknown[][] = [];
    sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  it('streams the caller’s own retirements named after them', async () => {
    const response = await download(org.staff, 'user', org.staff.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toContain(
      "filename*=UTF-8''Asha%20Staff%20retirements.xlsx",
    );
    const rows = await rowsOf(response.rawPayload);
    expect(rows[0]).toEqual([
      'Name',
      'Purpose',
      'Approval number',
      'Budget code',
      'Due date',
      'Retirement date',
      'Amount received',
      'Amount spent',
      'Currency',
      'Status',
      'Cash to return',
      'Cash returned',
    ]);
    expect(rows).toHaveLength(1 + 17);
    expect(rows[1]).toEqual([
      'Asha Staff',
      'Meals',
      expect.stringMatching(/^AP-/),
      org.budget.code,
      expect.any(Date),
      expect.any(Date),
      8_000,
      7_500,
      'TZS',
      'Approved',
      500,
      'No',
    ]);
    expect(rows[2]?.[9]).toBe('Not Submitted');
    // Nothing spent reported yet: no cash to return either.
    expect(rows[2]?.[10]).toBeUndefined();
  });

  it('streams the whole organisation in admin mode, and refuses staff with 403', async () => {
    const response = await download(org.finance, 'finance_officer', org.finance.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('Chausiku%20Finance%20retirements');
    const rows = await rowsOf(response.rawPayload);
    expect(rows).toHaveLength(1 + 18);
    expect(rows[1]?.slice(0, 2)).toEqual(['Juma Other', 'Travel']);
    expect(rows[1]?.[9]).toBe('Under Review');

    expect((await download(org.staff, 'staff', org.staff.id)).statusCode).toBe(403);
    expect((await download(org.staff, 'user', org.otherStaff.id)).statusCode).toBe(403);
    expect((await download(org.admin, 'user', other.staff.id)).statusCode).toBe(404);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/retirement/download/user?id=${org.staff.id}`,
    });
    expect(response.statusCode).toBe(401);
  });
});
