import { delegationResponse, type DelegationResponse } from '@imprest/domain/api/delegations.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { delegationsQueryKey } from './get-delegations.ts';

/**
 * POST delegations/{id}/end: the delegate stops acting now (the delegator or the director). Not
 * keyed: a repeated end is harmless, the server answers 409 (docs/decisions/0019).
 */
export function endDelegation(id: string): Promise<DelegationResponse> {
  return apiRequest(`delegations/${encodeURIComponent(id)}/end`, {
    method: 'POST',
    schema: delegationResponse,
  });
}

/** End now; every delegation list is refetched after it. */
export function useEndDelegation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endDelegation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: delegationsQueryKey }),
  });
}
