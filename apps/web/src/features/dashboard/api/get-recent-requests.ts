import { requestListResponse, type RequestListResponse } from '@imprest/domain/api/requests.ts';
import { defaultPageSize } from '@imprest/domain/constants.ts';
import type { UserResponse } from '@imprest/domain/api/user-response.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { Mode } from '../../../lib/storage.ts';

export type RecentRequestsParams = {
  /** `user` for the user's own requests (staff mode), the role for all they may see (admin mode). */
  mode: 'user' | Role;
  userId: string;
};

/** Home's list: the user's own requests in staff mode, all they may see in admin mode. */
export function recentRequestsOf(user: UserResponse, mode: Mode): RecentRequestsParams {
  return { mode: mode === 'admin' ? user.role : 'user', userId: user.id };
}

/** GET requests/{systemRole}/{userId}: the newest page of requests, for the home table. */
export function getRecentRequests({
  mode,
  userId,
}: RecentRequestsParams): Promise<RequestListResponse> {
  return apiRequest(`requests/${encodeURIComponent(mode)}/${encodeURIComponent(userId)}`, {
    query: { page: 1, per_page: defaultPageSize },
    schema: requestListResponse,
  });
}

/** The query of Home's 'Recent Requests', for the hook and for prefetch-home.ts. */
export function recentRequestsQuery(params: RecentRequestsParams) {
  return queryOptions({
    queryKey: ['requests', 'recent', params],
    queryFn: () => getRecentRequests(params),
  });
}

/** Home's 'Recent Requests'. */
export function useRecentRequests(params: RecentRequestsParams) {
  return useQuery(recentRequestsQuery(params));
}
