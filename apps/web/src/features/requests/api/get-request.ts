import { requestResponse, type RequestResponse } from '@imprest/domain/api/requests.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** The query key of one request, for reading and for invalidation after a change. */
export function requestQueryKey(id: string) {
  return ['requests', 'detail', id] as const;
}

/** GET requests/request/{id}: one request with its reviews and version history (spec §7). */
export function getRequest(id: string): Promise<RequestResponse> {
  return apiRequest(`requests/request/${encodeURIComponent(id)}`, { schema: requestResponse });
}

/** One request; `id` undefined waits (e.g. until a version is chosen). */
export function useRequest(id: string | undefined) {
  return useQuery({
    queryKey: requestQueryKey(id ?? ''),
    queryFn: () => getRequest(id ?? ''),
    enabled: Boolean(id),
    // Switching versions keeps the shown one until the next arrives.
    placeholderData: keepPreviousData,
  });
}
