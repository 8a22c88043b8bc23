import {
  changePasswordResponse,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
} from '@imprest/domain/api/users.ts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * PUT users/password: one's own password, the current one required. Other sessions end; the answer
 * carries a fresh token for this one.
 */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return apiRequest('users/password', { method: 'PUT', body, schema: changePasswordResponse });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
