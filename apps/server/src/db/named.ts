import { createHash } from 'node:crypto';
import { is, SQL, type Query } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { QueryResult, QueryResultRow } from 'pg';
import type { Executor } from './client.ts';

const dialect = new PgDialect();

/** A statement prepared under a name, run on its `client`: the connection of the handle given. */
export type NamedStatement<Row> = {
  client: object;
  execute: (placeholders?: Record<string, unknown>) => Promise<Row[]>;
};

/**
 * SQL written by hand (or by a library: pg-boss) as a statement prepared under `name` on the
 * executor's connection, so PostgreSQL parses it once per connection and, once a plan made without
 * the parameters' values serves, plans it once too (issue 13, decision 0026): what Drizzle's query
 * builders do with `.prepare(name)`, for text they cannot build. One name, one text: the text must
 * be the same on every call (values as parameters or `sql.placeholder`s, constants in the text).
 * Drizzle's session prepares it, as `db.execute` does, with a name.
 *
 * Like Drizzle's prepared queries it runs on its `client`, so preparedOnce (db/prepared.ts) can
 * bind a statement built on one handle to another's connection. Before, it ran on the connection
 * of the handle it was built with, whatever handle it was called with: built first in a
 * transaction or on a pipelined connection (db/pipelined.ts), every later call went there.
 */
export function prepareNamed<Row extends QueryResultRow>(
  db: Executor,
  name: string,
  query: SQL | Query,
): NamedStatement<Row> {
  const prepared = db._.session.prepareQuery<{
    execute: QueryResult<Row>;
    all: unknown;
    values: unknown;
  }>(is(query, SQL) ? dialect.sqlToQuery(query) : query, undefined, name, false);
  const builtOn = (prepared as unknown as { client: object }).client;
  return {
    client: builtOn,
    async execute(this: { client: object }, placeholders) {
      const on =
        this.client === builtOn
          ? prepared
          : (Object.create(prepared, { client: { value: this.client } }) as typeof prepared);
      return (await on.execute(placeholders)).rows;
    },
  };
}

/** Runs SQL once as a statement prepared under `name` (see prepareNamed). */
export function executeNamed<Row extends QueryResultRow>(
  db: Executor,
  name: string,
  query: SQL | Query,
): Promise<Row[]> {
  return prepareNamed<Row>(db, name, query).execute();
}

/** Names drawn so far, by prefix and text: the texts are a library's few, sent on every write. */
const namesOfTexts = new Map<string, string>();
const namesKept = 1000;

/** A statement's name drawn from its text: the same text, the same name, on every connection. */
export function nameOfText(prefix: string, text: string): string {
  const key = `${prefix}\n${text}`;
  let name = namesOfTexts.get(key);
  if (name === undefined) {
    name = `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (namesOfTexts.size < namesKept) namesOfTexts.set(key, name);
  }
  return name;
}
