import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { RetirementResponse } from '@imprest/domain/api/retirements.ts';
import type { QueryClient } from '@tanstack/react-query';
import { retirementKeys } from './query-keys.ts';

/**
 * After a retirement call: the answer replaces the cached request's `current_retirement` at once
 * (so the form shows it without a round trip), then everything it touches is read again: lists,
 * the request (its Completed step), Home's outstanding retirements, and budgets, whose committed
 * amount follows the spent amount of an approved retirement (decisions §3).
 */
export async function updateCachedRetirement(
  queryClient: QueryClient,
  retirement: RetirementResponse,
): Promise<void> {
  queryClient.setQueryData<RequestResponse>(
    retirementKeys.request(retirement.request_id),
    (request) => (request ? { ...request, current_retirement: retirement } : request),
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: retirementKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['requests'] }),
    queryClient.invalidateQueries({ queryKey: ['budgets'] }),
  ]);
}
