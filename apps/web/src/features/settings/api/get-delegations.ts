import {
  delegationListResponse,
  type DelegationFilter,
  type DelegationListResponse,
} from '@imprest/domain/api/delegations.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export type DelegationsParams = { status: DelegationFilter; page: number; perPage: number };

/**
 * Every delegation query starts with this key: a creation or an end refreshes them all, the request
 * view's own included (it reads the caller's active delegations under the same first word).
 */
export const delegationsQueryKey = ['delegations'] as const;

/**
 * GET delegations: the caller's own as delegator or delegate, the whole organisation's for the
 * director; latest first day first (issue 15).
 */
export function getDelegations(params: DelegationsParams): Promise<DelegationListResponse> {
  return apiRequest('delegations', {
    query: { status: params.status, page: params.page, per_page: params.perPage },
    schema: delegationListResponse,
  });
}

/** A page of delegations; the previous page stays on screen while the next one loads. */
export function useDelegations(params: DelegationsParams) {
  return useQuery({
    queryKey: [...delegationsQueryKey, 'list', params],
    queryFn: () => getDelegations(params),
    placeholderData: keepPreviousData,
  });
}
