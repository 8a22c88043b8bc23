import os from 'node:os';
import pg from 'pg';
import type { BackupLog } from './backup-format.ts';
import { shutdownSignals } from './signals.ts';

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

/**
 * Aborts on SIGINT, SIGTERM or SIGHUP, and only once: Ctrl-C in a terminal reaches both this
 * process and scripts/*.mjs, which forwards it again. A backup or restore then stops where it is
 * and cleans up (docs/decisions/0017), instead of dying with its staging folder left behind.
 */
export function abortOnSignals(): {
  signal: AbortSignal;
  /** The signal received, if any. */
  received: () => NodeJS.Signals | undefined;
  /** The exit code a shell expects of a process ended by that signal (128 + its number). */
  exitCode: () => number;
} {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  for (const name of shutdownSignals) {
    process.on(name, () => {
      if (received) return;
      received = name;
      console.error(`\n${name}: stopping, and removing what was written so far…`);
      controller.abort(new Error(`interrupted by ${name}`));
    });
  }
  return {
    signal: controller.signal,
    received: () => received,
    exitCode: () => 128 + (received ? os.constants.signals[received] : 0),
  };
}
