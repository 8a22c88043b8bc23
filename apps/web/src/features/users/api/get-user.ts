import { userEnvelopeResponse, type UserResponse } from '@imprest/domain/api/users.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

/** GET users/{id}: one user of the organisation (spec §7). */
export async function getUser(id: string): Promise<UserResponse> {
  const response = await apiRequest(`users/${encodeURIComponent(id)}`, {
    schema: userEnvelopeResponse,
  });
  return response.user;
}

/** One user, for the user view. */
export function useUser(id: string) {
  return useQuery({ queryKey: userKeys.detail(id), queryFn: () => getUser(id) });
}
