import { createHash } from 'node:crypto';
import { getTableColumns, is, sql, SQL, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';
import { preparedOnce } from './prepared.ts';

/** What a prepared INSERT is run with: its placeholders' values, answering its rows. */
type PreparedInsert = { execute: (values: Record<string, unknown>) => Promise<unknown> };

/**
 * What an insert builder can be finished with before it is prepared (`onConflictDoNothing`,
 * `returning`): Drizzle's builder types, loosely, since the rows are placeholders.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type InsertBuilder = any;

/** Above this many rows an INSERT is built as Drizzle builds it: rare, and one text a size. */
const maxPreparedRows = 16;

/** Shapes prepared for one call site, at most. */
const maxShapes = 64;

/**
 * An INSERT built once per shape of its rows (issue 13): Drizzle otherwise puts together the text
 * and the parameters of every INSERT afresh, column by column: a seventh of the server's busy time
 * in a submission (bench/results.md, 2026-12-02, fourth session; docs/decisions/0043). The
 * statement is prepared with a placeholder for each value, under the call site's name and a hash
 * of the shape, so PostgreSQL parses it once per connection too. Each value is encoded as Drizzle
 * encodes a built one: null stays SQL NULL, anything else goes through its column's encoder
 * (jsonb, timestamps).
 *
 * A shape is the rows' count and the columns they give (a column left out, or given `undefined`,
 * takes the table's default, as in Drizzle). Rows that differ in shape, carry SQL as a value (or
 * a value whose encoder answers SQL), or number more than `maxPreparedRows` are inserted as
 * Drizzle builds them. The tables have no `$defaultFn`: a prepared statement would keep the first
 * call's value of one, so a shape that leaves such a column out is refused.
 */
export function preparedInsert<Row extends Record<string, unknown>, Result = unknown>(
  table: PgTable,
  /** The statements' names start with it: one name for each call site. */
  name: string,
  finish: (insert: InsertBuilder) => InsertBuilder = (insert: InsertBuilder) => insert,
): (db: Executor, rows: readonly Row[]) => Promise<Result[]> {
  const byShape = new Map<string, (db: Executor) => PreparedInsert>();
  const columns: Record<string, Column> = getTableColumns(table);
  const computedDefaults = Object.entries(columns)
    .filter(([, column]) => column.defaultFn !== undefined || column.onUpdateFn !== undefined)
    .map(([key]) => key);

  const statementOf = (keys: string[], count: number, shape: string) => {
    const missing = computedDefaults.filter((key) => !keys.includes(key));
    if (missing.length > 0) {
      throw new Error(`${name}: ${missing.join(', ')} would keep the first row's computed default`);
    }
    const hash = createHash('sha1').update(shape).digest('hex').slice(0, 16);
    // As SQL, so Drizzle passes each value as given: encoded here, as a built INSERT encodes it.
    const placeholders = Array.from({ length: count }, (_, index) =>
      Object.fromEntries(keys.map((key) => [key, sql`${sql.placeholder(`${key}_${index}`)}`])),
    );
    return preparedOnce(
      (db: Executor) =>
        finish(db.insert(table).values(placeholders)).prepare(`${name}_${hash}`) as PreparedInsert,
    );
  };

  return async (db, rows) => {
    const first = rows[0];
    if (!first) return [];
    const keys = Object.keys(first).filter((key) => first[key] !== undefined);
    const sameShape =
      rows.length <= maxPreparedRows &&
      rows.every((row) => {
        let defined = 0;
        for (const key in row) {
          const value = row[key];
          if (value === undefined) continue;
          if (is(value, SQL) || !(key in first) || first[key] === undefined) return false;
          defined += 1;
        }
        return defined === keys.length;
      });
    const built = async () =>
      rowsOf<Result>(await finish(db.insert(table).values(rows as never[])));
    if (!sameShape) return built();
    const values = encoded(columns, keys, rows);
    if (!values) return built();
    const shape = `${rows.length}:${keys.join(',')}`;
    let statement = byShape.get(shape);
    if (!statement) {
      // The shapes are the call site's few; a bound keeps a mistake from preparing without end.
      if (byShape.size >= maxShapes) return built();
      statement = statementOf(keys, rows.length, shape);
      byShape.set(shape, statement);
    }
    return rowsOf<Result>(await statement(db).execute(values));
  };
}

/**
 * The placeholders' values, each encoded as Drizzle encodes a built INSERT's (null as is, the rest
 * through the column's encoder); undefined when an encoder answers SQL, which only a built INSERT
 * can carry.
 */
function encoded(
  columns: Record<string, Column>,
  keys: string[],
  rows: readonly Record<string, unknown>[],
): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {};
  for (const [index, row] of rows.entries()) {
    for (const key of keys) {
      const value = row[key];
      const driverValue = value === null ? null : columns[key]?.mapToDriverValue(value);
      if (is(driverValue, SQL)) return undefined;
      values[`${key}_${index}`] = driverValue;
    }
  }
  return values;
}

/** The rows an INSERT answered: `returning`'s, or none (without it Drizzle gives pg's result). */
function rowsOf<Result>(result: unknown): Result[] {
  return Array.isArray(result) ? (result as Result[]) : [];
}
