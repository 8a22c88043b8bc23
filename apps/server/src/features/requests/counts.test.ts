import { searchCountLimit } from '@imprest/domain/constants.ts';
import { statusFilters, type StatusFilter } from '@imprest/domain/enums.ts';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ownerRequestCounts, requests, requestStatusCounts } from '../../db/schema.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { answered, requestBody, submitted } from '../../../test/factories/requests.ts';
import {
  auth,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import {
  countOrganizationRequests,
  foldOwnerRequestCounts,
  foldRequestStatusCounts,
} from './counts.ts';

// The admin list's total comes from request_status_counts, and a staff list's total and the Home
// counts from owner_request_counts, which triggers on requests keep (migrations 0006 and 0016).
// These tests change requests in every way the app does, and some it does not, and compare the
// kept counts with a count of the rows themselves.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

type Staffed = {
  organizationId: string;
  budgetCode: string;
  owners: TestUser[];
  finance: TestUser;
  secretary: TestUser;
};

async function staffedOrganization(name: string, owners = 3): Promise<Staffed> {
  const organization = await buildStaffedOrganization(t.db, { name });
  return {
    organizationId: organization.organizationId,
    budgetCode: organization.budget.code,
    owners: await Promise.all(
      Array.from({ length: owners }, (_, index) =>
        buildUser(t.db, {
          organizationId: organization.organizationId,
          fullname: `Owner ${index}`,
        }),
      ),
    ),
    finance: organization.finance,
    secretary: organization.secretary,
  };
}

/** The newest versions of an organisation (or of one owner) by status, counted from the rows. */
async function countedFromRows(
  id: string,
  by: 'organization_id' | 'request_owner_id' = 'organization_id',
): Promise<Record<string, number>> {
  const rows = await t.db
    .select({ status: requests.current_status, total: sql<number>`count(*)::int` })
    .from(requests)
    .where(and(eq(requests[by], id), eq(requests.is_latest, true)))
    .groupBy(requests.current_status);
  return Object.fromEntries(rows.map((row) => [row.status, row.total]));
}

/** The admin list's total for each status filter, through the API. */
async function listTotals(org: Staffed): Promise<Record<StatusFilter, number>> {
  const entries = await Promise.all(
    statusFilters.map(async (status) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/requests/finance_officer/${org.finance.id}?status=${status}`,
        headers: auth(org.finance),
      });
      expect(response.statusCode, response.body).toBe(200);
      return [status, response.json().total as number] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<StatusFilter, number>;
}

/** An owner's staff-list total for each status filter, and the Home counts, through the API. */
async function ownerTotals(owner: TestUser) {
  const entries = await Promise.all(
    statusFilters.map(async (status) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/requests/user/${owner.id}?status=${status}`,
        headers: auth(owner),
      });
      expect(response.statusCode, response.body).toBe(200);
      return [status, response.json().total as number] as const;
    }),
  );
  const summary = await t.app.inject({
    method: 'GET',
    url: `/api/v1/requests/summary/${owner.id}`,
    headers: auth(owner),
  });
  expect(summary.statusCode, summary.body).toBe(200);
  const { pending, approved, rejected, requests: total } = summary.json() as Record<string, number>;
  return {
    list: Object.fromEntries(entries) as Record<StatusFilter, number>,
    summary: { pending, approved, rejected, total },
  };
}

/** Asserts that each owner's staff-list totals and Home counts equal counts of their rows. */
async function expectOwnerTotalsMatchRows(org: Staffed): Promise<void> {
  for (const owner of org.owners) {
    const counted = await countedFromRows(owner.id, 'request_owner_id');
    const all = Object.values(counted).reduce((sum, value) => sum + value, 0);
    expect(await ownerTotals(owner), owner.fullname).toEqual({
      list: {
        all,
        pending: counted.pending ?? 0,
        on_progress: counted.on_progress ?? 0,
        approved: counted.approved ?? 0,
        rejected: counted.rejected ?? 0,
      },
      summary: {
        pending: (counted.pending ?? 0) + (counted.on_progress ?? 0),
        approved: counted.approved ?? 0,
        rejected: counted.rejected ?? 0,
        total: all,
      },
    });
  }
}

/**
 * Asserts that the list totals equal counts of the rows, for every status filter: the admin list's
 * (request_status_counts) and each owner's staff list and Home counts (owner_request_counts).
 */
async function expectTotalsMatchRows(org: Staffed): Promise<void> {
  await expectOwnerTotalsMatchRows(org);
  const counted = await countedFromRows(org.organizationId);
  const all = Object.values(counted).reduce((sum, value) => sum + value, 0);
  expect(await listTotals(org)).toEqual({
    all,
    pending: counted.pending ?? 0,
    on_progress: counted.on_progress ?? 0,
    approved: counted.approved ?? 0,
    rejected: counted.rejected ?? 0,
  });
}

