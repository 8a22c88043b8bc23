import { onlineManager, QueryClient, type Query } from '@tanstack/react-query';
import { ApiError, isApiError } from './api-client.ts';

/**
 * The app's query client: answers from the server (4xx) are final, network hiccups retry twice.
 * Reads are tried offline too (`networkMode: 'always'`): a page opened without a network says
 * "The server could not be reached…" with Try again, where TanStack's default paused it behind a
 * spinner without a word. Back online, whatever failed or still hangs on screen is read again.
 */
export function createQueryClient(): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        networkMode: 'always',
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
      // A save made offline fails at once with "The server could not be reached…" (api-client):
      // TanStack's default held it, its button spinning without a word, until the network came back.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  followTheNetwork(queryClient);
  return queryClient;
}

/**
 * TanStack starts out believing the browser online, so a page opened offline never saw the network
 * come back. The browser's own state is taken at start; when the network returns, the queries on
 * screen that failed, or whose call is still awaited (it may have died with the old connection),
 * are read again.
 */
function followTheNetwork(queryClient: QueryClient): void {
  if (typeof window === 'undefined') return;
  onlineManager.setOnline(navigator.onLine);
  window.addEventListener('online', () => {
    const stuck = new Set(
      queryClient
        .getQueryCache()
        .findAll({ type: 'active' })
        .filter(
          (query) => query.state.status === 'error' || query.state.fetchStatus === 'fetching',
        ),
    );
    if (stuck.size === 0) return;
    const filters = { predicate: (query: Query) => stuck.has(query) };
    // A first load under way is not restarted by a refetch (TanStack awaits it): cancelled first.
    void queryClient
      .cancelQueries(filters)
      .then(() => queryClient.refetchQueries(filters, { cancelRefetch: true }));
  });
}

/**
 * Whether a page shows its load failure in place of its record: nothing has loaded yet, or the
 * server says the record is gone or no longer visible (400, 403, 404). A refresh that merely failed
 * (offline, a server error) keeps the record on screen, and whatever was typed in a form there.
 */
export function isLoadLost(query: { data: unknown; error: unknown }): boolean {
  return query.data === undefined || isApiError(query.error, 400, 403, 404);
}
