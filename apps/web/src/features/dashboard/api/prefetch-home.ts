import type { UserResponse } from '@imprest/domain/api/user-response.ts';
import type { QueryClient } from '@tanstack/react-query';
import { effectiveMode } from '../../../lib/session.tsx';
import type { Mode } from '../../../lib/storage.ts';
import { firstPage } from '../../../lib/use-server-paging.ts';
import { hasPendingList, pendingRequestsQuery } from './get-pending-requests.ts';
import { pendingRetirementsQuery } from './get-pending-retirements.ts';
import { recentRequestsQuery, recentRequestsOf } from './get-recent-requests.ts';
import { requestSummaryQuery } from './get-request-summary.ts';

/**
 * Asks for Home's data before Home has rendered (start-home-prefetch.ts): for someone signed in who
 * opens Home, beside the validation of their stored session, and for someone signing in, while
 * Home's files download (issue 13: Home's Largest Contentful Paint). Home's hooks then find the
 * answers in the cache, or on their way. The user given and the stored mode name the lists; should
 * the validation bring a user whose role has changed, Home asks for its own, and a session that is
 * over ends as it would anyway.
 */
export function prefetchHome(queryClient: QueryClient, user: UserResponse, storedMode: Mode) {
  const mode = effectiveMode(user, storedMode);
  void queryClient.prefetchQuery(requestSummaryQuery(user.id));
  void queryClient.prefetchQuery(recentRequestsQuery(recentRequestsOf(user, mode)));
  if (hasPendingList(user.role)) {
    void queryClient.prefetchQuery(pendingRequestsQuery(user.role, user.id, firstPage));
    void queryClient.prefetchQuery(pendingRetirementsQuery(user.id, firstPage));
  }
}
