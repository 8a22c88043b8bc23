import {
  delegationResponse,
  type CreateDelegationRequest,
  type DelegationResponse,
} from '@imprest/domain/api/delegations.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { delegationsQueryKey } from './get-delegations.ts';

/**
 * POST delegations: names a delegate for a period (the director: for any reviewer). Keyed
 * (docs/decisions/0018), so a retried creation is answered rather than refused as an overlap with
 * itself.
 */
export function createDelegation(body: CreateDelegationRequest): Promise<DelegationResponse> {
  return apiRequest('delegations', {
    method: 'POST',
    body,
    idempotent: true,
    schema: delegationResponse,
  });
}

/** Save of the Out of office form; every delegation list is refetched after it. */
export function useCreateDelegation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDelegation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: delegationsQueryKey }),
  });
}
