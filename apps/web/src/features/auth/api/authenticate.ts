import {
  authResponse,
  type AuthenticateRequest,
  type AuthResponse,
} from '@imprest/domain/api/auth.ts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST users/authenticate: signs in with e-mail and password. */
export function authenticate(body: AuthenticateRequest): Promise<AuthResponse> {
  return apiRequest('users/authenticate', { method: 'POST', body, schema: authResponse });
}

/** Sign-in mutation; its pending/success/error states are the login states of spec §4. */
export function useAuthenticate() {
  return useMutation({ mutationFn: authenticate });
}
