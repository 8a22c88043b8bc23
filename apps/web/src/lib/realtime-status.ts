import { useSyncExternalStore } from 'react';

/**
 * The socket's state as the header shows it (spec §4 Real-time connection: connecting, open,
 * closed, with automatic reconnect). `offline`: closed and not retrying, or the browser is offline.
 */
export type RealtimeStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline';

let current: RealtimeStatus = 'offline';
const listeners = new Set<() => void>();

/** Records the socket's state; only `useRealtime` calls this. */
export function setRealtimeStatus(status: RealtimeStatus): void {
  if (status === current) return;
  current = status;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function snapshot(): RealtimeStatus {
  return current;
}

/** The live-updates connection state, re-rendering when it changes. */
export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