describe('request_status_counts and owner_request_counts', () => {
  it('match the rows through submission, each review answer and a resubmission', async () => {
    const org = await staffedOrganization('Counted Org');
    const [owner, second] = org.owners as [TestUser, TestUser];
    const submit = (user: TestUser) => submitted(t.app, user, requestBody(org.budgetCode));

    const approved = await submit(owner);
    const rejected = await submit(owner);
    const returned = await submit(second);
    const onProgress = await submit(second);
    await submit(owner);
    await expectTotalsMatchRows(org);
    expect((await listTotals(org)).pending).toBe(5);

    await answered(t.app, org.finance, approved, 1, 'approved');
    await answered(t.app, org.finance, onProgress, 1, 'approved');
    await expectTotalsMatchRows(org);
    await answered(t.app, org.secretary, approved, 2, 'approved');
    await answered(t.app, org.finance, rejected, 1, 'rejected');
    await answered(t.app, org.finance, returned, 1, 'request_edit');
    await expectTotalsMatchRows(org);
    expect(await listTotals(org)).toEqual({
      all: 5,
      pending: 1,
      on_progress: 1,
      approved: 1,
      rejected: 1,
    });

    // The resubmission supersedes the returned version: still five requests, one more pending.
    const resubmitted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/requests/request/request-edit',
      headers: auth(second),
      payload: requestBody(org.budgetCode, { parent_request: returned.id }),
    });
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);
    await expectTotalsMatchRows(org);
    expect(await listTotals(org)).toMatchObject({ all: 5, pending: 2 });
  });

  it('follow changes made outside the app: bulk inserts, updates and deletes', async () => {
    const org = await staffedOrganization('Bulk Org');
    const template = await submitted(t.app, org.owners[0] as TestUser, requestBody(org.budgetCode));
    await t.db.execute(sql`
      INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name,
                            department, purpose, expenditure_date, amount_requested,
                            amount_currency, amount_base, budget_id, budget_code, payment_mode,
                            tax_status, current_status, is_latest)
      SELECT organization_id, gen_random_uuid(), request_owner_id, request_owner_name, department,
             purpose, expenditure_date, amount_requested, amount_currency, amount_base, budget_id,
             budget_code, payment_mode, tax_status,
             (ARRAY['pending', 'approved', 'rejected'])[1 + g % 3], g % 10 <> 0
      FROM requests, generate_series(1, 300) AS g
      WHERE id = ${template.id}`);
    await expectTotalsMatchRows(org);
    expect((await listTotals(org)).all).toBe(1 + 270);

    await t.db.execute(sql`
      UPDATE requests SET current_status = 'on_progress'
      WHERE organization_id = ${org.organizationId} AND current_status = 'pending'`);
    await t.db.execute(sql`
      UPDATE requests SET is_latest = NOT is_latest
      WHERE organization_id = ${org.organizationId} AND current_status = 'rejected'`);
    await expectTotalsMatchRows(org);

    await t.db.execute(sql`
      DELETE FROM requests
      WHERE organization_id = ${org.organizationId} AND current_status = 'approved'`);
    await expectTotalsMatchRows(org);
    expect((await listTotals(org)).approved).toBe(0);
  });

  it('are folded into one row a status when they pile up, keeping every total', async () => {
    const org = await staffedOrganization('Folded Org');
    const before = await listTotals(org);
    // 100 rows that add up to 40 approved and 0 rejected.
    await t.db.execute(sql`
      INSERT INTO request_status_counts (organization_id, current_status, requests)
      SELECT ${org.organizationId}::uuid, CASE WHEN g <= 70 THEN 'approved' ELSE 'rejected' END,
             CASE WHEN g <= 55 THEN 1 WHEN g <= 70 THEN -1 WHEN g <= 85 THEN 1 ELSE -1 END
      FROM generate_series(1, 100) AS g`);
    const rowsOf = () =>
      t.db.$count(requestStatusCounts, eq(requestStatusCounts.organization_id, org.organizationId));
    expect(await rowsOf()).toBe(100);

    // The admin list's first page carries the rows it folds (decision 0045).
    expect(await listTotals(org)).toEqual({
      ...before,
      all: before.all + 40,
      approved: before.approved + 40,
    });
    expect(await rowsOf()).toBe(1); // folded by those reads; rejected added up to zero
    expect(await countOrganizationRequests(t.db, org.organizationId, 'approved')).toBe(40);
    expect(await rowsOf()).toBe(1);
  });

  it("fold an owner's rows too, keeping the staff list's totals", async () => {
    const org = await staffedOrganization('Owner Folded Org', 1);
    const owner = org.owners[0] as TestUser;
    await submitted(t.app, owner, requestBody(org.budgetCode));
    // 100 rows that add up to 30 more approved and 0 rejected.
    await t.db.execute(sql`
      INSERT INTO owner_request_counts (owner_id, current_status, requests)
      SELECT ${owner.id}::uuid, CASE WHEN g <= 60 THEN 'approved' ELSE 'rejected' END,
             CASE WHEN g <= 45 THEN 1 WHEN g <= 60 THEN -1 WHEN g <= 80 THEN 1 ELSE -1 END
      FROM generate_series(1, 100) AS g`);
    const rowsOf = () => t.db.$count(ownerRequestCounts, eq(ownerRequestCounts.owner_id, owner.id));
    expect(await rowsOf()).toBe(101);
    expect((await ownerTotals(owner)).list).toEqual({
      all: 31,
      pending: 1,
      on_progress: 0,
      approved: 30,
      rejected: 0,
    });
    // Folded by those reads: one row for pending, one for approved, none for rejected.
    expect(await rowsOf()).toBe(2);
    expect((await ownerTotals(owner)).summary).toEqual({
      pending: 1,
      approved: 30,
      rejected: 0,
      total: 31,
    });
  });

  it('answer the same total on a page past the end, which reads its counts on its own', async () => {
    const org = await staffedOrganization('Past The End Org', 1);
    const owner = org.owners[0] as TestUser;
    const lists = [
      { user: owner, url: `/api/v1/requests/user/${owner.id}` },
      { user: org.finance, url: `/api/v1/requests/finance_officer/${org.finance.id}` },
    ];
    // [rows, total] of pages of a list in one status and in all.
    const pagesOf = (url: string, user: TestUser, perPage: number, pages: number[]) =>
      Promise.all(
        ['pending', 'all'].flatMap((status) =>
          pages.map(async (page) => {
            const response = await t.app.inject({
              method: 'GET',
              url: `${url}?status=${status}&per_page=${perPage}&page=${page}`,
              headers: auth(user),
            });
            expect(response.statusCode, response.body).toBe(200);
            const body = response.json() as { total: number; data: unknown[] };
            return [body.data.length, body.total];
          }),
        ),
      );
    // Nothing to list: a first page without rows reads its counts on its own.
    for (const { user, url } of lists)
      expect(await pagesOf(url, user, 10, [1]), url).toEqual([
        [0, 0],
        [0, 0],
      ]);
    for (let index = 0; index < 3; index += 1)
      await submitted(t.app, owner, requestBody(org.budgetCode));
    for (const { user, url } of lists) {
      // A size the web asks for: the first page is planned once and carries the counts.
      expect(await pagesOf(url, user, 10, [1, 50]), url).toEqual([
        [3, 3],
        [0, 3],
        [3, 3],
        [0, 3],
      ]);
      expect(await pagesOf(url, user, 2, [1, 2, 50]), url).toEqual([
        [2, 3],
        [1, 3],
        [0, 3],
        [2, 3],
        [1, 3],
        [0, 3],
      ]);
    }
  });

  it('stay exact under concurrent submissions, reviews, reads and folds', async () => {
    const org = await staffedOrganization('Busy Org', 5);
    const first = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        submitted(t.app, org.owners[index % 5] as TestUser, requestBody(org.budgetCode)),
      ),
    );
    await Promise.all([
      ...Array.from({ length: 20 }, (_, index) =>
        submitted(t.app, org.owners[index % 5] as TestUser, requestBody(org.budgetCode)),
      ),
      ...first.map((request, index) =>
        answered(t.app, org.finance, request, 1, index % 2 === 0 ? 'approved' : 'rejected'),
      ),
      ...Array.from({ length: 10 }, () => listTotals(org)),
      ...Array.from({ length: 10 }, () => foldRequestStatusCounts(t.db, org.organizationId)),
      ...org.owners.map((owner) => ownerTotals(owner)),
      ...org.owners.map((owner) => foldOwnerRequestCounts(t.db, owner.id)),
    ]);
    await expectTotalsMatchRows(org);
    expect(await listTotals(org)).toEqual({
      all: 30,
      pending: 20,
      on_progress: 5,
      approved: 0,
      rejected: 5,
    });
  });
});

