import { budgetCode } from '@imprest/domain/budget-code.ts';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetDepartmentCounts, budgets } from '../../db/schema.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { insertBudget } from './queries.ts';

// The budget list's total without a search comes from budget_department_counts, which triggers on
// budgets keep (migration 0022). These tests change budgets in every way the app does, and some it
// does not, and compare the kept counts and the list's totals with a count of the rows themselves.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

type Organization = { id: string; finance: TestUser; staff: TestUser };

async function organization(name: string): Promise<Organization> {
  const id = await buildOrganization(t.db, name);
  return {
    id,
    finance: await buildUser(t.db, {
      organizationId: id,
      role: 'finance_officer',
      department: 'finance',
    }),
    staff: await buildUser(t.db, { organizationId: id, role: 'staff', department: 'engineering' }),
  };
}

function create(org: Organization, costCode: number, department: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/budget',
    headers: auth(org.finance),
    payload: {
      name: `Budget ${costCode}`,
      amount: 1_000_000,
      department,
      amount_currency: 'tzs',
      code: costCode,
      meta_data: ['operating cost', 'stemParkDar'],
    },
  });
}

/** A budget row to insert in SQL, bypassing the API. */
function budgetRow(org: Organization, costCode: number, department: string) {
  return {
    organization_id: org.id,
    code: budgetCode({ category: 'operating cost', branch: 'stemParkDar', costCode }),
    cost_code: costCode,
    name: `Budget ${costCode}`,
    amount: '1000',
    department,
    currency: 'tzs',
    category: 'operating cost',
    branch: 'stemParkDar',
    created_by: org.finance.id,
  } satisfies typeof budgets.$inferInsert;
}

/** The organisation's budgets by department, counted from the rows. */
async function countedFromRows(organizationId: string): Promise<Record<string, number>> {
  const rows = await t.db
    .select({ department: budgets.department, total: sql<number>`count(*)::int` })
    .from(budgets)
    .where(eq(budgets.organization_id, organizationId))
    .groupBy(budgets.department);
  return Object.fromEntries(rows.map((row) => [row.department, row.total]));
}

/** The kept counts of an organisation, summed by department (departments at zero left out). */
async function kept(organizationId: string): Promise<Record<string, number>> {
  const rows = await t.db
    .select({
      department: budgetDepartmentCounts.department,
      total: sql<number>`sum(${budgetDepartmentCounts.budgets})::int`,
    })
    .from(budgetDepartmentCounts)
    .where(eq(budgetDepartmentCounts.organization_id, organizationId))
    .groupBy(budgetDepartmentCounts.department);
  return Object.fromEntries(
    rows.filter((row) => row.total !== 0).map((row) => [row.department, row.total]),
  );
}

async function keptRows(organizationId: string): Promise<number> {
  return t.db.$count(
    budgetDepartmentCounts,
    eq(budgetDepartmentCounts.organization_id, organizationId),
  );
}

