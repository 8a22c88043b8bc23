import { mustCatchUp, socketTransports, socketWelcome } from '@imprest/domain/realtime.ts';
import type { QueryClient } from '@tanstack/react-query';
import { io } from 'socket.io-client';
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

export type LiveSocketOptions = {
  userId: string;
  queryClient: QueryClient;
  /** The signed-in user changed on the server, or may have while nothing was heard. */
  onCurrentUserUpdated: () => void;
  /** The server ended the connection: checks the session; resolves whether it still stands. */
  onServerDisconnect: () => Promise<boolean>;
};

/** An open connection, as useRealtime (realtime.ts) holds it. */
export type LiveSocket = {
  /** The browser is online again. */
  wentOnline: () => void;
  close: () => void;
};

/**
 * The socket.io connection to the organisation room (decisions §7) and what its events do:
 * `update_user` naming the current user revalidates the session; other events refresh the lists
 * they concern. Apart from realtime.ts, with socket.io, so that neither is part of the sign-in
 * page's download (issue 13): useRealtime imports this once someone is signed in.
 */
export function openLiveSocket({
  userId,
  queryClient,
  onCurrentUserUpdated,
  onServerDisconnect,
}: LiveSocketOptions): LiveSocket {
  let refusals = 0;
  let isClosed = false;
  // Since when (performance.now()) the page may have missed events: its data was fetched after
  // its navigation began; after a welcome, what followed was heard live.
  let quietSince = 0;
  const socket = io({
    path: '/socket.io',
    // A function, so every reconnect sends the freshest token.
    auth: (send) => send({ token: readToken() ?? '' }),
    // Several server processes accept WebSocket only (docs/decisions/0016): a refused
    // long-polling start goes on to WebSocket instead of failing.
    tryAllTransports: true,
    transports: [...socketTransports],
    ...reconnectOptions,
  });
  function checkSession() {
    void onServerDisconnect().then((isSignedIn) => {
      if (isSignedIn && !isClosed && refusals < maxRefusals) {
        setRealtimeStatus('reconnecting');
        socket.connect();
      } else if (!isClosed) setRealtimeStatus('offline');
    });
  }
  // `socket.active`: the client will retry by itself, so the header says reconnecting.
  function showRetrying() {
    setRealtimeStatus(socket.active && navigator.onLine ? 'reconnecting' : 'offline');
  }
  // What was said while not listening may not have been heard: the user (for a lock or a new
  // position) and the lists on screen are fetched again, once.
  function catchUp() {
    onCurrentUserUpdated();
    for (const list of liveLists) void queryClient.invalidateQueries({ queryKey: [list] });
  }
  socket.on('update_user', (payload: UserEvent) => {
    if (payload?.user_id === userId) onCurrentUserUpdated();
    void queryClient.invalidateQueries({ queryKey: ['users'] });
  });
  socket.on('connect', () => {
    refusals = 0;
    setRealtimeStatus('connected');
  });
  // Joined: nothing said before this moment was heard, such as a change made after the page
  // fetched and before the socket joined (issue 13), or while the network was down. The welcome
  // says when the organisation's last event was raised: if that may be after `quietSince`, catch
  // up once; otherwise what the page shows is current (docs/decisions/0030).
  socket.on('welcome', (payload: unknown) => {
    const heardAt = performance.now();
    const welcome = socketWelcome.safeParse(payload);
    if (!welcome.success || mustCatchUp(welcome.data, heardAt - quietSince)) catchUp();
    // Every event from here on is heard, until the connection is lost.
    quietSince = heardAt;
  });
  // 'io server disconnect' is the server's own doing (a deleted user, an ended session); a restart
  // or a lost network says otherwise and reconnects by itself.
  socket.on('disconnect', (reason) => {
    showRetrying();
    if (reason === 'io server disconnect') checkSession();
  });
  socket.on('connect_error', (error) => {
    showRetrying();
    if (socket.active || error.message !== refusedMessage) return;
    refusals += 1;
    checkSession();
  });
  // A request's status also shows in a budget's list of requests and decides which requests await
  // retirement, and not every change of status moves a budget (no budget_updated).
  socket.on('request_updated', () => {
    void queryClient.invalidateQueries({ queryKey: ['requests'] });
    void queryClient.invalidateQueries({ queryKey: ['retirements'] });
    void queryClient.invalidateQueries({ queryKey: ['budgets'] });
  });
  socket.on('retirement_updated', () => {
    void queryClient.invalidateQueries({ queryKey: ['retirements'] });
    void queryClient.invalidateQueries({ queryKey: ['requests'] });
  });
  socket.on('budget_updated', () => {
    void queryClient.invalidateQueries({ queryKey: ['budgets'] });
  });
  // The rates and their changes (docs/decisions/0034): an open rates form follows them.
  socket.on('exchange_rates_updated', () => {
    void queryClient.invalidateQueries({ queryKey: ['settings'] });
  });
  // The approval matrix (docs/decisions/0035): its page and an open edit form follow it.
  socket.on('approval_matrix_updated', () => {
    void queryClient.invalidateQueries({ queryKey: ['approval-matrix'] });
  });
  return {
    // Back online with the socket still up (a short drop breaks no connection): it is connected
    // again, and what was said meanwhile may not have been heard.
    wentOnline() {
      if (!socket.connected) {
        showRetrying();
        return;
      }
      setRealtimeStatus('connected');
      catchUp();
      quietSince = performance.now();
    },
    close() {
      isClosed = true;
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
