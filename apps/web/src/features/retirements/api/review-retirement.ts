import {
  retirementResponse,
  type RetirementResponse,
  type reviewRetirementRequest,
} from '@imprest/domain/api/retirements.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { updateCachedRetirement } from './update-cached-retirement.ts';

/** The body of POST retirement/review: the retirement, its step, the decision and cash returned. */
export type ReviewRetirementBody = z.input<typeof reviewRetirementRequest>;

/** POST retirement/review: answers the retirement's first pending review (spec §4, §7). */
export function reviewRetirement(body: ReviewRetirementBody): Promise<RetirementResponse> {
  return apiRequest('retirement/review', {
    method: 'POST',
    idempotent: true,
    body,
    schema: retirementResponse,
  });
}

/** Review mutation; `onReviewed` runs before the answer removes the review controls. */
export function useReviewRetirement(options: { onReviewed?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewRetirement,
    onSuccess: async (retirement) => {
      options.onReviewed?.();
      await updateCachedRetirement(queryClient, retirement);
    },
  });
}
