import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import type { Logger } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { runTransaction } from './transaction.ts';
import { serverRoot } from '../paths.ts';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A transaction handle, usable wherever a Database is. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

// NUMERIC stays a string in node-postgres so money is never rounded through a float on read.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Work to do first in every top-level transaction begun inside `withTransactionHook`; it may
 * answer a function to call if that transaction then rolls back.
 */
export type TransactionHook = (tx: Transaction) => Promise<(() => void) | undefined>;

const transactionHooks = new AsyncLocalStorage<TransactionHook>();

/**
 * Runs `work` so that each top-level transaction it begins runs `hook` first, in that
 * transaction: how a call's Idempotency-Key is recorded atomically with the write it made,
 * without every service passing it along (lib/idempotency.ts).
 */
export function withTransactionHook<T>(hook: TransactionHook, work: () => T): T {
  return transactionHooks.run(hook, work);
}

/**
 * How long a call waits for a connection, new or from the pool, before it fails. pg waits forever
 * by default: a DATABASE_URL whose host accepts but never answers (a firewall, another service on
 * the port) left the server starting forever, silent; now the start fails with the error and exits
 * 1. A pool that stays full this long is as broken for the caller waiting on it.
 */
export const connectionTimeoutMs = 15_000;

/** Opens a pool on a PostgreSQL URL; `logger` sees every statement Drizzle sends (the benchmarks'). */
export function connect(
  url: string,
  options: { max?: number; connectionTimeoutMs?: number; logger?: Logger } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? connectionTimeoutMs,
  });
  pool.on('error', () => undefined); // idle clients that lose their server are replaced on next use
  const db = drizzle(pool, { schema, logger: options.logger }) as Database;
  // Ours rather than Drizzle's: its BEGIN goes out with its first statements (db/transaction.ts).
  const transaction: Database['transaction'] = (work, config) => runTransaction(db, work, config);
  db.transaction = (async (work, config) => {
    const hook = transactionHooks.getStore();
    if (!hook) return transaction(work, config);
    let undo: (() => void) | undefined;
    try {
      return await transaction(async (tx) => {
        undo = await hook(tx);
        return work(tx);
      }, config);
    } catch (error) {
      undo?.();
      throw error;
    }
  }) as Database['transaction'];
  return db;
}

export const migrationsFolder = path.join(serverRoot, 'drizzle');

/**
 * The advisory lock migrations run under; a restore takes it too, and a backup shares it, so none
 * of them sees the schema half-changed by another.
 */
export const migrationLockKey = 727001;

/** Applies the committed SQL migrations, one process at a time. */
export async function migrateDatabase(db: Database): Promise<void> {
  // The start's first connection: its failure says what failed (not only pg's "timeout exceeded").
  const client = await db.$client.connect().catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`the database could not be reached: ${reason}`, { cause: error });
  });
  try {
    await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
    client.release();
  }
}
