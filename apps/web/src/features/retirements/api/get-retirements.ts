import {
  retirementListResponse,
  type RetirementListResponse,
  type retirementListMode,
} from '@imprest/domain/api/retirements.ts';
import type { StatusFilter } from '@imprest/domain/enums.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { retirementKeys } from './query-keys.ts';

/** `user` for the caller's own retirements (staff mode), otherwise the caller's role (admin mode). */
export type RetirementListMode = z.infer<typeof retirementListMode>;

export type RetirementListParams = {
  mode: RetirementListMode;
  page: number;
  perPage: number;
  search: string;
  status: StatusFilter;
};

/** GET retirement/requests: one page of retirements (spec §7; 15 a page by default, §9). */
export function getRetirements(params: RetirementListParams): Promise<RetirementListResponse> {
  return apiRequest('retirement/requests', {
    query: {
      role: params.mode,
      page: params.page,
      limit: params.perPage,
      search: params.search.trim() || undefined,
      status: params.status,
    },
    schema: retirementListResponse,
  });
}

/** A page of the retirements list; the previous page stays on screen while the next one loads. */
export function useRetirements(params: RetirementListParams) {
  return useQuery({
    queryKey: retirementKeys.list(params),
    queryFn: () => getRetirements(params),
    placeholderData: keepPreviousData,
  });
}
