import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { EventBus } from './realtime/events.ts';

/** What every feature needs from the running process; built once at start-up. */
export type AppContext = {
  config: Config;
  db: Database;
  jwtKey: Uint8Array;
  events: EventBus;
};
