import { mustCatchUp, socketWelcome } from '@imprest/domain/realtime.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { setRealtimeStatus } from './realtime-status.ts';
import { readToken } from './storage.ts';

/** Reconnect settings of spec §9. */
const reconnectOptions = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20_000,
} as const;

type UserEvent = { user_id?: unknown };

/** The query keys live events refresh, and a (re)connection refreshes all at once. */
const liveLists = [
  'users',
  'requests',
  'retirements',
  'budgets',
  'settings',
  'approval-matrix',
] as const;

/** What the server's socket.io middleware answers a token it refuses. */
const refusedMessage = 'unauthorized';

/** Refused handshakes in a row after which a still-valid session stops reconnecting the socket. */
const maxRefusals = 3;

/**
 * Keeps a socket.io connection to the organisation room while someone is signed in (decisions §7).
 * `update_user` naming the current user revalidates the session; other events refresh the lists
 * they concern. A server without socket.io is tolerated: the client just keeps retrying quietly.
 * When the server itself ends the connection (it disconnects the socket, or refuses the token),
 * `onServerDisconnect` checks the session, which signs out if it is over, and resolves whether it
 * still stands; then the socket connects again.
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
    let socket: Socket | null = null;
    let refusals = 0;
    let isClosed = false;
    // Since when (performance.now()) the page may have missed events: its data was fetched after
    // its navigation began; after a welcome, what followed was heard live.
    let quietSince = 0;
    function checkSession() {
      void onDisconnectRef.current().then((isSignedIn) => {
        if (isSignedIn && !isClosed && refusals < maxRefusals) {
          setRealtimeStatus('reconnecting');
          socket?.connect();
        } else if (!isClosed) setRealtimeStatus('offline');
      });
    }
    // `socket.active`: the client will retry by itself, so the header says reconnecting.
    function showRetrying() {
      setRealtimeStatus(socket?.active && navigator.onLine ? 'reconnecting' : 'offline');
    }
    // What was said while not listening may not have been heard: the user (for a lock or a new
    // position) and the lists on screen are fetched again, once.
    function catchUp() {
      onUpdatedRef.current();
      for (const list of liveLists) void queryClient.invalidateQueries({ queryKey: [list] });
    }
    // Issue 13: socket.io is fetched once someone is signed in, never with the sign-in page, and
    // once the page has been drawn (the first idle moment, 2 s at most): the lists it keeps fresh
    // are fetched fresh with the page anyway.
    function connect() {
      import('socket.io-client')
        .then(({ io }) => {
          if (isClosed) return;
          const connection = io({
            path: '/socket.io',
            // A function, so every reconnect sends the freshest token.
            auth: (send) => send({ token: readToken() ?? '' }),
            // Several server processes accept WebSocket only (docs/decisions/0016): a refused
            // long-polling start goes on to WebSocket instead of failing.
            tryAllTransports: true,
            ...reconnectOptions,
          });
          socket = connection;
          connection.on('update_user', (payload: UserEvent) => {
            if (payload?.user_id === userId) onUpdatedRef.current();
            void queryClient.invalidateQueries({ queryKey: ['users'] });
          });
          connection.on('connect', () => {
            refusals = 0;
            setRealtimeStatus('connected');
          });
          // Joined: nothing said before this moment was heard, such as a change made after the
          // page fetched and before the socket joined (issue 13), or while the network was down.
          // The welcome says when the organisation's last event was raised: if that may be after
          // `quietSince`, catch up once; otherwise what the page shows is current
          // (docs/decisions/0030).
          connection.on('welcome', (payload: unknown) => {
            const heardAt = performance.now();
            const welcome = socketWelcome.safeParse(payload);
            if (!welcome.success || mustCatchUp(welcome.data, heardAt - quietSince)) catchUp();
            // Every event from here on is heard, until the connection is lost.
            quietSince = heardAt;
          });
          // 'io server disconnect' is the server's own doing (a deleted user, an ended session); a
          // restart or a lost network says otherwise and reconnects by itself.
          connection.on('disconnect', (reason) => {
            showRetrying();
            if (reason === 'io server disconnect') checkSession();
          });
          connection.on('connect_error', (error) => {
            showRetrying();
            if (connection.active || error.message !== refusedMessage) return;
            refusals += 1;
            checkSession();
          });
          // A request's status also shows in a budget's list of requests and decides which requests
          // await retirement, and not every change of status moves a budget (no budget_updated).
          connection.on('request_updated', () => {
            void queryClient.invalidateQueries({ queryKey: ['requests'] });
            void queryClient.invalidateQueries({ queryKey: ['retirements'] });
            void queryClient.invalidateQueries({ queryKey: ['budgets'] });
          });
          connection.on('retirement_updated', () => {
            void queryClient.invalidateQueries({ queryKey: ['retirements'] });
            void queryClient.invalidateQueries({ queryKey: ['requests'] });
          });
          connection.on('budget_updated', () => {
            void queryClient.invalidateQueries({ queryKey: ['budgets'] });
          });
          // The rates and their changes (docs/decisions/0034): an open rates form follows them.
          connection.on('exchange_rates_updated', () => {
            void queryClient.invalidateQueries({ queryKey: ['settings'] });
          });
          // The approval matrix (docs/decisions/0035): its page and an open edit form follow it.
          connection.on('approval_matrix_updated', () => {
            void queryClient.invalidateQueries({ queryKey: ['approval-matrix'] });
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
    // Back online with the socket still up (a short drop breaks no connection): it is connected
    // again, and what was said meanwhile may not have been heard.
    function handleOnline() {
      if (!socket) return;
      if (!socket.connected) {
        showRetrying();
        return;
      }
      setRealtimeStatus('connected');
      catchUp();
      quietSince = performance.now();
    }
    window.addEventListener('offline', handleOffline);
    window.addEventListener('online', handleOnline);
    return () => {
      isClosed = true;
      if (idle !== null) window.cancelIdleCallback(idle);
      if (timer !== null) window.clearTimeout(timer);
      window.removeEventListener('offline', handleOffline);
      window.removeEventListener('online', handleOnline);
      socket?.removeAllListeners();
      socket?.disconnect();
      setRealtimeStatus('offline');
    };
  }, [userId, queryClient]);
}
