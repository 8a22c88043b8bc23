import {
  requestResponse,
  type createRequestRequest,
  type RequestResponse,
} from '@imprest/domain/api/requests.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** The body of POST requests (spec §3 submit payload). */
export type SubmitRequestBody = z.input<typeof createRequestRequest>;

/** POST requests: submits a new request; the server reserves its amount on the budget. */
export function submitRequest(body: SubmitRequestBody): Promise<RequestResponse> {
  return apiRequest('requests', {
    method: 'POST',
    idempotent: true,
    body,
    schema: requestResponse,
  });
}

/** Submit mutation; lists, counts and budget balances change with it. */
export function useSubmitRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitRequest,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['requests'] }),
        queryClient.invalidateQueries({ queryKey: ['budgets'] }),
      ]);
    },
  });
}
