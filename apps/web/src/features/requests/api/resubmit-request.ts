import {
  requestResponse,
  type RequestResponse,
  type resubmitRequestRequest,
} from '@imprest/domain/api/requests.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** The body of POST requests/request/request-edit: the submit payload plus parent_request. */
export type ResubmitRequestBody = z.input<typeof resubmitRequestRequest>;

/** POST requests/request/request-edit: the owner's next version of a request returned for edits. */
export function resubmitRequest(body: ResubmitRequestBody): Promise<RequestResponse> {
  return apiRequest('requests/request/request-edit', {
    method: 'POST',
    idempotent: true,
    body,
    schema: requestResponse,
  });
}

/** Resubmit mutation; the earlier version, lists, counts and budget balances change with it. */
export function useResubmitRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resubmitRequest,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['requests'] }),
        queryClient.invalidateQueries({ queryKey: ['budgets'] }),
      ]);
    },
  });
}
