import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { EventBus } from './realtime/events.ts';

/** What every feature needs from the running process; built once at start-up. */
export type AppContext = {
  config: Config;
  db: Database;
  jwtKey: Uint8Array;
  events: EventBus;
  /**
   * Probes of parts started after the app (`GET /readyz`): the job worker and the Redis adapter.
   * Filled in by `startServer`; a test may leave them out.
   */
  readiness?: { jobs?: () => Promise<boolean>; redis?: () => Promise<boolean> };
};
