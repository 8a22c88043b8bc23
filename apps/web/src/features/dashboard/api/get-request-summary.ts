import { summaryResponse, type SummaryResponse } from '@imprest/domain/api/requests.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET requests/summary/{id}: the home counts of a user (spec §3 summary). */
export function getRequestSummary(userId: string): Promise<SummaryResponse> {
  return apiRequest(`requests/summary/${encodeURIComponent(userId)}`, { schema: summaryResponse });
}

/** The query of a user's counts, for the hook and for prefetch-home.ts. */
export function requestSummaryQuery(userId: string) {
  return queryOptions({
    queryKey: ['requests', 'summary', userId],
    queryFn: () => getRequestSummary(userId),
  });
}

/** The home page's counts of a user's requests. */
export function useRequestSummary(userId: string) {
  return useQuery(requestSummaryQuery(userId));
}
