import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { io } from 'socket.io-client';
import { readToken } from './storage.ts';

/** Reconnect settings of spec §9. */
const reconnectOptions = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20_000,
} as const;

type UserEvent = { user_id?: unknown };

/**
 * Keeps a socket.io connection to the organisation room while someone is signed in (decisions §7).
 * `update_user` naming the current user revalidates the session; other events refresh the lists
 * they concern. A server without socket.io is tolerated: the client just keeps retrying quietly.
 */
export function useRealtime(userId: string | null, onCurrentUserUpdated: () => void): void {
  const queryClient = useQueryClient();
  const onUpdatedRef = useRef(onCurrentUserUpdated);

  useEffect(() => {
    onUpdatedRef.current = onCurrentUserUpdated;
  }, [onCurrentUserUpdated]);

  useEffect(() => {
    if (!userId) return;
    const socket = io({
      path: '/socket.io',
      // A function, so every reconnect sends the freshest token.
      auth: (send) => send({ token: readToken() ?? '' }),
      ...reconnectOptions,
    });
    socket.on('update_user', (payload: UserEvent) => {
      if (payload?.user_id === userId) onUpdatedRef.current();
    });
    socket.on('request_updated', () => {
      void queryClient.invalidateQueries({ queryKey: ['requests'] });
    });
    socket.on('retirement_updated', () => {
      void queryClient.invalidateQueries({ queryKey: ['retirements'] });
      void queryClient.invalidateQueries({ queryKey: ['requests'] });
    });
    socket.on('budget_updated', () => {
      void queryClient.invalidateQueries({ queryKey: ['budgets'] });
    });
    return () => {
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [userId, queryClient]);
}
