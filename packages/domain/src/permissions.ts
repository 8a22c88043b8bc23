import type { Role, SystemRole } from './enums.ts';

/** Admin permission: any role other than staff (spec §6). */
export function isAdmin(role: Role): boolean {
  return role !== 'staff';
}

const financeRoles: readonly Role[] = ['finance_officer', 'executive_secretary', 'director'];

/** Finance permission (spec §6): budgets, retirements, locking users. */
export function isFinance(role: Role): boolean {
  return financeRoles.includes(role);
}

/**
 * Finance restricts and unrestricts users (decisions §9), anyone's but their own: locking oneself
 * out helps nobody, and lifting one's own lock would defeat it. The server checks the organisation
 * too; the web offers the Restrict Requests panel by this rule.
 */
export function mayRestrictUser(
  actor: { id: string; role: Role },
  target: { id: string },
): boolean {
  return isFinance(actor.role) && actor.id !== target.id;
}

/** Super admin permission: director only (spec §6). */
export function isSuperAdmin(role: Role): boolean {
  return role === 'director';
}

/**
 * Whether `role` holds a permission of spec §6 that `other` lacks (super admin, finance). Whoever
 * sets an account's e-mail can reset its password, so only someone holding every permission of
 * an account changes its e-mail (docs/decisions/0033).
 */
export function holdsPermissionBeyond(role: Role, other: Role): boolean {
  return (isSuperAdmin(role) && !isSuperAdmin(other)) || (isFinance(role) && !isFinance(other));
}

const allBudgetRoles: readonly Role[] = [
  'finance_officer',
  'director',
  'board_chairman',
  'executive_secretary',
];

/** Whether a role sees every department's budgets, not only its own (spec §6). */
export function seesAllBudgets(role: Role): boolean {
  return allBudgetRoles.includes(role);
}

/** The account type kept consistent with the position (decisions §3). */
export function systemRoleFor(role: Role): SystemRole {
  if (role === 'staff') return 'staff';
  if (role === 'director') return 'director';
  return 'admin';
}
