import { retirementResponse, type RetirementResponse } from '@imprest/domain/api/retirements.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { updateCachedRetirement } from './update-cached-retirement.ts';

/** POST retirement/request-edit {id}: the owner of a rejected retirement asks to resubmit it. */
export function requestRetirementEdit(retirementId: string): Promise<RetirementResponse> {
  return apiRequest('retirement/request-edit', {
    method: 'POST',
    body: { id: retirementId },
    schema: retirementResponse,
  });
}

/** 'Request to Resubmit': the retirement is pending again and the form editable (spec §4). */
export function useRequestRetirementEdit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestRetirementEdit,
    onSuccess: (retirement) => updateCachedRetirement(queryClient, retirement),
  });
}
