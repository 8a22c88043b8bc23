import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres/session';
import type { Writable } from 'node:stream';
import pg from 'pg';
import type { Database, Executor, Transaction } from './client.ts';

/** What pipelined() uses of a Drizzle handle's session: its connection (or pool), dialect and schema. */
export type SessionParts = {
  client: pg.Pool | pg.PoolClient;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
};

/** pg's pipeline switch: a client option (pg 8.23), typed read-only, set here while idle. */
export type Switchable = { pipeline: boolean };

/** A Drizzle handle's session parts: its pool (a Database) or connection (a transaction). */
export function sessionPartsOf(db: Executor): SessionParts {
  return db._.session as unknown as SessionParts;
}

/** One step of a call (a read, or in a transaction a write too), given the handle to run on. */
export type PipelinedRead<T> = (on: Executor) => Promise<T>;

/**
 * Runs a call's independent reads together on one connection, in pg's pipeline mode: each
 * statement goes out as soon as it is asked for, without waiting for the answer to the one
 * before, and PostgreSQL answers them in order, each with its own Sync (an error fails that read
 * alone). The same reads sent with Promise.all on the pool took a connection each, and each
 * statement woke a server process of its own: on this machine a statement's send and wake-up
 * are most of a read's cost (bench/results.md, 2026-12-06, night). Statements prepared once
 * (db/prepared.ts) run on the connection as on any other.
 *
 * Outside a transaction the connection is the pool's, taken for the reads and given back once
 * every one of them has ended, so none is left in flight on a connection someone else then uses;
 * the first error to happen is thrown after that (in a transaction, the reads after it fail
 * because it aborted the transaction). Pipeline mode is on only meanwhile: a cursor (the xlsx
 * downloads' streams) cannot share a pipelined connection. Outside a transaction the steps are
 * reads: the handle they are given is no transaction.
 *
 * In a transaction the steps may write too (decision 0050): a write's steps that wait for no
 * answer of one another go out together. The steps are started in the order given, and each
 * sends its first statement before its first await (Drizzle's statements go out when awaited),
 * after a few promise hops inside Drizzle: steps whose statements take the same path (prepared
 * statements' `execute()`, say) send them in that order, and PostgreSQL runs them so, each seeing
 * the rows the ones before it wrote. A path of more hops (a builder awaited as a thenable) sends
 * later, so a statement that must run before the others goes as commitWith's `first`. A step's
 * later statements follow its own answers. A failure aborts the transaction, so whatever went
 * out beside it is rolled back with it.
 */
export async function pipelined<T extends readonly unknown[]>(
  db: Executor,
  reads: { readonly [K in keyof T]: PipelinedRead<T[K]> },
): Promise<T> {
  return runPipeline<T>(db, reads);
}

/** A statement runPipeline sends on the connection itself, before the steps'. */
type ClientStatement = (client: pg.PoolClient) => Promise<unknown>;

/**
 * The statement runPipeline sends after the steps' first statements, told whether a step has
 * failed already, in the server, by then: its statements may not have gone out, so the others'
 * must not be committed without them.
 */
type LastStatement = (client: pg.PoolClient, hasFailed: boolean) => Promise<unknown>;

/**
 * pipelined()'s work, with two more statements it may send on the connection, in the same write
 * as the steps' first statements, its answers awaited with theirs (db/transaction.ts, commitWith):
 * `first`, sent before the steps start, so PostgreSQL runs it before any of theirs (the approval
 * number's draw, whose value they write, docs/decisions/0054), its error thrown before theirs;
 * and `last`, sent once their first statements are all written (the COMMIT that ends a transaction
 * with its last writes, or its ROLLBACK when a step failed before its statements went out).
 */
export async function runPipeline<T extends readonly unknown[]>(
  db: Executor,
  reads: { readonly [K in keyof T]: PipelinedRead<T[K]> },
  { first, last }: { first?: ClientStatement; last?: LastStatement } = {},
): Promise<T> {
  const parts = sessionPartsOf(db);
  const onPool = parts.client instanceof pg.Pool;
  const client = onPool
    ? await (db as Database).$client.connect()
    : (parts.client as pg.PoolClient);
  const on: Executor = onPool ? handleOn(client, parts) : db;
  const switchable = client as unknown as Switchable;
  const wasPipelined = switchable.pipeline;
  switchable.pipeline = true;
  let firstFailure: { error: unknown } | undefined;
  let sendLast = () => {};
  const lastAnswer = last
    ? new Promise((resolve, reject) => {
        sendLast = () =>
          started(() => last(client, firstFailure !== undefined)).then(resolve, reject);
      })
    : undefined;
  holdWrites(client, sendLast);
  let answers: unknown[];
  try {
    // Its error is the cause of the others' (an aborted transaction), so it is the one thrown.
    const firstAnswer = first
      ? started(() => first(client)).catch((error: unknown) => {
          firstFailure = { error };
        })
      : undefined;
    const settled = await Promise.allSettled(
      reads.map((read) =>
        started(() => read(on)).catch((error: unknown) => {
          firstFailure ??= { error };
          throw error;
        }),
      ),
    );
    await firstAnswer;
    if (lastAnswer) {
      await lastAnswer.catch((error: unknown) => {
        firstFailure ??= { error };
      });
    }
    answers = settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  } finally {
    switchable.pipeline = wasPipelined;
    if (onPool) client.release();
  }
  if (firstFailure) throw firstFailure.error;
  return answers as never;
}

/** `run()`'s promise, or its error thrown at once as a rejected one: each step starts either way. */
function started<T>(run: () => Promise<T>): Promise<T> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** What holdWrites uses of pg's client: the socket its messages are written to. */
type WithSocket = { connection: { stream: Writable } };

/**
 * Holds the connection's writes until the steps' first statements are all written, so that they
 * leave in one system call and wake PostgreSQL once, instead of one `writev` each (issue 13: a
 * quarter of a busy server's CPU samples were `writev`). A step's first statement is written
 * after a few promise hops inside Drizzle: the microtask checkpoint drains them all before the
 * tick queued from a microtask runs, and that tick lets the writes go, after `beforeRelease` has
 * written what must follow them all (a transaction's BEGIN goes before, its COMMIT after).
 */
export function holdWrites(client: pg.PoolClient, beforeRelease: () => void = () => {}): void {
  const { stream } = (client as unknown as WithSocket).connection;
  stream.cork();
  queueMicrotask(() =>
    process.nextTick(() => {
      try {
        beforeRelease();
      } finally {
        stream.uncork();
      }
    }),
  );
}

/** The handle built on each of the pools' connections, kept as long as the connection lives. */
const handles = new WeakMap<pg.PoolClient, Transaction>();

/**
 * A Drizzle handle on one connection taken from the pool, sharing the pool's dialect and so the
 * statements prepared once for it; built as Drizzle builds a transaction's, without its BEGIN,
 * once a connection (building one builds a query builder for every table of the schema).
 */
export function handleOn(client: pg.PoolClient, parts: SessionParts): Transaction {
  let handle = handles.get(client);
  if (!handle) {
    const session = new NodePgSession(client, parts.dialect, parts.schema, parts.options);
    handle = new NodePgTransaction(parts.dialect, session, parts.schema) as unknown as Transaction;
    handles.set(client, handle);
  }
  return handle;
}
