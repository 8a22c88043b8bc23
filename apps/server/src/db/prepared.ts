/**
 * A query built once per database handle (issue 13): `build` makes a Drizzle prepared statement,
 * so its SQL is put together a single time instead of on every call, and a named one is parsed and
 * planned by PostgreSQL once per connection. Keyed weakly, so a pool that is closed takes its
 * statements with it.
 */
export function preparedOnce<D extends object, T>(build: (db: D) => T): (db: D) => T {
  const built = new WeakMap<D, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
