import type { BudgetResponse } from '@imprest/domain/api/budgets.ts';
import type { NavigateFunction } from 'react-router';
import { paths } from '../../../paths.ts';

/**
 * The edit page of a budget: the route takes the budget's id (spec §2), and the link also carries
 * its code because the API reads budgets by code (decisions §8).
 */
export function editBudgetHref(budget: Pick<BudgetResponse, 'id' | 'code'>): string {
  const query = new URLSearchParams({ code: budget.code });
  return `${paths.dashboard.editBudget.getHref(budget.id)}?${query.toString()}`;
}

/** Spec §2: Cancel goes back one page; opened directly (no page before), it goes to the list. */
export function goBack(navigate: NavigateFunction): void {
  const state: unknown = window.history.state;
  const index =
    typeof state === 'object' && state !== null && 'idx' in state ? Number(state.idx) : 0;
  if (index > 0) void navigate(-1);
  else void navigate(paths.dashboard.budgets.getHref(), { replace: true });
}
