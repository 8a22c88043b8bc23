import { deleteUserResponse, type DeleteUserResponse } from '@imprest/domain/api/users.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

/** DELETE users/{userId}: the director removes a user (spec §7; kept as deactivated). */
export function deleteUser(userId: string): Promise<DeleteUserResponse> {
  return apiRequest(`users/${encodeURIComponent(userId)}`, {
    method: 'DELETE',
    schema: deleteUserResponse,
  });
}

/** Deletes a user and refreshes the lists. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    // Not awaited: the caller leaves the deleted user's page before its refetch answers 404.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
