import type { UserResponse } from '@imprest/domain/api/user-response.ts';
import type { QueryClient } from '@tanstack/react-query';
import { readMode } from '../../../lib/storage.ts';

/**
 * Starts asking for Home's data (prefetch-home.ts) before Home has rendered, for someone about to
 * see it: on opening the app signed in (main.tsx), beside the session's validation, and on signing
 * in (the sign-in page), while Home's files download (issue 13). prefetch-home.ts comes with Home's
 * files, not in the entry. Home asks for its data itself when it renders, so an early request is
 * only a head start, and one that fails changes nothing.
 */
export function startHomePrefetch(queryClient: QueryClient, user: UserResponse): void {
  import('./prefetch-home.ts')
    .then(({ prefetchHome }) => prefetchHome(queryClient, user, readMode()))
    .catch(() => undefined);
}
