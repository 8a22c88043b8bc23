import { requestListResponse, type RequestListResponse } from '@imprest/domain/api/requests.ts';
import { defaultPageSize } from '@imprest/domain/constants.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

type RecentRequestsParams = {
  /** `user` for the user's own requests (staff mode), the role for all they may see (admin mode). */
  mode: 'user' | Role;
  userId: string;
};

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

/** Home's 'Recent Requests'. */
export function useRecentRequests(params: RecentRequestsParams) {
  return useQuery({
    queryKey: ['requests', 'recent', params],
    queryFn: () => getRecentRequests(params),
  });
}
