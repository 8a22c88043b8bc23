import {
  budgetMutationResponse,
  type BudgetResponse,
  type UpdateBudgetRequest,
} from '@imprest/domain/api/budgets.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

type UpdateBudget = {
  body: UpdateBudgetRequest;
  /**
   * The version of the budget an edit was made on (docs/decisions/0036); none for archiving or
   * re-activating, which names the status it wants and replaces nothing else.
   */
  version?: string | null;
};

/**
 * PUT budget: edits a budget by id, or archives / re-activates it with only `{id, current_status}`
 * (spec §7); an edit made on an older version than the stored one is refused (412).
 */
export async function updateBudget({ body, version }: UpdateBudget): Promise<BudgetResponse> {
  const response = await apiRequest('budget', {
    method: 'PUT',
    body,
    ifMatch: version,
    schema: budgetMutationResponse,
  });
  return response.data;
}

/**
 * Edits, archives or re-activates a budget and refreshes every budget query; after a refusal too,
 * so the form shows what someone else saved.
 */
export function useUpdateBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBudget,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
    onError: async (error) => {
      if (isApiError(error, 412)) await queryClient.invalidateQueries({ queryKey: budgetKeys.all });
    },
  });
}
