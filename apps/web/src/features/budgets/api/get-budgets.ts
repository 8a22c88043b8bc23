import { budgetListResponse, type BudgetListResponse } from '@imprest/domain/api/budgets.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

export type BudgetListParams = { page: number; perPage: number; search: string };

/** GET budget: one page of the budgets the user may see (the server applies spec §6's rule). */
export function getBudgets(
  params: BudgetListParams,
  signal?: AbortSignal,
): Promise<BudgetListResponse> {
  return apiRequest('budget', {
    query: { page: params.page, per_page: params.perPage, search: params.search.trim() },
    schema: budgetListResponse,
    signal,
  });
}

/** The budget list; the previous page stays on screen while the next one loads. */
export function useBudgets(params: BudgetListParams) {
  return useQuery({
    queryKey: budgetKeys.list(params),
    queryFn: ({ signal }) => getBudgets(params, signal),
    placeholderData: keepPreviousData,
  });
}
