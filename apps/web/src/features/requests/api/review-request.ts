import { requestResponse, type RequestResponse } from '@imprest/domain/api/requests.ts';
import type { ReviewRequest } from '@imprest/domain/api/reviews.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { requestQueryKey } from './get-request.ts';

/** PUT reviews: answers the request's first pending review (spec §7, decisions §3). */
export function reviewRequest(body: ReviewRequest): Promise<RequestResponse> {
  return apiRequest('reviews', { method: 'PUT', idempotent: true, body, schema: requestResponse });
}

/**
 * Review mutation; the answer is the updated request, so the view shows it at once. `onReviewed`
 * runs here rather than in `mutate`, because the updated request removes the review controls (and
 * with them a `mutate` callback) before that callback would run.
 */
export function useReviewRequest(
  options: { onReviewed?: (request: RequestResponse) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewRequest,
    onSuccess: async (request) => {
      options.onReviewed?.(request);
      queryClient.setQueryData(requestQueryKey(request.id), request);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['requests'] }),
        // A rejection or a return releases the reserved amount.
        queryClient.invalidateQueries({ queryKey: ['budgets'] }),
      ]);
    },
  });
}
