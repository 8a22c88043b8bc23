import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** The app's query client: answers from the server (4xx) are final, network hiccups retry twice. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
      // A save made offline fails at once with "The server could not be reached…" (api-client):
      // TanStack's default held it, its button spinning without a word, until the network came back.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
