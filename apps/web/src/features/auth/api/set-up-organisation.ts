import { authResponse, type AuthResponse, type SetupRequest } from '@imprest/domain/api/auth.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { setupStatusQueryKey } from './get-setup-status.ts';

/** POST setup: creates the first organisation and its director, and signs them in. */
export function setUpOrganisation(body: SetupRequest): Promise<AuthResponse> {
  return apiRequest('setup', { method: 'POST', body, schema: authResponse });
}

/** First-run set-up mutation. */
export function useSetUpOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUpOrganisation,
    onSettled: () => queryClient.invalidateQueries({ queryKey: setupStatusQueryKey }),
  });
}
