import {
  auditPageResponse,
  type AuditHistoryParams,
  type AuditPageResponse,
} from '@imprest/domain/api/audit.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** How many events a history shows at first, and loads each time after. */
const historyPageSize = 10;

/** GET audit/history/{object_type}/{object_id}: one object's own events, newest first. */
export function getObjectHistory(
  params: AuditHistoryParams & { cursor?: string },
): Promise<AuditPageResponse> {
  return apiRequest(
    `audit/history/${encodeURIComponent(params.object_type)}/${encodeURIComponent(params.object_id)}`,
    { query: { cursor: params.cursor, per_page: historyPageSize }, schema: auditPageResponse },
  );
}

/** An object's history, page after page through the cursor; fetched only when `enabled`. */
export function useObjectHistory(params: AuditHistoryParams, options: { enabled: boolean }) {
  return useInfiniteQuery({
    queryKey: ['audit', 'history', params.object_type, params.object_id],
    queryFn: ({ pageParam }) => getObjectHistory({ ...params, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: options.enabled,
  });
}
