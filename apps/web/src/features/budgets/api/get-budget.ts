import { budgetDetailResponse, type BudgetDetailResponse } from '@imprest/domain/api/budgets.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequestVersioned, type Versioned } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

/** A budget with its newest requests, changelog and monthly history. */
export type BudgetDetail = BudgetDetailResponse['data'];

/**
 * GET budget/{code}: one budget by its code (decisions §8), answered as `{data: budget}`, and the
 * version of its terms (`ETag`), which an edit sends back (docs/decisions/0036).
 */
export async function getVersionedBudget(
  code: string,
  signal?: AbortSignal,
): Promise<Versioned<BudgetDetail>> {
  const response = await apiRequestVersioned(`budget/${encodeURIComponent(code)}`, {
    schema: budgetDetailResponse,
    signal,
  });
  return { data: response.data.data, version: response.version };
}

/** GET budget/{code} without its version. */
export async function getBudget(code: string, signal?: AbortSignal): Promise<BudgetDetail> {
  return (await getVersionedBudget(code, signal)).data;
}

/** The budget detail of a code. */
export function useBudget(code: string) {
  return useQuery({
    queryKey: budgetKeys.detail(code),
    queryFn: ({ signal }) => getBudget(code, signal),
  });
}
