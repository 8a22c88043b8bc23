import {
  pendingRetirementsResponse,
  type PendingRetirementsResponse,
} from '@imprest/domain/api/retirements.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { Paging } from '../../../lib/use-server-paging.ts';

/** GET retirement/pending: a page of the retirements waiting for the caller's review. */
export function getPendingRetirements({
  page,
  perPage,
}: Paging): Promise<PendingRetirementsResponse> {
  return apiRequest('retirement/pending', {
    query: { page, per_page: perPage },
    schema: pendingRetirementsResponse,
  });
}

/**
 * The query of a page of the list, for the hook and for prefetch-home.ts. Under 'retirements', so
 * a retirement's change anywhere (its socket event) asks for it again.
 */
export function pendingRetirementsQuery(userId: string, { page, perPage }: Paging) {
  return queryOptions({
    queryKey: ['retirements', 'pending', userId, { page, perPage }],
    queryFn: () => getPendingRetirements({ page, perPage }),
  });
}

/**
 * A page of Home's retirements waiting for the user's review, for the roles that review (those with
 * a pending list of requests). The page on screen stays while the next one loads.
 */
export function usePendingRetirements({
  userId,
  isEnabled,
  page,
  perPage,
}: Paging & { userId: string; isEnabled: boolean }) {
  return useQuery({
    ...pendingRetirementsQuery(userId, { page, perPage }),
    enabled: isEnabled,
    placeholderData: keepPreviousData,
  });
}
