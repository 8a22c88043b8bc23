import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST retirement/attach-retirement {id}: finance starts the retirement of an approved request. */
export function attachRetirement(requestId: string): Promise<unknown> {
  return apiRequest('retirement/attach-retirement', {
    method: 'POST',
    idempotent: true,
    body: { id: requestId },
  });
}

/**
 * Attach-retirement mutation; the request then shows its retirement. `onAttached` runs here: the
 * refreshed request hides the button, and a `mutate` callback with it.
 */
export function useAttachRetirement(options: { onAttached?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: attachRetirement,
    onSuccess: async () => {
      options.onAttached?.();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['requests'] }),
        queryClient.invalidateQueries({ queryKey: ['retirements'] }),
      ]);
    },
  });
}
