import type { SQL } from 'drizzle-orm';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Database, Executor, Transaction } from './client.ts';
import {
  handleOn,
  holdWrites,
  runPipeline,
  sessionPartsOf,
  type PipelinedRead,
  type Switchable,
} from './pipelined.ts';

/** A transaction runTransaction is running on a connection; `isEnded` once its end was sent. */
type Run = { isEnded: boolean };

const runs = new WeakMap<pg.PoolClient, Run>();

/** Drizzle's transaction handle writes a transaction's options (a protected method). */
type ConfigWriter = { getTransactionConfigSQL(config: PgTransactionConfig): SQL };

/**
 * Runs `work` in a transaction on one of the pool's connections, as Drizzle's `transaction` does,
 * but with its `BEGIN` written together with the work's first statements, in pipeline mode, instead
 * of a round trip of its own (decision 0052). The connection stays in pipeline mode for the whole
 * transaction: the work's statements still wait for their answers where it awaits them, and
 * pipelined() needs no switch. pg refuses a cursor in pipeline mode, so none can be opened in a
 * transaction (the downloads read keyset batches, no cursor). A `BEGIN` cannot fail on a working connection; if
 * the connection fails, every statement written behind it fails with it.
 *
 * The transaction commits when `work` resolves (a `COMMIT` answered as a rollback, because a
 * statement failed and the work carried on, is an error, where Drizzle's would pass silently), and
 * rolls back when it throws. commitWith() may end it sooner, with its last writes.
 */
export async function runTransaction<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
  config?: PgTransactionConfig,
): Promise<T> {
  const parts = sessionPartsOf(db);
  const client = await db.$client.connect();
  const tx = handleOn(client, parts);
  const run: Run = { isEnded: false };
  runs.set(client, run);
  const switchable = client as unknown as Switchable;
  switchable.pipeline = true;
  holdWrites(client);
  let brokenBy: Error | undefined;
  try {
    // Drizzle's words for the isolation level and access mode, as its own BEGIN writes them.
    const options = config
      ? parts.dialect.sqlToQuery((tx as unknown as ConfigWriter).getTransactionConfigSQL(config))
          .sql
      : '';
    const begun = client.query(options ? `BEGIN ${options}` : 'BEGIN');
    // Both are awaited, so that nothing of the work is still in flight when the transaction ends.
    const [began, worked] = await Promise.allSettled([begun, (async () => work(tx))()]);
    if (began.status === 'rejected') throw began.reason;
    if (worked.status === 'rejected') throw worked.reason;
    if (!run.isEnded) {
      run.isEnded = true;
      expectCommitted(await client.query('COMMIT'));
    }
    return worked.value;
  } catch (error) {
    if (!run.isEnded) {
      run.isEnded = true;
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        brokenBy =
          rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
    }
    throw error;
  } finally {
    runs.delete(client);
    switchable.pipeline = false;
    // A connection that could not roll back is closed rather than given to the next caller.
    client.release(brokenBy);
  }
}

/** A COMMIT PostgreSQL answered as a ROLLBACK: the transaction had failed before it. */
function expectCommitted(result: pg.QueryResult): void {
  if (result.command !== 'COMMIT') {
    throw new Error(`the transaction was rolled back at its end (${result.command})`);
  }
}

/**
 * Ends a transaction of runTransaction with its last steps: pipelined() with the `COMMIT` written
 * after their first statements, in the same write, so a lock taken before them (the approval
 * number's, decision 0022) is held for one round trip instead of two. If a step fails, PostgreSQL
 * answers the `COMMIT` as a rollback of everything, and the step's error is thrown; if it failed
 * in the server before its statements went out, a `ROLLBACK` goes in the `COMMIT`'s place, so the
 * others' statements are not committed without its.
 *
 * Each step must send all its statements at once, before any answer: a statement a step sends
 * later would come after the `COMMIT`, outside the transaction. Such a statement is refused here
 * (an error, thrown from the step and then from this call) rather than run on its own. What the
 * work does after this call runs outside the transaction; it must not write.
 */
export async function commitWith<T extends readonly unknown[]>(
  tx: Executor,
  steps: { readonly [K in keyof T]: PipelinedRead<T[K]> },
  options: {
    /**
     * A statement sent before the steps', in the same write, so PostgreSQL runs it before theirs
     * whatever path their statements take through Drizzle (a builder, not awaited: the approval
     * number's draw, whose value they write, docs/decisions/0054). Its error is the one thrown.
     */
    first?: { toSQL(): { sql: string; params: unknown[] } };
  } = {},
): Promise<T> {
  const client = sessionPartsOf(tx).client as pg.PoolClient;
  const run = runs.get(client);
  if (!run || run.isEnded) throw new Error('commitWith() ends a running transaction of its own');
  // Built before the transaction is marked ended: a statement that cannot be built fails the
  // call here, and the transaction is rolled back as any other failed work.
  const firstQuery = options.first?.toSQL();
  run.isEnded = true;
  const query = client.query.bind(client);
  const ownQuery = Object.getOwnPropertyDescriptor(client, 'query');
  let committed: pg.QueryResult | undefined;
  try {
    const answers = await runPipeline<T>(tx, steps, {
      first: firstQuery
        ? () => {
            const { sql, params } = firstQuery;
            // Sent past Drizzle, so logged here, as Drizzle logs its own (bench:load counts them).
            sessionPartsOf(tx).options?.logger?.logQuery(sql, params);
            return query(sql, params);
          }
        : undefined,
      // A step that failed before its statements went out (in the server) leaves the others
      // uncommitted: they are rolled back, and its error is thrown.
      last: async (_client, hasFailed) => {
        const end = query(hasFailed ? 'ROLLBACK' : 'COMMIT');
        // From here on, the connection refuses statements until the steps have all ended.
        (client as { query: unknown }).query = refuseAfterCommit;
        committed = await end;
      },
    });
    if (committed) expectCommitted(committed);
    return answers;
  } finally {
    if (ownQuery) Object.defineProperty(client, 'query', ownQuery);
    else delete (client as { query?: unknown }).query;
  }
}

function refuseAfterCommit(): never {
  throw new Error('a statement was sent after its transaction ended (commitWith)');
}
