import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Rows of a table read as JSON inside another statement (a request's reviews and retirement in
 * the request's own row, issue 13), and turned back into exactly what Drizzle answers for them:
 * what JSON would change is sent as text (timestamps as ISO text to the millisecond, as the
 * driver's Date holds them; numerics as their text, as Drizzle gives them) and parsed back here.
 */
export type JsonColumns = Record<string, PgColumn>;

/** One row as jsonObjectOf sends it, before rowFromJson turns it back. */
export type JsonRow = Record<string, unknown>;

/** A column's value as JSON carries it without loss. */
function jsonValueOf(column: PgColumn): SQL {
  switch (column.columnType) {
    case 'PgTimestamp':
      return sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'PgNumeric':
      return sql`${column}::text`;
    default:
      return sql`${column}`;
  }
}

/** `json_build_object` of the columns under their property names (at most 50: its 100 arguments). */
export function jsonObjectOf(columns: JsonColumns): SQL {
  const entries = Object.entries(columns);
  if (entries.length > 50) throw new Error('json_build_object takes at most 50 columns');
  return sql`json_build_object(${sql.join(
    entries.map(([key, column]) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new Error(`unexpected property name ${key}`);
      return sql`${sql.raw(`'${key}'`)}, ${jsonValueOf(column)}`;
    }),
    sql`, `,
  )})`;
}

/** The row Drizzle would have answered, from one object of jsonObjectOf. */
export function rowFromJson<Row>(columns: JsonColumns, json: Record<string, unknown>): Row {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = json[key] ?? null;
    row[key] =
      column.columnType === 'PgTimestamp' && typeof value === 'string' ? new Date(value) : value;
  }
  return row as Row;
}
