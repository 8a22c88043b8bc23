import {
  budgetMutationResponse,
  type BudgetResponse,
  type CreateBudgetRequest,
} from '@imprest/domain/api/budgets.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

/** POST budget: creates a budget; the server computes its code (decisions §8). */
export async function createBudget(body: CreateBudgetRequest): Promise<BudgetResponse> {
  const response = await apiRequest('budget', {
    method: 'POST',
    idempotent: true,
    body,
    schema: budgetMutationResponse,
  });
  return response.data;
}

/** Creates a budget and refreshes every budget query. */
export function useCreateBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}
