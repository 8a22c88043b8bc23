import {
  retirementResponse,
  type RetirementResponse,
  type submitRetirementRequest,
} from '@imprest/domain/api/retirements.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { updateCachedRetirement } from './update-cached-retirement.ts';

/** The body of POST retirement/user-submit (spec §3 submit payload, decisions §5: with `id`). */
export type SubmitRetirementBody = z.input<typeof submitRetirementRequest>;

/** POST retirement/user-submit: the owner's amount spent, comments and receipts (pending → on_progress). */
export function submitRetirement(body: SubmitRetirementBody): Promise<RetirementResponse> {
  return apiRequest('retirement/user-submit', {
    method: 'POST',
    idempotent: true,
    body,
    schema: retirementResponse,
  });
}

/**
 * Submit mutation. `onSubmitted` runs here: the updated retirement turns the form read-only (and
 * would unmount a `mutate` callback's owner) before that callback could run.
 */
export function useSubmitRetirement(options: { onSubmitted?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitRetirement,
    onSuccess: async (retirement) => {
      options.onSubmitted?.();
      await updateCachedRetirement(queryClient, retirement);
    },
  });
}