describe('search totals', () => {
  let org: Staffed;

  beforeAll(async () => {
    org = await staffedOrganization('Searched Org');
    const template = await submitted(
      t.app,
      org.owners[0] as TestUser,
      requestBody(org.budgetCode, { purpose: 'meals', mode_of_service: 'catering' }),
    );
    // searchCountLimit + 5 more meals requests, and as many travel requests.
    await t.db.execute(sql`
      INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name,
                            department, purpose, expenditure_date, amount_requested,
                            amount_currency, amount_base, budget_id, budget_code, payment_mode,
                            tax_status, current_status, approval_number)
      SELECT organization_id, gen_random_uuid(), request_owner_id, request_owner_name, department,
             CASE WHEN g % 2 = 0 THEN 'meals' ELSE 'travel' END, expenditure_date,
             amount_requested, amount_currency, amount_base, budget_id, budget_code, payment_mode,
             tax_status, 'approved', 'AP-2025-' || lpad(g::text, 5, '0')
      FROM requests, generate_series(1, ${2 * (searchCountLimit + 5)}) AS g
      WHERE id = ${template.id}`);
  });

  const search = async (term: string, query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/finance_officer/${org.finance.id}?search=${encodeURIComponent(term)}${query}`,
      headers: auth(org.finance),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      total: number;
      total_capped: boolean;
      data: { id: string; approval_number: string | null }[];
    };
  };

  it(`count up to ${searchCountLimit} matches and say when there are more`, async () => {
    expect(await search('meals')).toMatchObject({ total: searchCountLimit, total_capped: true });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/finance_officer/${org.finance.id}`,
      headers: auth(org.finance),
    });
    expect(list.json()).toMatchObject({
      total: 2 * (searchCountLimit + 5) + 1,
      total_capped: false,
    });
  });

  it('are exact below the limit', async () => {
    expect(await search('AP-2025-0100')).toMatchObject({ total: 10, total_capped: false });
    expect(await search('meals', '&status=pending')).toMatchObject({
      total: 1,
      total_capped: false,
    });
  });

  it('page below the limit in the order of the list, newest first and then by id', async () => {
    const expected = await t.db
      .select({ id: requests.id })
      .from(requests)
      .where(
        and(
          eq(requests.organization_id, org.organizationId),
          sql`${requests.approval_number} LIKE 'AP-2025-0004%'`,
        ),
      )
      .orderBy(sql`${requests.created_at} DESC, ${requests.id} DESC`);
    const pages = await Promise.all(
      [1, 2, 3, 4].map((page) => search('AP-2025-0004', `&per_page=3&page=${page}`)),
    );
    expect(pages.map((page) => page.data.length)).toEqual([3, 3, 3, 1]);
    expect(pages.flatMap((page) => page.data.map((item) => item.id))).toEqual(
      expected.map((row) => row.id),
    );
    expect(pages.map((page) => page.total)).toEqual([10, 10, 10, 10]);
    // Past the last page: no rows, and still the total.
    expect(await search('AP-2025-0004', '&per_page=3&page=5')).toMatchObject({
      data: [],
      total: 10,
      total_capped: false,
    });
    expect(await search('no such term', '&per_page=3&page=2')).toMatchObject({
      data: [],
      total: 0,
    });
  });

  it('serve pages past the limit', async () => {
    const page = await search('meals', `&per_page=100&page=${searchCountLimit / 100 + 1}`);
    expect(page.total_capped).toBe(true);
    expect(page.data).toHaveLength(6);
  });

  it('find approval numbers by their start, in any case, and nothing else', async () => {
    const exact = await search('ap-2025-00042');
    expect(exact).toMatchObject({ total: 1, total_capped: false });
    expect(exact.data[0]?.approval_number).toBe('AP-2025-00042');
    expect((await search('AP-2025-0004')).total).toBe(10);
    expect((await search('AP-2024')).total).toBe(0);
    // The digits alone are an ordinary search, which matches them anywhere in the text.
    expect((await search('00042')).total).toBe(1);
  });

  it('find a purpose by its key or its label, and owners by any part of the name', async () => {
    await submitted(
      t.app,
      org.owners[1] as TestUser,
      requestBody(org.budgetCode, { purpose: 'accomodation', mode_of_service: 'hotel' }),
    );
    // 'accomodation' is the spec's key; people read and type 'Accommodation'.
    expect(await search('accommodation')).toMatchObject({ total: 1, total_capped: false });
    expect(await search('ACCOMODATION')).toMatchObject({ total: 1, total_capped: false });
    expect(await search('ccommo')).toMatchObject({ total: 1 });
    // Modes and suppliers are not searched.
    expect(await search('hotel')).toMatchObject({ total: 0 });
    expect(await search('Mea')).toMatchObject({ total: searchCountLimit, total_capped: true });
    expect((await search('travel', '&status=pending')).total).toBe(0);
    expect((await search('wner 0', '&status=pending')).total).toBe(1);
    expect((await search('owner', '&status=pending')).total).toBe(2);
  });
});
