import { pendingListResponse, type PendingListResponse } from '@imprest/domain/api/requests.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { Paging } from '../../../lib/use-server-paging.ts';

type PendingRequestsParams = Paging & {
  role: Role;
  userId: string;
  isEnabled: boolean;
};

/** GET requests/{role}/pending/{id}: a page of the requests whose next review is the user's role (spec §7). */
export function getPendingRequests(
  role: Role,
  userId: string,
  { page, perPage }: Paging,
): Promise<PendingListResponse> {
  return apiRequest(`requests/${encodeURIComponent(role)}/pending/${encodeURIComponent(userId)}`, {
    query: { page, per_page: perPage },
    schema: pendingListResponse,
  });
}

/** Home lists the requests waiting for the user's role for every role but staff (spec §2). */
export function hasPendingList(role: Role): boolean {
  return isAdmin(role);
}

/** The query of a page of the list, for the hook and for prefetch-home.ts. */
export function pendingRequestsQuery(role: Role, userId: string, { page, perPage }: Paging) {
  return queryOptions({
    queryKey: ['requests', 'pending', role, userId, { page, perPage }],
    queryFn: () => getPendingRequests(role, userId, { page, perPage }),
  });
}

/**
 * A page of Home's list of requests waiting for the user's role; only for non-staff roles (spec
 * §2). Paged by the server: a finance officer's queue can hold thousands. The page on screen stays
 * while the next one loads.
 */
export function usePendingRequests({
  role,
  userId,
  isEnabled,
  page,
  perPage,
}: PendingRequestsParams) {
  return useQuery({
    ...pendingRequestsQuery(role, userId, { page, perPage }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}
