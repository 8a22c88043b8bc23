import pg from 'pg';
import type { BackupLog } from './backup-format.ts';

/**
 * How `npm run backup` and `npm run restore` describe a failure: PostgreSQL's own errors say
 * enough in their message; anything else keeps its stack.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const isDatabaseError = error instanceof pg.DatabaseError;
  return isDatabaseError ? error.message : (error.stack ?? error.message);
}

/** What `npm run backup` and `npm run restore` print while they work. */
export const consoleLog: BackupLog = {
  info: (message) => console.log(`  ${message}`),
  warn: (message) => console.warn(`  warning: ${message}`),
};
