import { userListResponse, type UserListResponse } from '@imprest/domain/api/users.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET users/department/all/all?search=: the people the person filter offers. */
export function getPeople(search: string): Promise<UserListResponse> {
  return apiRequest('users/department/all/all', {
    query: { page: 1, per_page: 20, search: search.trim() || undefined },
    schema: userListResponse,
  });
}

/** People whose name or e-mail matches what was typed. */
export function usePeople(search: string) {
  return useQuery({
    queryKey: ['audit', 'people', search],
    queryFn: () => getPeople(search),
    placeholderData: keepPreviousData,
  });
}
