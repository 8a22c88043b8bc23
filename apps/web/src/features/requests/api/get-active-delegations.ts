import {
  delegationListResponse,
  type DelegationListResponse,
} from '@imprest/domain/api/delegations.ts';
import { maxPageSize } from '@imprest/domain/constants.ts';
import type { DelegationGrant } from '@imprest/domain/delegations.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * GET delegations?status=active: the caller's delegations running today in the organisation's
 * time zone (the director's list holds the whole organisation's; only the caller's as delegate
 * count here).
 */
export function getActiveDelegations(): Promise<DelegationListResponse> {
  return apiRequest('delegations', {
    query: { status: 'active', page: 1, per_page: maxPageSize },
    schema: delegationListResponse,
  });
}

/**
 * What the user holds as a delegate today (docs/decisions/0019), as `delegatorFor` reads it: the
 * grants, and a day on which every one of them is active. The server said which are active on the
 * organisation's today, which lies within each of their periods, so the latest first day among
 * them lies within them all; the browser's own day might not (another time zone).
 */
export function actingGrants(
  list: DelegationListResponse | undefined,
  userId: string,
): { grants: DelegationGrant[]; today: string } {
  const held = (list?.data ?? []).filter(
    (delegation) => delegation.delegate.id === userId && delegation.status === 'active',
  );
  const grants = held
    // The earliest delegation that may act is named, as the server names it.
    .sort(
      (a, b) => a.starts_on.localeCompare(b.starts_on) || a.created_at.localeCompare(b.created_at),
    )
    .map((delegation) => ({
      delegator_id: delegation.delegator.id,
      delegator_name: delegation.delegator.fullname,
      delegator_role: delegation.delegator.role,
      starts_on: delegation.starts_on,
      ends_on: delegation.ends_on,
      ended_at: delegation.ended_at,
    }));
  const today = grants.reduce(
    (latest, grant) => (grant.starts_on > latest ? grant.starts_on : latest),
    '',
  );
  return { grants, today };
}

/**
 * The user's active delegations as a delegate, for the request view to tell whether they may
 * answer a step for someone; under the 'delegations' key, so Settings' changes refresh it.
 */
export function useActiveDelegations(options: { isEnabled: boolean }) {
  return useQuery({
    queryKey: ['delegations', 'active-for-review'],
    queryFn: getActiveDelegations,
    enabled: options.isEnabled,
  });
}
