import {
  userEnvelopeResponse,
  type UpdateUserRequest,
  type UserResponse,
} from '@imprest/domain/api/users.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

/** The body of PUT users as the web sends it (fields left out keep their value). */
export type UpdateUserInput = Omit<UpdateUserRequest, 'phone_number'> & {
  phone_number?: string | null;
};

/** PUT users: changes a user's values (spec §7; who may change what: decisions §9). */
export async function updateUser(body: UpdateUserInput): Promise<UserResponse> {
  const response = await apiRequest('users', {
    method: 'PUT',
    body,
    schema: userEnvelopeResponse,
  });
  return response.user;
}

/** Updates a user and puts the answer in the cache. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      queryClient.setQueryData(userKeys.detail(user.id), user);
      return queryClient.invalidateQueries({ queryKey: [...userKeys.all, 'list'] });
    },
  });
}
