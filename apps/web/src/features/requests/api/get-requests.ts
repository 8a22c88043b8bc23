import {
  requestListResponse,
  type RequestListResponse,
  type requestListMode,
} from '@imprest/domain/api/requests.ts';
import type { StatusFilter } from '@imprest/domain/enums.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** `user` for the caller's own requests (staff mode), otherwise the caller's role (admin mode). */
export type RequestListMode = z.infer<typeof requestListMode>;

export type RequestListParams = {
  mode: RequestListMode;
  userId: string;
  page: number;
  perPage: number;
  search: string;
  status: StatusFilter;
};

/** GET requests/{systemRole}/{userId}: one page of requests (spec §7, decisions §8). */
export function getRequests(params: RequestListParams): Promise<RequestListResponse> {
  return apiRequest(
    `requests/${encodeURIComponent(params.mode)}/${encodeURIComponent(params.userId)}`,
    {
      query: {
        page: params.page,
        per_page: params.perPage,
        search: params.search.trim() || undefined,
        status: params.status,
      },
      schema: requestListResponse,
    },
  );
}

/** A page of the requests list; the previous page stays on screen while the next one loads. */
export function useRequests(params: RequestListParams) {
  return useQuery({
    queryKey: ['requests', 'list', params],
    queryFn: () => getRequests(params),
    placeholderData: keepPreviousData,
  });
}
