import { userListResponse, type UserResponse } from '@imprest/domain/api/users.ts';
import { maxPageSize } from '@imprest/domain/constants.ts';
import { reviewerHierarchy } from '@imprest/domain/requests.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * The organisation's active users who review requests, by name: the people who may delegate and
 * be delegates (docs/decisions/0019). GET users/department/all/{role} once per reviewer role, a
 * page of the most a page holds each: every role but staff may list users (decisions §9), and an
 * organisation has few reviewers, so the lists are whole without a search.
 */
export async function getDelegationCandidates(): Promise<UserResponse[]> {
  const pages = await Promise.all(
    reviewerHierarchy.map((role) =>
      apiRequest(`users/department/all/${role}`, {
        query: { page: 1, per_page: maxPageSize },
        schema: userListResponse,
      }),
    ),
  );
  return pages
    .flatMap((page) => page.users)
    .sort((a, b) => a.fullname.localeCompare(b.fullname, 'en-GB'));
}

/** The reviewers the Delegator and Delegate selects offer. */
export function useDelegationCandidates() {
  return useQuery({
    // Under the users' key, so a change of someone's role (features/users) refreshes it.
    queryKey: ['users', 'delegation-candidates'],
    queryFn: getDelegationCandidates,
    staleTime: 5 * 60_000,
  });
}
