import { canSeeBudget } from '@imprest/domain/budgets.ts';
import type { Department, Role } from '@imprest/domain/enums.ts';
import { isFinance } from '@imprest/domain/permissions.ts';
import { AppError } from '../../lib/errors.ts';

/** What a user may do with budgets (decisions §9). */
export const budgetActions = [
  'read', // list and detail, under the department rule of spec §6
  'lookup', // the budget-code list and the balance check of the request form
  'create',
  'update', // edit, archive and re-activate
  'delete',
  'download',
] as const;
export type BudgetAction = (typeof budgetActions)[number];

type PolicyActor = { role: Role; department: string; organization_id: string };
type PolicyBudget = { organization_id: string; department: string };

/** The answer of the policy; not_found hides what the actor may not know exists (decisions §2). */
export type BudgetAccess = 'allowed' | 'forbidden' | 'not_found';

const financeActions: readonly BudgetAction[] = ['create', 'update', 'delete', 'download'];

/**
 * Whether an actor may do an action, on a given budget or (without one) on budgets at all.
 * Another organisation's budget is never revealed; changes and downloads need finance permission.
 */
export function budgetAccess(
  actor: PolicyActor,
  action: BudgetAction,
  budget?: PolicyBudget,
): BudgetAccess {
  if (budget && budget.organization_id !== actor.organization_id) return 'not_found';
  if (financeActions.includes(action) && !isFinance(actor.role)) return 'forbidden';
  const isVisible =
    !budget || canSeeBudget(actor.role, actor.department as Department, budget.department);
  if (action === 'read' && !isVisible) return 'not_found';
  return 'allowed';
}

/** Throws the policy's refusal as a 403 or 404. */
export function authorizeBudget(
  actor: PolicyActor,
  action: BudgetAction,
  budget?: PolicyBudget & { code: string },
): void {
  const access = budgetAccess(actor, action, budget);
  if (access === 'forbidden') {
    throw new AppError('forbidden', 'Only finance can change or download budgets.');
  }
  if (access === 'not_found') {
    throw new AppError('not_found', `No budget with code ${budget?.code ?? ''} was found.`);
  }
}
