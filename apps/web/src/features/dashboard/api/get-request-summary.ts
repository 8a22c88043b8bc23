import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, isApiError } from '../../../lib/api-client.ts';

const count = z.coerce.number().int().nonnegative().catch(0);

/** A request as the summary lists it; lenient until the requests feature lands in the domain. */
const summaryRequest = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  request_owner_name: z.string().catch(''),
  purpose: z.string().catch(''),
  expenditure_date: z.string().nullable().catch(null),
  amount_requested: z.coerce.number().catch(0),
  amount_currency: z.string().catch('tzs'),
  current_status: z.string().catch('pending'),
});
export type SummaryRequest = z.infer<typeof summaryRequest>;

/** Spec §3: summary = pending, approved, rejected, pending_retirement, requests. */
const requestSummary = z.object({
  pending: count.default(0),
  approved: count.default(0),
  rejected: count.default(0),
  pending_retirement: count.default(0),
  requests: z.array(summaryRequest).catch([]).default([]),
});
export type RequestSummary = z.infer<typeof requestSummary>;

const emptySummary: RequestSummary = {
  pending: 0,
  approved: 0,
  rejected: 0,
  pending_retirement: 0,
  requests: [],
};

/** GET requests/summary/{id}: the home counts; zeros while the endpoint does not exist (404). */
export async function getRequestSummary(userId: string): Promise<RequestSummary> {
  try {
    return await apiRequest(`requests/summary/${encodeURIComponent(userId)}`, {
      schema: requestSummary,
    });
  } catch (error) {
    if (isApiError(error, 404)) return emptySummary;
    throw error;
  }
}

/** The home page's counts and recent requests of a user. */
export function useRequestSummary(userId: string) {
  return useQuery({
    queryKey: ['requests', 'summary', userId],
    queryFn: () => getRequestSummary(userId),
  });
}
