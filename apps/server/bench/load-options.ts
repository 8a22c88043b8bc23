/**
 * The load benchmark's options (load.ts), read from the environment once and checked: a run with a
 * wrong value stops before it seeds anything, the variable named.
 */
import path from 'node:path';
import { parseWebConcurrency } from '../src/config.ts';
import { targets } from './load-report.ts';

export const scale = Number(process.env.BENCH_SCALE ?? '1');
export const durationSeconds = Number(process.env.BENCH_DURATION ?? '10');
if (!(scale > 0 && scale <= 1)) throw new Error('BENCH_SCALE must be in (0, 1]');
if (!(durationSeconds >= 1 && durationSeconds <= 120)) {
  throw new Error('BENCH_DURATION must be 1 to 120 seconds');
}
export const connections = 50;
/** BENCH_CALLS: a regular expression; only the calls whose name matches it run (all by default). */
export const callFilter = new RegExp(process.env.BENCH_CALLS ?? '', 'i');
export const compareEntry = process.env.BENCH_COMPARE
  ? path.resolve(process.env.BENCH_COMPARE)
  : null;
/**
 * BENCH_LOG_LEVEL: the servers' LOG_LEVEL, warn by default (no line a call); `info`, as `npm start`
 * runs, writes a line a call to a file, as a log collector takes a process's output.
 * BENCH_COMPARE_LOG_LEVEL: the baseline's, when it should differ (the cost of the lines themselves).
 */
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const logLevel = process.env.BENCH_LOG_LEVEL || 'warn';
export const compareLogLevel = process.env.BENCH_COMPARE_LOG_LEVEL || logLevel;
for (const level of [logLevel, compareLogLevel]) {
  if (!logLevels.includes(level)) throw new Error(`BENCH_LOG_LEVEL must be one of ${logLevels}`);
}
/**
 * BENCH_WEB_CONCURRENCY: this build's server processes, as WEB_CONCURRENCY takes them (a number, or
 * auto; docs/decisions/0016), 1 by default; above 1 they share a Redis, as in production (REDIS_URL,
 * or a redis-server of the run's own). BENCH_COMPARE_WEB_CONCURRENCY: the baseline's, the same by
 * default, so a build can be set beside itself in another number of processes.
 */
function processCount(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return fallback;
  // Read as the server reads WEB_CONCURRENCY: 1 to maxWebConcurrency, or auto.
  try {
    return parseWebConcurrency(value);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  }
}
export const webConcurrency = processCount('BENCH_WEB_CONCURRENCY', 1);
export const compareWebConcurrency = processCount('BENCH_COMPARE_WEB_CONCURRENCY', webConcurrency);
/**
 * BENCH_ROUNDS: with BENCH_COMPARE, each call's time is cut into this many rounds, and the two builds
 * take turns within each round, the one that went second going first in the next. A machine whose
 * speed drifts within a minute (seen: ±15 %) then meets both builds alike; with one round, each
 * build has the call's whole time, one after the other. 1 by default.
 */
export const rounds = Number(process.env.BENCH_ROUNDS ?? '1');
if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 20)) {
  throw new Error('BENCH_ROUNDS must be a whole number from 1 to 20');
}
/** Distinct targets prepared for each write: enough for the target rate, with room. */
export const writeTargets = Math.ceil(targets.writeRate * durationSeconds * 1.5);
export const seedTargetSeconds = 180;
