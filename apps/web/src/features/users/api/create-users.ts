import {
  usersResponse,
  type NewUserRequest,
  type UserResponse,
} from '@imprest/domain/api/users.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

/** A user to add as the form sends it (the server keeps `system_role` consistent, decisions §3). */
export type NewUserInput = Omit<NewUserRequest, 'phone_number'> & { phone_number: string | null };

/**
 * POST users: adds one user or a whole batch, all or nothing (spec §7). A refused batch is an
 * ApiError whose `details` name the rows from 1 (`3.email`).
 */
export async function createUsers(users: NewUserInput[]): Promise<UserResponse[]> {
  const response = await apiRequest('users', {
    method: 'POST',
    idempotent: true,
    body: users,
    schema: usersResponse,
  });
  return response.users;
}

/** Adds users and refreshes every user query. */
export function useCreateUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUsers,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
