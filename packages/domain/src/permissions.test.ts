import { describe, expect, it } from 'vitest';
import { roles, type Role } from './enums.ts';
import { isAdmin, isFinance, isSuperAdmin, seesAllBudgets, systemRoleFor } from './permissions.ts';

// One row per role: spec §6 and decisions §3.
const table: Record<
  Role,
  [admin: boolean, finance: boolean, superAdmin: boolean, allBudgets: boolean, system: string]
> = {
  staff: [false, false, false, false, 'staff'],
  admin: [true, false, false, false, 'admin'],
  petty_cash_custodian: [true, false, false, false, 'admin'],
  stem_park_manager: [true, false, false, false, 'admin'],
  finance_officer: [true, true, false, true, 'admin'],
  executive_secretary: [true, true, false, true, 'admin'],
  director: [true, true, true, true, 'director'],
  board_chairman: [true, false, false, true, 'admin'],
};

describe('permissions', () => {
  it.each(roles.map((role) => [role, ...table[role]] as const))(
    '%s: admin=%s finance=%s superAdmin=%s allBudgets=%s system=%s',
    (role, admin, finance, superAdmin, allBudgets, system) => {
      expect(isAdmin(role)).toBe(admin);
      expect(isFinance(role)).toBe(finance);
      expect(isSuperAdmin(role)).toBe(superAdmin);
      expect(seesAllBudgets(role)).toBe(allBudgets);
      expect(systemRoleFor(role)).toBe(system);
    },
  );
});