async function listTotal(user: TestUser, query = ''): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/budget${query}`,
    headers: auth(user),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().total;
}

/** The kept counts equal the rows, and every list's total is the rows' count. */
async function expectCountsExact(org: Organization): Promise<void> {
  const counted = await countedFromRows(org.id);
  expect(await kept(org.id)).toEqual(counted);
  const sum = (departments: string[]) =>
    departments.reduce((total, department) => total + (counted[department] ?? 0), 0);
  expect(await listTotal(org.finance)).toBe(sum(Object.keys(counted)));
  expect(await listTotal(org.staff)).toBe(sum(['engineering', 'all']));
  expect(await listTotal(org.finance, '?department=marketing')).toBe(sum(['marketing']));
  expect(await listTotal(org.staff, '?department=engineering')).toBe(sum(['engineering']));
  // A department the caller may not see counts none, whatever it holds.
  expect(await listTotal(org.staff, '?department=marketing')).toBe(0);
}

describe('budget_department_counts', () => {
  it('follows budgets created, moved between departments, edited and deleted through the API', async () => {
    const org = await organization('Kept Budget Counts');
    const other = await organization('Kept Budget Counts, other');
    await expectCountsExact(org);

    const made: {
      id: string;
      name: string;
      amount: number;
      department: string;
      costCode: number;
    }[] = [];
    for (const [costCode, department] of [
      [1, 'all'],
      [2, 'engineering'],
      [3, 'engineering'],
      [4, 'marketing'],
      [5, 'finance'],
    ] as const) {
      const response = await create(org, costCode, department);
      expect(response.statusCode, response.body).toBe(201);
      made.push({ ...response.json().data, costCode });
    }
    expect((await create(other, 1, 'engineering')).statusCode).toBe(201);
    await expectCountsExact(org);
    // Creations at once: each only inserts its row of deltas, so none waits for another.
    const together = await Promise.all(
      [31, 32, 33, 34, 35, 36].map((costCode) =>
        create(org, costCode, costCode % 2 === 0 ? 'engineering' : 'all'),
      ),
    );
    expect(together.map((response) => response.statusCode)).toEqual(Array(6).fill(201));
    await expectCountsExact(org);
    expect(await kept(other.id)).toEqual({ engineering: 1 });

    const edit = (budget: (typeof made)[number], change: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/budget',
        headers: auth(org.finance),
        payload: {
          id: budget.id,
          name: budget.name,
          amount: budget.amount,
          department: budget.department,
          amount_currency: 'tzs',
          code: budget.costCode,
          meta_data: ['operating cost', 'stemParkDar'],
          ...change,
        },
      });
    // A move between departments.
    expect((await edit(made[1]!, { department: 'marketing' })).statusCode).toBe(200);
    await expectCountsExact(org);
    // An edit that keeps the department, and an archive, move nothing and add no row.
    const rowsBefore = await keptRows(org.id);
    expect((await edit(made[2]!, { name: 'Renamed' })).statusCode).toBe(200);
    const archived = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/budget',
      headers: auth(org.finance),
      payload: { id: made[3]!.id, current_status: 'archived' },
    });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(await keptRows(org.id)).toBe(rowsBefore);
    await expectCountsExact(org);

    const removed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/budget/remove',
      headers: auth(org.finance),
      payload: { id: made[4]!.id },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await expectCountsExact(org);
    expect(await kept(other.id)).toEqual({ engineering: 1 });
  });

  it("never changes on the ledger's updates, and follows statements of many rows", async () => {
    const org = await organization('Kept Budget Counts, statements');
    const values = (from: number, department: string) =>
      Array.from({ length: 4 }, (_, index) => budgetRow(org, from + index, department));
    await t.db.insert(budgets).values([...values(10, 'engineering'), ...values(20, 'all')]);
    await expectCountsExact(org);
    const rowsBefore = await keptRows(org.id);
    // What every request's ledger does to its budget's row.
    await t.db
      .update(budgets)
      .set({ committed: sql`${budgets.committed} + 1` })
      .where(eq(budgets.organization_id, org.id));
    expect(await keptRows(org.id)).toBe(rowsBefore);
    // A statement moving several at once, and one deleting several.
    await t.db
      .update(budgets)
      .set({ department: 'marketing' })
      .where(sql`${budgets.organization_id} = ${org.id} AND ${budgets.cost_code} < 12`);
    await expectCountsExact(org);
    await t.db
      .delete(budgets)
      .where(sql`${budgets.organization_id} = ${org.id} AND ${budgets.cost_code} >= 22`);
    await expectCountsExact(org);
  });

  it('folds an organisation whose rows piled up into one a department, on the next list', async () => {
    const org = await organization('Kept Budget Counts, folded');
    // One statement a budget: 70 rows of deltas.
    for (let costCode = 1; costCode <= 70; costCode += 1)
      await insertBudget(
        t.db,
        budgetRow(org, costCode, costCode % 2 === 0 ? 'engineering' : 'all'),
      );
    expect(await keptRows(org.id)).toBe(70);
    expect(await listTotal(org.finance)).toBe(70);
    expect(await keptRows(org.id)).toBe(2);
    await expectCountsExact(org);
  });

  it('answers the same total on a first page, which carries its counts, and on later ones', async () => {
    const org = await organization('Kept Budget Counts, paged');
    for (let costCode = 1; costCode <= 12; costCode += 1)
      await insertBudget(t.db, budgetRow(org, costCode, costCode <= 7 ? 'engineering' : 'all'));
    await insertBudget(t.db, budgetRow(org, 13, 'marketing'));
    // [rows, total] of pages of the list; a first page of 10 is one statement (decision 0045).
    const pages = (user: TestUser, perPage: number, numbers: number[]) =>
      Promise.all(
        numbers.map(async (page) => {
          const response = await t.app.inject({
            method: 'GET',
            url: `/api/v1/budget?per_page=${perPage}&page=${page}`,
            headers: auth(user),
          });
          expect(response.statusCode, response.body).toBe(200);
          return [response.json().budget_codes.length, response.json().total];
        }),
      );
    expect(await pages(org.finance, 10, [1, 2, 9])).toEqual([
      [10, 13],
      [3, 13],
      [0, 13],
    ]);
    // The staff member's departments (engineering and all) only.
    expect(await pages(org.staff, 10, [1, 2, 9])).toEqual([
      [10, 12],
      [2, 12],
      [0, 12],
    ]);
    expect(await pages(org.staff, 5, [1, 3])).toEqual([
      [5, 12],
      [2, 12],
    ]);
  });
});
