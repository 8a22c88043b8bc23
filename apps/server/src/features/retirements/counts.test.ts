import { statusFilters } from '@imprest/domain/enums.ts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { retirements, retirementStatusCounts } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  buildRetirement,
  requestRetirementEdit,
  reviewedRetirement,
  submittedRetirement,
  type RetirementBody,
} from '../../../test/factories/retirements.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { foldRetirementStatusCounts } from './list-queries.ts';

// An admin's retirement list reads its total from retirement_status_counts, which statement
// triggers on retirements keep (migration 0020). These tests change retirements in every way the
// app does, and some it does not, and compare the list's totals with counts of the rows.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

type Totals = Record<(typeof statusFilters)[number], number>;

/** The admin list's total for every status filter, through the API. */
async function listTotals(admin: TestUser): Promise<Totals> {
  const entries = await Promise.all(
    statusFilters.map(async (status) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/retirement/requests?role=finance_officer&status=${status}&limit=1`,
        headers: auth(admin),
      });
      expect(response.statusCode, response.body).toBe(200);
      return [status, response.json().total as number] as const;
    }),
  );
  return Object.fromEntries(entries) as Totals;
}

/** The same totals counted from the rows. */
async function countedTotals(organizationId: string): Promise<Totals> {
  const rows = await t.db
    .select({ status: retirements.status, n: sql<number>`count(*)::int` })
    .from(retirements)
    .where(eq(retirements.organization_id, organizationId))
    .groupBy(retirements.status);
  const of = (status: string) => rows.find((row) => row.status === status)?.n ?? 0;
  return {
    all: rows.reduce((sum, row) => sum + row.n, 0),
    pending: of('pending'),
    on_progress: of('on_progress'),
    approved: of('approved'),
    rejected: of('rejected'),
  };
}

async function expectTotalsMatchRows(org: StaffedOrganization): Promise<Totals> {
  const totals = await listTotals(org.finance);
  expect(totals).toEqual(await countedTotals(org.organizationId));
  return totals;
}

function retirementIn(org: StaffedOrganization, owner: TestUser): Promise<RetirementBody> {
  return buildRetirement(t.app, {
    owner,
    finance: org.finance,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    amount: 10_000,
  });
}

describe('retirement_status_counts', () => {
  it('match the rows through attach, submission, each review answer and a resubmission', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Retirement Counts Org' });
    const other = await buildStaffedOrganization(t.db, { name: 'Counted Elsewhere' });
    await retirementIn(other, other.staff);
    const [first, second, third] = [
      await retirementIn(org, org.staff),
      await retirementIn(org, org.staff),
      await retirementIn(org, org.otherStaff),
    ];
    expect(await expectTotalsMatchRows(org)).toMatchObject({ all: 3, pending: 3 });

    const submit = (owner: TestUser, retirement: RetirementBody) =>
      submittedRetirement(t.app, owner, retirement, { amount_spent: 9_000 });
    const firstSubmitted = await submit(org.staff, first as RetirementBody);
    const secondSubmitted = await submit(org.staff, second as RetirementBody);
    await expectTotalsMatchRows(org);
    const halfway = await reviewedRetirement(t.app, org.finance, firstSubmitted, 'approved');
    await reviewedRetirement(t.app, org.secretary, halfway, 'approved');
    const rejected = await reviewedRetirement(t.app, org.finance, secondSubmitted, 'rejected');
    expect(await expectTotalsMatchRows(org)).toEqual({
      all: 3,
      pending: 1,
      on_progress: 0,
      approved: 1,
      rejected: 1,
    });

    // The owner asks to resubmit the rejected one (pending again), then submits it: a new round.
    const reopened = await requestRetirementEdit(t.app, org.staff, { id: rejected.id });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(await expectTotalsMatchRows(org)).toMatchObject({ pending: 2, rejected: 0 });
    await submit(org.staff, reopened.json());
    await submit(org.otherStaff, third as RetirementBody);
    expect(await expectTotalsMatchRows(org)).toMatchObject({ all: 3, approved: 1, rejected: 0 });
    // The other organisation's retirement is counted there only.
    expect((await listTotals(other.finance)).all).toBe(1);
  });

  it('match the rows through concurrent submissions and answers', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Concurrent Counts Org' });
    const built: RetirementBody[] = [];
    for (let index = 0; index < 6; index += 1) {
      built.push(await retirementIn(org, index % 2 ? org.staff : org.otherStaff));
    }
    const submitted = await Promise.all(
      built.map((retirement, index) =>
        submittedRetirement(t.app, index % 2 ? org.staff : org.otherStaff, retirement, {
          amount_spent: 1_000,
        }),
      ),
    );
    await Promise.all([
      ...submitted.map((retirement, index) =>
        reviewedRetirement(t.app, org.finance, retirement, index < 3 ? 'approved' : 'rejected'),
      ),
      listTotals(org.finance),
    ]);
    expect(await expectTotalsMatchRows(org)).toEqual({
      all: 6,
      pending: 0,
      on_progress: 3,
      approved: 0,
      rejected: 3,
    });
  });

  it('follow changes made outside the app: bulk inserts, updates and deletes', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Bulk Retirement Counts Org' });
    await retirementIn(org, org.staff);
    await expectTotalsMatchRows(org);
    // A bulk load of 200 more, as the load benchmark makes them: copies with requests of their own.
    await t.db.execute(sql`
      WITH copies AS (
        INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name,
                              department, purpose, expenditure_date, amount_requested,
                              amount_currency, amount_base, budget_id, budget_code, payment_mode,
                              tax_status, current_status, is_latest)
        SELECT organization_id, gen_random_uuid(), request_owner_id, request_owner_name,
               department, purpose, expenditure_date, amount_requested, amount_currency,
               amount_base, budget_id, budget_code, payment_mode, tax_status, 'approved', true
        FROM requests, generate_series(1, 200)
        WHERE organization_id = ${org.organizationId} AND current_status = 'approved'
        RETURNING id, organization_id, request_owner_id, budget_id, amount_requested,
                  amount_currency
      )
      INSERT INTO retirements (organization_id, request_id, retirement_owner_id, budget_id,
                               amount_received, amount_spent, amount_currency, due_date, status,
                               created_by)
      SELECT organization_id, id, request_owner_id, budget_id, amount_requested, amount_requested,
             amount_currency, current_date,
             (ARRAY['pending', 'on_progress', 'approved', 'rejected'])[1 + row_number() OVER () % 4],
             ${org.finance.id}::uuid
      FROM copies`);
    expect(await expectTotalsMatchRows(org)).toMatchObject({ all: 201 });

    await t.db.execute(sql`
      UPDATE retirements SET status = 'approved'
      WHERE organization_id = ${org.organizationId} AND status = 'on_progress'`);
    await t.db.execute(sql`
      UPDATE retirements SET comments = 'touched' WHERE organization_id = ${org.organizationId}`);
    expect(await expectTotalsMatchRows(org)).toMatchObject({ on_progress: 0 });

    await t.db.execute(sql`
      DELETE FROM retirements
      WHERE organization_id = ${org.organizationId} AND status = 'rejected'`);
    expect(await expectTotalsMatchRows(org)).toMatchObject({ rejected: 0 });
  });

  it('are folded into one row a status when they pile up, keeping every total', async () => {
    const org = await buildStaffedOrganization(t.db, { name: 'Folded Retirement Counts Org' });
    await retirementIn(org, org.staff);
    const before = await expectTotalsMatchRows(org);
    // 100 rows that add up to 0 approved and 0 rejected.
    await t.db.execute(sql`
      INSERT INTO retirement_status_counts (organization_id, status, retirements)
      SELECT ${org.organizationId}::uuid, CASE WHEN g <= 50 THEN 'approved' ELSE 'rejected' END,
             CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END
      FROM generate_series(1, 100) AS g`);
    const rowsOf = () =>
      t.db.$count(
        retirementStatusCounts,
        eq(retirementStatusCounts.organization_id, org.organizationId),
      );
    expect(await rowsOf()).toBeGreaterThan(100);

    expect(await listTotals(org.finance)).toEqual(before); // this read folds them
    expect(await rowsOf()).toBe(1); // one pending row; approved and rejected added up to zero
    await foldRetirementStatusCounts(t.db, org.organizationId);
    expect(await rowsOf()).toBe(1);
    expect(await expectTotalsMatchRows(org)).toEqual(before);
  });
});
