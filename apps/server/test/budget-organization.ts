/**
 * The budget API's test files' organisation and helpers (src/features/budgets/*.test.ts). Its
 * state is exported as live bindings, set by useBudgetOrganization's beforeAll; vitest gives each
 * test file a module of its own, so each file has its own app and organisation.
 */
import { randomUUID } from 'node:crypto';
import { budgetCode } from '@imprest/domain/budget-code.ts';
import type { Branch, BudgetCategory, Currency, RequestStatus } from '@imprest/domain/enums.ts';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, beforeEach } from 'vitest';
import { budgetChanges, budgets, requests } from '../src/db/schema.ts';
import type { BudgetRow } from '../src/features/budgets/ledger.ts';
import { insertBudget } from '../src/features/budgets/queries.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from './helpers.ts';

export let t: TestApp;
export let organizationId: string;
export let otherOrganizationId: string;
export let finance: TestUser;
export let director: TestUser;
export let secretary: TestUser;
export let chairman: TestUser;
export let staff: TestUser;
export let custodian: TestUser;
export let outsider: TestUser;

/**
 * Registers the files' set-up: one app, an organisation with a user of each role and another
 * organisation's finance officer, once; empty budgets, changelog and requests before each test.
 */
export function useBudgetOrganization(): void {
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
}

export type BudgetFixture = {
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
export async function buildBudget(options: BudgetFixture = {}): Promise<BudgetRow> {
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
export async function buildRequest(
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
export async function stateOf(budgetId: string) {
  const [row] = await t.db.select().from(budgets).where(eq(budgets.id, budgetId));
  const changes = await t.db
    .select()
    .from(budgetChanges)
    .where(eq(budgetChanges.budget_id, budgetId))
    .orderBy(asc(budgetChanges.id));
  return { row, changes };
}

export const validBudget = {
  name: 'Dar park operations',
  description: 'Source of funds: grant 12',
  amount: 500_000_000,
  department: 'all',
  amount_currency: 'tzs',
  code: 5,
  meta_data: ['operating cost', 'stemParkDar'],
};

export function post(user: TestUser | null, body: object) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/budget',
    headers: user ? auth(user) : {},
    payload: body,
  });
}
export function put(user: TestUser, body: object) {
  return t.app.inject({ method: 'PUT', url: '/api/v1/budget', headers: auth(user), payload: body });
}
export function remove(user: TestUser, id: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/budget/remove',
    headers: auth(user),
    payload: { id },
  });
}
export function get(user: TestUser, url: string) {
  return t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: auth(user) });
}

/** A full edit payload of a budget row with some fields changed. */
export function editOf(row: BudgetRow, change: object = {}) {
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
