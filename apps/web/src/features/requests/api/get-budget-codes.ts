import { budgetCodesResponse, type BudgetCodesResponse } from '@imprest/domain/api/budgets.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type BudgetCodeEntry = BudgetCodesResponse['budget_codes'][number];

/** GET budget/codes: every active budget code, for the request form's budget-code field. */
export async function getBudgetCodes(): Promise<BudgetCodeEntry[]> {
  const response = await apiRequest('budget/codes', { schema: budgetCodesResponse });
  return response.budget_codes;
}

/** The budget codes a request can use. */
export function useBudgetCodes() {
  return useQuery({ queryKey: ['budgets', 'codes'], queryFn: getBudgetCodes });
}
