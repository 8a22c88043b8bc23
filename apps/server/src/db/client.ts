import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import path from 'node:path';
import pg from 'pg';
import * as schema from './schema.ts';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A transaction handle, usable wherever a Database is. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

// NUMERIC stays a string in node-postgres so money is never rounded through a float on read.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Opens a pool on a PostgreSQL URL. */
export function connect(url: string, options: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 20 });
  pool.on('error', () => undefined); // idle clients that lose their server are replaced on next use
  return drizzle(pool, { schema }) as Database;
}

export const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

/** Applies the committed SQL migrations, one process at a time. */
export async function migrateDatabase(db: Database): Promise<void> {
  const client = await db.$client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727001)');
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727001)').catch(() => undefined);
    client.release();
  }
}
