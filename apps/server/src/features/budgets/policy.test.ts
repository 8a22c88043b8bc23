import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { budgetAccess, budgetActions, type BudgetAccess, type BudgetAction } from './policy.ts';

const organization = 'org-a';
const records = {
  none: undefined,
  ownDepartment: { organization_id: organization, department: 'finance' },
  allDepartments: { organization_id: organization, department: 'all' },
  otherDepartment: { organization_id: organization, department: 'marketing' },
  otherOrganization: { organization_id: 'org-b', department: 'all' },
} as const;
type RecordName = keyof typeof records;

const A = 'allowed';
const F = 'forbidden';
const N = 'not_found';

/**
 * Expected access per role and action, on [no record, own department, 'all', other department,
 * other organisation]. Every actor is in the finance department. Decisions §9: reading follows
 * the department rule of spec §6; codes and balance checks are for everyone; changes and downloads
 * are finance's; another organisation's budget is never revealed.
 */
const readAll: BudgetAccess[] = [A, A, A, A, N];
const readOwn: BudgetAccess[] = [A, A, A, N, N];
const lookup: BudgetAccess[] = [A, A, A, A, N];
const finance: BudgetAccess[] = [A, A, A, A, N];
const refused: BudgetAccess[] = [F, F, F, F, N];

const table: Record<Role, Record<BudgetAction, BudgetAccess[]>> = {
  staff: {
    read: readOwn,
    lookup,
    create: refused,
    update: refused,
    delete: refused,
    download: refused,
  },
  admin: {
    read: readOwn,
    lookup,
    create: refused,
    update: refused,
    delete: refused,
    download: refused,
  },
  petty_cash_custodian: {
    read: readOwn,
    lookup,
    create: refused,
    update: refused,
    delete: refused,
    download: refused,
  },
  stem_park_manager: {
    read: readOwn,
    lookup,
    create: refused,
    update: refused,
    delete: refused,
    download: refused,
  },
  finance_officer: {
    read: readAll,
    lookup,
    create: finance,
    update: finance,
    delete: finance,
    download: finance,
  },
  executive_secretary: {
    read: readAll,
    lookup,
    create: finance,
    update: finance,
    delete: finance,
    download: finance,
  },
  director: {
    read: readAll,
    lookup,
    create: finance,
    update: finance,
    delete: finance,
    download: finance,
  },
  // Sees every department (spec §6) but has no finance permission.
  board_chairman: {
    read: readAll,
    lookup,
    create: refused,
    update: refused,
    delete: refused,
    download: refused,
  },
};

const cases = roles.flatMap((role) =>
  budgetActions.flatMap((action) =>
    (Object.keys(records) as RecordName[]).map(
      (record, index) => [role, action, record, table[role][action][index]] as const,
    ),
  ),
);

describe('budgetAccess: actor × action × record', () => {
  it.each(cases)('%s %s on %s → %s', (role, action, record, expected) => {
    const actor = { role, department: 'finance', organization_id: organization };
    expect(budgetAccess(actor, action, records[record])).toBe(expected);
  });
});
