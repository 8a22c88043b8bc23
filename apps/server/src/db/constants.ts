import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Values written into a statement's text rather than sent as its parameters (issue 13). PostgreSQL
// plans a statement prepared under a name afresh for each call's parameters (a custom plan) until a
// plan made without them (a generic plan) looks no dearer; a status sent as a parameter is unknown
// to that generic plan, so its estimate is worse and PostgreSQL kept planning every call: 0.8 ms
// for the request view, which every write reads back (bench/results.md). Only for values the code
// holds, never for input.

/** A string the code holds, as an SQL literal. */
function literal(value: string): SQL {
  return sql.raw(`'${value.replaceAll("'", "''")}'`);
}

/** `column = 'value'`, the value in the statement's text. */
export function equalsConstant(column: AnyPgColumn, value: string): SQL {
  return sql`${column} = ${literal(value)}`;
}

/** `column IN ('a', 'b')`, the values in the statement's text. */
export function inConstants(column: AnyPgColumn, values: readonly string[]): SQL {
  return sql`${column} IN (${sql.join(values.map(literal), sql`, `)})`;
}
