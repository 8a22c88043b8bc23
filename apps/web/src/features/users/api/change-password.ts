import {
  changePasswordResponse,
  type ChangePasswordRequest,
  type ChangePasswordResponse,
} from '@imprest/domain/api/users.ts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, renewingToken } from '../../../lib/api-client.ts';
import { writeSession } from '../../../lib/storage.ts';

/**
 * PUT users/password: one's own password, the current one required. Every session ends, this one
 * too; the answer carries a fresh token for this one, stored before anything else may judge a 401
 * (the server closes the old session's socket at the same moment).
 */
export function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return renewingToken(async () => {
    const auth = await apiRequest('users/password', {
      method: 'PUT',
      body,
      schema: changePasswordResponse,
      renewsToken: true,
    });
    writeSession(auth.token, auth.user);
    return auth;
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
