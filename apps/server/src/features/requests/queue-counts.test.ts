import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { reviewQueueCounts, reviewQueueExclusions } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { answered, requestBody, submitted } from '../../../test/factories/requests.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { foldReviewQueueCounts } from './counts.ts';

// A reviewer's pending list takes its total from review_queue_counts less the caller's
// review_queue_exclusions, which statement triggers on requests keep (migration 0025). These tests
// change requests in every way the app does, and some it does not, and compare each reviewer's
// total with a count of the rows themselves, and the kept tables with what the rows add up to.

let t: TestApp;
/** Room for every request of a test: group A asks 200,000,000 each. */
const budgetAmount = 100_000_000_000;

beforeAll(async () => {
  t = await createTestApp();
});

/** A group A request (finance → secretary → director) of `owner`, on the organisation's budget. */
const groupA = (org: StaffedOrganization, owner: TestUser) =>
  submitted(t.app, owner, requestBody(org.budget.code, { amount_requested: 200_000_000 }));

/** [rows on the page, total] of a reviewer's pending list, through the API. */
async function pendingPage(user: TestUser, query = ''): Promise<[number, number]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/requests/${user.role}/pending/${user.id}${query}`,
    headers: auth(user),
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<{ data: unknown[]; total: number }>();
  return [body.data.length, body.total];
}

/**
 * What the pending list's total counts, from the rows: the organisation's newest versions waiting
 * for the role, not the caller's own and not one they answered a step of (requests/pending-queries.ts).
 */
async function waitingFor(user: TestUser, organizationId: string): Promise<number> {
  const [row] = (
    await t.db.execute<{ total: number }>(sql`
      SELECT count(*)::int AS total FROM requests
      WHERE organization_id = ${organizationId} AND is_latest
        AND next_reviewer_role = ${user.role} AND current_status IN ('pending', 'on_progress')
        AND request_owner_id <> ${user.id} AND NOT (${user.id}::uuid = ANY (answered_by))`)
  ).rows;
  return row?.total ?? 0;
}

/** The reviewers of a StaffedOrganization. */
const reviewersOf = (org: StaffedOrganization) => [
  org.finance,
  org.finance2,
  org.secretary,
  org.director,
  org.custodian,
];

/** Asserts that every reviewer's pending-list total equals a count of the rows; answers them. */
async function expectQueueTotalsMatchRows(org: StaffedOrganization): Promise<number[]> {
  const totals: number[] = [];
  for (const user of reviewersOf(org)) {
    const [, total] = await pendingPage(user);
    expect(total, `${user.fullname} (${user.role})`).toBe(
      await waitingFor(user, org.organizationId),
    );
    totals.push(total);
  }
  return totals;
}

/**
 * Asserts that both kept tables add up to what the rows give, key by key (every organisation and
 * person the test database holds), whatever reads or folds happened.
 */
async function expectKeptMatchRows(): Promise<void> {
  const mismatched = async (kept: string, actual: string) =>
    (
      await t.db.execute<{ key: string; role: string; kept: string; actual: string }>(
        sql.raw(`
          WITH kept AS (${kept}), actual AS (${actual})
          SELECT key, role, coalesce(kept.n, 0)::text AS kept, coalesce(actual.n, 0)::text AS actual
          FROM kept FULL JOIN actual USING (key, role)
          WHERE coalesce(kept.n, 0) <> coalesce(actual.n, 0)`),
      )
    ).rows;
  const waiting = `is_latest AND next_reviewer_role IS NOT NULL
    AND current_status IN ('pending', 'on_progress')`;
  expect(
    await mismatched(
      `SELECT organization_id AS key, next_reviewer_role AS role, sum(requests) AS n
       FROM review_queue_counts GROUP BY 1, 2`,
      `SELECT organization_id AS key, next_reviewer_role AS role, count(*) AS n
       FROM requests WHERE ${waiting} GROUP BY 1, 2`,
    ),
  ).toEqual([]);
  expect(
    await mismatched(
      `SELECT person_id AS key, next_reviewer_role AS role, sum(requests) AS n
       FROM review_queue_exclusions GROUP BY 1, 2`,
      `SELECT person.id AS key, next_reviewer_role AS role, count(*) AS n
       FROM requests, LATERAL (SELECT request_owner_id UNION SELECT unnest(answered_by)) AS person(id)
       WHERE ${waiting} GROUP BY 1, 2`,
    ),
  ).toEqual([]);
}

describe('review_queue_counts and review_queue_exclusions', () => {
  it("match the rows through submission, each answer, a resubmission, a reviewer's own request and a role change", async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Queue Org', budgetAmount });
    await expectKeptMatchRows();
    expect(await expectQueueTotalsMatchRows(org)).toEqual([0, 0, 0, 0, 0]);

    const first = await groupA(org, org.staff);
    const second = await groupA(org, org.otherStaff);
    const returned = await groupA(org, org.staff);
    // A finance officer's own request waits for the finance officers: not in their own list.
    const financeOwn = await groupA(org, org.finance);
    await groupA(org, org.secretary);
    expect(await expectQueueTotalsMatchRows(org)).toEqual([4, 5, 0, 0, 0]);

    await answered(t.app, org.finance, first, 1);
    await answered(t.app, org.finance2, second, 1);
    await answered(t.app, org.finance2, financeOwn, 1);
    await expectKeptMatchRows();
    expect(await expectQueueTotalsMatchRows(org)).toEqual([2, 2, 3, 0, 0]);

    await answered(t.app, org.secretary, first, 2);
    await answered(t.app, org.secretary, second, 2, 'rejected');
    await answered(t.app, org.finance, returned, 1, 'request_edit');
    await expectKeptMatchRows();
    expect(await expectQueueTotalsMatchRows(org)).toEqual([1, 1, 1, 1, 0]);

    // The resubmission supersedes the returned version and waits for finance again.
    const resubmitted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/requests/request/request-edit',
      headers: auth(org.staff),
      payload: requestBody(org.budget.code, {
        amount_requested: 200_000_000,
        parent_request: returned.id,
      }),
    });
    expect(resubmitted.statusCode, resubmitted.body).toBe(201);
    await expectKeptMatchRows();
    expect(await expectQueueTotalsMatchRows(org)).toEqual([2, 2, 1, 1, 0]);

    // finance2 answered step 1 of their colleague's request, which waits for the secretary. Made
    // an executive secretary, they do not see it: one person answers one step.
    await t.db.execute(
      sql`UPDATE users SET role = 'executive_secretary' WHERE id = ${org.finance2.id}`,
    );
    const moved = { ...org.finance2, role: 'executive_secretary' } as TestUser;
    expect(await pendingPage(moved)).toEqual([0, 0]);
    expect(await waitingFor(moved, org.organizationId)).toBe(0);
    expect(await pendingPage(org.secretary)).toEqual([1, 1]);
    await t.db.execute(
      sql`UPDATE users SET role = 'finance_officer' WHERE id = ${org.finance2.id}`,
    );

    await answered(t.app, org.director, first, 3);
    await answered(t.app, org.secretary, financeOwn, 2);
    await expectKeptMatchRows();
    expect(await expectQueueTotalsMatchRows(org)).toEqual([2, 2, 0, 1, 0]);
  });

  it('follow changes made outside the app: bulk inserts, answers, moves and deletes', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Bulk Queue Org', budgetAmount });
    const template = await groupA(org, org.staff);
    const owners = [org.staff.id, org.otherStaff.id, org.finance.id];
    const answerers = [org.finance.id, org.finance2.id, org.secretary.id];
    // 300 copies: a third not the newest, in every status, waiting for each role in turn, owned
    // and answered by various people (some by their own owner, some by one person twice).
    await t.db.execute(sql`
      INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name,
                            department, purpose, expenditure_date, amount_requested,
                            amount_currency, amount_base, budget_id, budget_code, payment_mode,
                            tax_status, current_status, is_latest, next_reviewer_role, answered_by)
      SELECT organization_id, gen_random_uuid(), people.owners[1 + g % 3], request_owner_name,
             department, purpose, expenditure_date, amount_requested, amount_currency,
             amount_base, budget_id, budget_code, payment_mode, tax_status,
             (ARRAY['pending', 'on_progress', 'approved', 'rejected'])[1 + g % 4], g % 3 <> 0,
             (ARRAY['finance_officer', 'executive_secretary', 'director', NULL])[1 + g % 5],
             CASE g % 4 WHEN 0 THEN ARRAY[]::uuid[]
                        WHEN 1 THEN ARRAY[people.answerers[1 + g % 3]]
                        WHEN 2 THEN people.answerers[1:2]
                        ELSE ARRAY[people.answerers[1], people.answerers[1]] END
      FROM requests, generate_series(1, 300) AS g,
           (SELECT ${sql.param(owners)}::uuid[] AS owners,
                   ${sql.param(answerers)}::uuid[] AS answerers) AS people
      WHERE id = ${template.id}`);
    await expectKeptMatchRows();
    const bulk = await expectQueueTotalsMatchRows(org);
    expect(bulk.some((total) => total > 10)).toBe(true);

    // Answered by someone, moved on a step, superseded, returned to the queue, deleted.
    await t.db.execute(sql`
      UPDATE requests SET answered_by = array_append(answered_by, ${org.director.id}::uuid)
      WHERE organization_id = ${org.organizationId} AND next_reviewer_role = 'director'`);
    await t.db.execute(sql`
      UPDATE requests SET next_reviewer_role = 'executive_secretary'
      WHERE organization_id = ${org.organizationId} AND next_reviewer_role = 'finance_officer'
        AND current_status = 'pending'`);
    await t.db.execute(sql`
      UPDATE requests SET is_latest = NOT is_latest
      WHERE organization_id = ${org.organizationId} AND current_status = 'on_progress'`);
    await t.db.execute(sql`
      UPDATE requests SET current_status = 'pending'
      WHERE organization_id = ${org.organizationId} AND current_status = 'rejected'`);
    await expectKeptMatchRows();
    await expectQueueTotalsMatchRows(org);
    expect((await pendingPage(org.director))[1]).toBe(0);

    await t.db.execute(sql`
      DELETE FROM requests
      WHERE organization_id = ${org.organizationId} AND next_reviewer_role = 'executive_secretary'
        AND NOT EXISTS (SELECT FROM reviews WHERE reviews.request_id = requests.id)`);
    await expectKeptMatchRows();
    await expectQueueTotalsMatchRows(org);
    // Only the app's own request is left there, its reviews holding it.
    expect(await pendingPage(org.secretary)).toEqual([1, 1]);
  });

  it('are folded when they pile up, keeping every total; a later page reads them on its own', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Folded Queue Org', budgetAmount });
    for (let index = 0; index < 3; index += 1) await groupA(org, org.staff);
    await groupA(org, org.finance);
    // 100 rows for the organisation and 100 for the finance officer that add up to nothing.
    await t.db.execute(sql`
      INSERT INTO review_queue_counts (organization_id, next_reviewer_role, requests)
      SELECT ${org.organizationId}::uuid, 'finance_officer', CASE WHEN g % 2 = 0 THEN 5 ELSE -5 END
      FROM generate_series(1, 100) AS g`);
    await t.db.execute(sql`
      INSERT INTO review_queue_exclusions (person_id, next_reviewer_role, requests)
      SELECT ${org.finance.id}::uuid, 'finance_officer', CASE WHEN g % 2 = 0 THEN 2 ELSE -2 END
      FROM generate_series(1, 100) AS g`);
    const rowsOf = async () => [
      await t.db.$count(
        reviewQueueCounts,
        eq(reviewQueueCounts.organization_id, org.organizationId),
      ),
      await t.db.$count(reviewQueueExclusions, eq(reviewQueueExclusions.person_id, org.finance.id)),
    ];
    // One more row for each submission, one more for the finance officer's own.
    expect(await rowsOf()).toEqual([104, 101]);

    // The first page carries the rows, and the read folds them: one row each.
    expect(await pendingPage(org.finance)).toEqual([3, 3]);
    expect(await rowsOf()).toEqual([1, 1]);
    // A later page, or a size the web does not ask for, reads its counts beside the page.
    expect(await pendingPage(org.finance, '?page=2&per_page=2')).toEqual([1, 3]);
    expect(await pendingPage(org.finance, '?page=9')).toEqual([0, 3]);
    expect(await pendingPage(org.finance, '?per_page=3')).toEqual([3, 3]);
    expect(await pendingPage(org.finance2)).toEqual([4, 4]);
    await expectKeptMatchRows();
  });

  it('stay exact under concurrent submissions, answers, reads and folds', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Busy Queue Org', budgetAmount });
    const owners = [org.staff, org.otherStaff, org.custodian];
    const first = await Promise.all(
      Array.from({ length: 12 }, (_, index) => groupA(org, owners[index % 3] as TestUser)),
    );
    const folds = (user: TestUser) =>
      foldReviewQueueCounts(t.db, { organizationId: org.organizationId, personId: user.id });
    await Promise.all([
      ...Array.from({ length: 12 }, (_, index) => groupA(org, owners[index % 3] as TestUser)),
      ...first.map((request, index) =>
        answered(t.app, index % 2 === 0 ? org.finance : org.finance2, request, 1),
      ),
      ...Array.from({ length: 6 }, () => pendingPage(org.finance)),
      ...Array.from({ length: 6 }, () => pendingPage(org.secretary)),
      ...reviewersOf(org).map(folds),
      ...owners.map(folds),
    ]);
    await expectKeptMatchRows();
    expect(await expectQueueTotalsMatchRows(org)).toEqual([12, 12, 12, 0, 0]);
  });
});
