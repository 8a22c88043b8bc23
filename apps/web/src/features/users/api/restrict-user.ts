import {
  userEnvelopeResponse,
  type RestrictUserRequest,
  type UserResponse,
} from '@imprest/domain/api/users.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

/** POST users/restrict {user_id, lock_status}: finance locks or unlocks a user (decisions §8). */
export async function restrictUser(body: RestrictUserRequest): Promise<UserResponse> {
  const response = await apiRequest('users/restrict', {
    method: 'POST',
    body,
    schema: userEnvelopeResponse,
  });
  return response.user;
}

/** Restricts or unrestricts a user and puts the answer in the cache. */
export function useRestrictUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restrictUser,
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(user.id), user);
      return queryClient.invalidateQueries({ queryKey: [...userKeys.all, 'list'] });
    },
  });
}
