import {
  userListResponse,
  type UserListResponse,
  type userListDepartments,
  type userListRoles,
} from '@imprest/domain/api/users.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { userKeys } from './query-keys.ts';

export type UserListDepartment = (typeof userListDepartments)[number];
export type UserListRole = (typeof userListRoles)[number];

export type UserListParams = {
  department: UserListDepartment;
  role: UserListRole;
  page: number;
  perPage: number;
  search: string;
};

/** GET users/department/{department}/{role}: one page of users (spec §7; 'all' for either). */
export function getUsers(params: UserListParams): Promise<UserListResponse> {
  const path = `users/department/${encodeURIComponent(params.department)}/${encodeURIComponent(params.role)}`;
  return apiRequest(path, {
    query: {
      page: params.page,
      per_page: params.perPage,
      search: params.search.trim() || undefined,
    },
    schema: userListResponse,
  });
}

/** A page of the users list; the previous page stays on screen while the next one loads. */
export function useUsers(params: UserListParams) {
  return useQuery({
    queryKey: userKeys.list(params),
    queryFn: () => getUsers(params),
    placeholderData: keepPreviousData,
  });
}
