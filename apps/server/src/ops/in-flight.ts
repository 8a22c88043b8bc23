import type { Server } from 'node:http';

export type RequestTracker = {
  /** Requests being answered now. */
  count: () => number;
  /** Resolves once none is being answered, or after `timeoutMs`; answers how many were left. */
  drained: (timeoutMs: number) => Promise<number>;
};

/**
 * Counts the requests an HTTP server is answering, so a shutdown can let them finish before it
 * closes what they use (docs/decisions/0016). Paths under `ignorePrefix` (socket.io's long polls,
 * which last until the socket closes) are not counted.
 */
export function trackRequests(
  server: Server,
  options: { ignorePrefix?: string } = {},
): RequestTracker {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  server.on('request', (request, response) => {
    if (options.ignorePrefix && request.url?.startsWith(options.ignorePrefix)) return;
    inFlight += 1;
    // `close`: the answer was sent, or the connection ended first.
    response.once('close', () => {
      inFlight -= 1;
      if (inFlight > 0) return;
      for (const wake of waiters) wake();
      waiters = [];
    });
  });
  return {
    count: () => inFlight,
    drained: async (timeoutMs) => {
      if (inFlight === 0) return 0;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
      return inFlight;
    },
  };
}
