import { budgetCodesResponse, type BudgetCodesResponse } from '@imprest/domain/api/budgets.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type BudgetCodeEntry = BudgetCodesResponse['budget_codes'][number];

/** How many codes the request form's lookup shows at once; typing narrows them. */
export const budgetCodeLookupSize = 20;

/**
 * GET budget/codes?search=&limit=: the first active codes matching what is typed (codes starting
 * with it first), or the first codes when nothing is typed.
 */
export async function lookUpBudgetCodes(
  search: string,
  limit = budgetCodeLookupSize,
): Promise<BudgetCodeEntry[]> {
  const response = await apiRequest('budget/codes', {
    query: { search: search || undefined, limit },
    schema: budgetCodesResponse,
  });
  return response.budget_codes;
}

/** The budget codes a request can use that match `search`; the last answer stays while typing. */
export function useBudgetCodeLookup(search: string) {
  return useQuery({
    queryKey: ['budgets', 'codes', search],
    queryFn: () => lookUpBudgetCodes(search),
    placeholderData: keepPreviousData,
  });
}
