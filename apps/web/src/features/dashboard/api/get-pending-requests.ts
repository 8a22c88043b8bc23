import { pendingListResponse, type PendingListResponse } from '@imprest/domain/api/requests.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

type PendingRequestsParams = { role: Role; userId: string; isEnabled: boolean };

/** GET requests/{role}/pending/{id}: requests whose next review is the user's role (spec §7). */
export function getPendingRequests(role: Role, userId: string): Promise<PendingListResponse> {
  return apiRequest(`requests/${encodeURIComponent(role)}/pending/${encodeURIComponent(userId)}`, {
    schema: pendingListResponse,
  });
}

/** Home's list of requests waiting for the user's role; only for non-staff roles (spec §2). */
export function usePendingRequests({ role, userId, isEnabled }: PendingRequestsParams) {
  return useQuery({
    queryKey: ['requests', 'pending', role, userId],
    queryFn: () => getPendingRequests(role, userId),
    enabled: isEnabled,
  });
}
