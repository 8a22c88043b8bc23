import { budgetDetailResponse, type BudgetDetailResponse } from '@imprest/domain/api/budgets.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

/** A budget with its newest requests, changelog and monthly history. */
export type BudgetDetail = BudgetDetailResponse['data'];

/** GET budget/{code}: one budget by its code (decisions §8), answered as `{data: budget}`. */
export async function getBudget(code: string, signal?: AbortSignal): Promise<BudgetDetail> {
  const response = await apiRequest(`budget/${encodeURIComponent(code)}`, {
    schema: budgetDetailResponse,
    signal,
  });
  return response.data;
}

/** The budget detail of a code. */
export function useBudget(code: string) {
  return useQuery({
    queryKey: budgetKeys.detail(code),
    queryFn: ({ signal }) => getBudget(code, signal),
  });
}
