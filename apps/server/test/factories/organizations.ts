import type { Database } from '../../src/db/client.ts';
import type { BudgetRow } from '../../src/features/budgets/ledger.ts';
import {
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../helpers.ts';
import { buildBudget } from './budgets.ts';

/** An organisation with one person in each part a request's life needs, and a budget. */
export type StaffedOrganization = {
  organizationId: string;
  /** Asha Staff, engineering. */
  staff: TestUser;
  /** Juma Other, marketing: another member of staff. */
  otherStaff: TestUser;
  /** Chausiku Finance and Zawadi Finance: two finance officers, for the first review step. */
  finance: TestUser;
  finance2: TestUser;
  /** Daudi Secretary: the executive secretary, the second step. */
  secretary: TestUser;
  /** Eshe Director: the third step from 150,000,000. */
  director: TestUser;
  /** Baraka Custodian: an admin who reviews no step of the default matrix. */
  custodian: TestUser;
  /** Gimbi Admin. */
  admin: TestUser;
  /** Code 6105 unless asked otherwise, 1,000,000,000 tzs. */
  budget: BudgetRow;
};

/** Builds a StaffedOrganization: the set-up most API tests of requests and reviews start from. */
export async function buildStaffedOrganization(
  db: Database,
  options: { name?: string; budgetCode?: string; budgetAmount?: number } = {},
): Promise<StaffedOrganization> {
  const organizationId = await buildOrganization(db, options.name);
  const user = (fullname: string, extra: Omit<Parameters<typeof buildUser>[1], 'organizationId'>) =>
    buildUser(db, { organizationId, fullname, ...extra });
  return {
    organizationId,
    staff: await user('Asha Staff', { department: 'engineering' }),
    otherStaff: await user('Juma Other', { department: 'marketing' }),
    finance: await user('Chausiku Finance', { role: 'finance_officer', department: 'finance' }),
    finance2: await user('Zawadi Finance', { role: 'finance_officer', department: 'finance' }),
    secretary: await user('Daudi Secretary', { role: 'executive_secretary' }),
    director: await user('Eshe Director', { role: 'director' }),
    custodian: await user('Baraka Custodian', {
      role: 'petty_cash_custodian',
      department: 'finance',
    }),
    admin: await user('Gimbi Admin', { role: 'admin', department: 'it' }),
    budget: await buildBudget(db, {
      organizationId,
      code: options.budgetCode ?? '6105',
      name: 'Field operations',
      amount: options.budgetAmount ?? 1_000_000_000,
    }),
  };
}

/**
 * A fresh app and a StaffedOrganization on its database: what most API test files build first,
 * in their beforeAll (the app is closed after the file, as createTestApp's is).
 */
export async function appWithStaffedOrganization(
  options: Parameters<typeof buildStaffedOrganization>[1] = {},
): Promise<{ t: TestApp; org: StaffedOrganization }> {
  const t = await createTestApp();
  return { t, org: await buildStaffedOrganization(t.db, options) };
}
