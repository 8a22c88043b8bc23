import type { Database } from '../db/client.ts';

/**
 * Tables a refused call may legitimately write: failed sign-ins are counted (the sign-in
 * throttle), and so are requests against any rate limit.
 */
const tablesARefusalMayWrite = [/^sign_in_failures$/, /^rate_limit/, /throttle/];

/** Rows a refused call may write in a watched table: the audit trail records failed sign-ins. */
const rowsARefusalMayWrite: Record<string, string> = {
  audit_events: `action <> 'auth.sign_in_failed'`,
};

/** Row count and a checksum of the numeric (money, rate) columns, per table. */
export type DatabaseSnapshot = Record<string, { rows: number; numbers: string }>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Builds the snapshot function of a database: one query over every table of the public schema
 * (pg-boss has its own schema), found in information_schema so that a new table is covered.
 */
export async function snapshotterOf(db: Database): Promise<() => Promise<DatabaseSnapshot>> {
  const { rows: tables } = await db.$client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const { rows: columns } = await db.$client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type IN ('numeric', 'double precision', 'real')
      ORDER BY table_name, ordinal_position`,
  );
  const watched = tables
    .map((table) => table.table_name)
    .filter((name) => !tablesARefusalMayWrite.some((pattern) => pattern.test(name)));
  if (watched.length === 0) throw new Error('no tables to watch');
  const parts = watched.map((table) => {
    const numeric = columns.filter((column) => column.table_name === table);
    // An order-free checksum: the sorted numeric tuples of every row.
    const tuple = numeric.length
      ? `concat_ws('|', ${numeric.map((column) => `${quote(column.column_name)}::text`).join(', ')})`
      : `''`;
    return `SELECT '${table.replaceAll("'", "''")}' AS name, count(*)::int AS rows,
      md5(coalesce(string_agg(${tuple}, ',' ORDER BY ${tuple}), '')) AS numbers
      FROM ${quote(table)}${rowsARefusalMayWrite[table] ? ` WHERE ${rowsARefusalMayWrite[table]}` : ''}`;
  });
  const sql = parts.join('\nUNION ALL\n');
  return async () => {
    const { rows } = await db.$client.query<{ name: string; rows: number; numbers: string }>(sql);
    return Object.fromEntries(
      rows.map((row) => [row.name, { rows: row.rows, numbers: row.numbers }]),
    );
  };
}

/** What changed between two snapshots, as lines for a failure message. */
export function differences(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].flatMap((name) => {
    const was = before[name];
    const is = after[name];
    if (!was || !is) return [`${name}: appeared or disappeared`];
    const lines: string[] = [];
    if (was.rows !== is.rows) lines.push(`${name}: ${was.rows} → ${is.rows} rows`);
    if (was.numbers !== is.numbers) lines.push(`${name}: numeric columns changed`);
    return lines;
  });
}
