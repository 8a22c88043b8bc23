import type { BudgetResponse } from '@imprest/domain/api/budgets.ts';
import { paths } from '../../../paths.ts';

/**
 * The edit page of a budget: the route takes the budget's id (spec §2), and the link also carries
 * its code because the API reads budgets by code (decisions §8).
 */
export function editBudgetHref(budget: Pick<BudgetResponse, 'id' | 'code'>): string {
  const query = new URLSearchParams({ code: budget.code });
  return `${paths.dashboard.editBudget.getHref(budget.id)}?${query.toString()}`;
}
