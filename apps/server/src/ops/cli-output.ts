import pg from 'pg';
import type { BackupLog } from './backup-format.ts';

/**
 * How `npm run backup` and `npm run restore` describe a failure: PostgreSQL's own errors and the
 * system's (a refused connection, a path that is a file, a full disk: `ECONNREFUSED`, `EEXIST`,
 * `ENOSPC`…) say enough in their message, which names the address or the path; anything else, a
 * fault of ours, keeps its stack.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const isSystemError = typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
  const isDatabaseError = error instanceof pg.DatabaseError;
  return isDatabaseError || isSystemError ? error.message : (error.stack ?? error.message);
}

/** What `npm run backup` and `npm run restore` print while they work. */
export const consoleLog: BackupLog = {
  info: (message) => console.log(`  ${message}`),
  warn: (message) => console.warn(`  warning: ${message}`),
};
