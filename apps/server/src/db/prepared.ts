import type { Executor } from './client.ts';

/** What preparedOnce reads of a Drizzle handle: its session's connection and its dialect. */
type SessionOf = { client: object; dialect: object };

/**
 * A query built once per Drizzle instance (issue 13): `build` makes a Drizzle prepared statement,
 * so its SQL is put together a single time instead of on every call, and a named one is parsed and
 * planned by PostgreSQL once per connection.
 *
 * A transaction is a handle of its own (its session holds the pool's connection it runs on), and
 * every write runs in a new one, so keying by handle built each write's statements afresh: about a
 * fifth of the server's work in bench:load's writes (bench/results.md, 2026-11-28). The statement is
 * therefore kept per Drizzle instance (its dialect, which its transactions share) and, for any
 * other handle, answered bound to that handle's connection: Drizzle's prepared query runs on
 * `this.client`, so a view of it with its own `client` runs the same text, name and result mapping
 * on the transaction's connection. prepared.test.ts checks that it does, on Drizzle's current
 * version. Keyed weakly, so an instance that is dropped takes its statements with it.
 */
export function preparedOnce<D extends Executor, T extends object>(
  build: (db: D) => T,
): (db: D) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    const session = db._.session as unknown as SessionOf;
    let statement = built.get(session.dialect);
    if (!statement) {
      statement = build(db);
      built.set(session.dialect, statement);
    }
    const bound = statement as T & { client?: object };
    if (bound.client === session.client) return statement;
    return Object.create(statement, { client: { value: session.client } }) as T;
  };
}
