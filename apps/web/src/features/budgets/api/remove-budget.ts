import {
  removeBudgetResponse,
  type RemoveBudgetRequest,
  type RemoveBudgetResponse,
} from '@imprest/domain/api/budgets.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { budgetKeys } from './query-keys.ts';

/** POST budget/remove: deletes a budget that has no requests (spec §4). */
export function removeBudget(body: RemoveBudgetRequest): Promise<RemoveBudgetResponse> {
  return apiRequest('budget/remove', { method: 'POST', body, schema: removeBudgetResponse });
}

/** Deletes a budget. Budget queries are marked stale but not refetched now: the page showing the
 * deleted budget is about to leave, and refetching it would only answer 404. */
export function useRemoveBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeBudget,
    onSuccess: (removed) => {
      queryClient.removeQueries({ queryKey: budgetKeys.detail(removed.code) });
      void queryClient.invalidateQueries({ queryKey: budgetKeys.all, refetchType: 'none' });
    },
  });
}
