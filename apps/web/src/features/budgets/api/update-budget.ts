import {
  budgetMutationResponse,
  type BudgetResponse,
  type UpdateBudgetRequest,
} from '@imprest/domain/api/budgets.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

/**
 * PUT budget: edits a budget by id, or archives / re-activates it with only `{id, current_status}`
 * (spec §7).
 */
export async function updateBudget(body: UpdateBudgetRequest): Promise<BudgetResponse> {
  const response = await apiRequest('budget', {
    method: 'PUT',
    body,
    schema: budgetMutationResponse,
  });
  return response.data;
}

/** Edits, archives or re-activates a budget and refreshes every budget query. */
export function useUpdateBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}
