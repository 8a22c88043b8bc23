import { z } from 'zod';

/**
 * The transports the server's socket.io speaks, and the only ones the page's client tries: left to
 * its default, the client went on to WebTransport once both failed (offline, or the server down),
 * a QUIC attempt this server never answers, whose refused handshake ("Opening handshake failed.")
 * the page did not catch, on every retry. Several server processes keep WebSocket alone
 * (docs/decisions/0016).
 */
export const socketTransports = ['polling', 'websocket'] as const;

/**
 * What the server tells a socket once it has joined its organisation's room (`welcome`, issue 13):
 * the server's clock, and when the organisation's last event was raised by that clock (epoch
 * milliseconds), or null when the server cannot tell. A page fetches its data before its socket
 * joins; an event raised in between reaches nobody, and this tells the page whether one was.
 */
export const socketWelcome = z.object({
  now: z.number().int().nonnegative(),
  last_event_at: z.number().int().nonnegative().nullable(),
});
export type SocketWelcome = z.infer<typeof socketWelcome>;

/**
 * Allowance for server processes' clocks (the one that stamped the event and the one that sent
 * the welcome may be different machines).
 */
export const catchUpMarginMs = 2_000;

/**
 * Whether a page must fetch again what it shows: when the organisation's last event may be later
 * than the moment since which the page has heard nothing, `quietForMs` before the welcome arrived
 * (by the page's own monotonic clock). The welcome's travel time only moves that moment earlier,
 * so an event is never wrongly taken to be older than the page's data.
 */
export function mustCatchUp(welcome: SocketWelcome, quietForMs: number): boolean {
  if (welcome.last_event_at === null) return true;
  return welcome.last_event_at >= welcome.now - quietForMs - catchUpMarginMs;
}
