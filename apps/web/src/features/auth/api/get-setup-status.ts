import { setupStatusResponse, type SetupStatusResponse } from '@imprest/domain/api/auth.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const setupStatusQueryKey = ['setup-status'] as const;

/** GET setup: whether the first organisation still has to be set up (decisions §1). */
export function getSetupStatus(): Promise<SetupStatusResponse> {
  return apiRequest('setup', { schema: setupStatusResponse });
}

/** Whether the sign-in page should offer 'Set up your organisation'. */
export function useSetupStatus() {
  return useQuery({ queryKey: setupStatusQueryKey, queryFn: getSetupStatus, retry: false });
}
