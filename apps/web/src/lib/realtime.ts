import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { LiveSocket } from './live-socket.ts';
import { setRealtimeStatus } from './realtime-status.ts';

/**
 * Keeps a socket.io connection to the organisation room while someone is signed in (decisions §7;
 * the connection and its events are in live-socket.ts). A server without socket.io is tolerated:
 * the client just keeps retrying quietly. When the server itself ends the connection (it
 * disconnects the socket, or refuses the token), `onServerDisconnect` checks the session, which
 * signs out if it is over, and resolves whether it still stands; then the socket connects again.
 */
export function useRealtime(
  userId: string | null,
  onCurrentUserUpdated: () => void,
  onServerDisconnect: () => Promise<boolean>,
): void {
  const queryClient = useQueryClient();
  const onUpdatedRef = useRef(onCurrentUserUpdated);
  const onDisconnectRef = useRef(onServerDisconnect);

  useEffect(() => {
    onUpdatedRef.current = onCurrentUserUpdated;
    onDisconnectRef.current = onServerDisconnect;
  }, [onCurrentUserUpdated, onServerDisconnect]);

  useEffect(() => {
    if (!userId) return;
    setRealtimeStatus('connecting');
    let live: LiveSocket | null = null;
    let isClosed = false;
    // Issue 13: the connection's code and socket.io are fetched once someone is signed in, never
    // with the sign-in page, and once the page has been drawn (the first idle moment, 2 s at
    // most): the lists it keeps fresh are fetched fresh with the page anyway.
    function connect() {
      import('./live-socket.ts')
        .then(({ openLiveSocket }) => {
          if (isClosed) return;
          live = openLiveSocket({
            userId: userId ?? '',
            queryClient,
            onCurrentUserUpdated: () => onUpdatedRef.current(),
            onServerDisconnect: () => onDisconnectRef.current(),
          });
        })
        // Its code could not be fetched (offline): no live updates until the page is reloaded.
        .catch(() => {
          if (!isClosed) setRealtimeStatus('offline');
        });
    }
    const idle =
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(connect, { timeout: 2000 })
        : null;
    const timer = idle === null ? window.setTimeout(connect, 0) : null;
    function handleOffline() {
      setRealtimeStatus('offline');
    }
    function handleOnline() {
      live?.wentOnline();
    }
    window.addEventListener('offline', handleOffline);
    window.addEventListener('online', handleOnline);
    return () => {
      isClosed = true;
      if (idle !== null) window.cancelIdleCallback(idle);
      if (timer !== null) window.clearTimeout(timer);
      window.removeEventListener('offline', handleOffline);
      window.removeEventListener('online', handleOnline);
      live?.close();
      setRealtimeStatus('offline');
    };
  }, [userId, queryClient]);
}
