import {
  auditPageResponse,
  type AuditDownloadQuery,
  type AuditPageResponse,
} from '@imprest/domain/api/audit.ts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** The audit page's filters, as the API names them (all optional). */
export type AuditFilters = AuditDownloadQuery;

/** Events a page of the audit page holds. */
export const auditPageSize = 50;

/** GET audit: a page of the trail, newest first, after `cursor` (director). */
export function getAuditEvents(
  filters: AuditFilters,
  cursor: string | undefined,
): Promise<AuditPageResponse> {
  return apiRequest('audit', {
    query: { ...filters, cursor, per_page: auditPageSize },
    schema: auditPageResponse,
  });
}

/** The trail under filters, one keyset page after another ("Show older"). */
export function useAuditEvents(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit', 'events', filters],
    queryFn: ({ pageParam }) => getAuditEvents(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
