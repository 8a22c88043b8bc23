import type { StatusFilter } from '@imprest/domain/enums.ts';
import { eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';
import type { PageWindow } from './first-page.ts';
import { preparedOnce } from './prepared.ts';

/**
 * Counts by status that triggers keep (issue 13): the requests' per organisation (migration 0006)
 * and per owner (0016), the retirements' per organisation (0020), and the budgets' per organisation
 * by department, the "status" of this module (0022), and the review queues' by next reviewer role,
 * per organisation and per person (0025). A writer only inserts a row of deltas, so no
 * two writers wait on one counter row and no order of locks can deadlock; a status's count is the
 * sum of its rows, and a read that finds more than `rowsToFold` rows merges them.
 */
export type KeptCountsTable = {
  table: PgTable;
  /** The column a read selects by: the organisation or the owner. */
  key: PgColumn;
  status: PgColumn;
  /** The column of deltas. */
  count: PgColumn;
  /** The name the read is prepared under. */
  name: string;
};

/** One table of kept counts, with the query of one key's rows prepared once per pool. */
export function keptCountsOf(spec: KeptCountsTable) {
  return {
    ...spec,
    rowsOf: preparedOnce((db: Executor) =>
      sumsByStatus(db, spec, eq(spec.key, sql.placeholder('key'))).prepare(spec.name),
    ),
  };
}

/** The kept rows `where` selects, summed by status, with how many rows each status has. */
function sumsByStatus(db: Executor, spec: KeptCountsTable, where: SQL) {
  return db
    .select({
      status: sql<string>`${spec.status}`,
      total: sql<string>`sum(${spec.count})`,
      rows: sql<number>`count(*)::int`,
    })
    .from(spec.table)
    .where(where)
    .groupBy(spec.status);
}
export type KeptCounts = ReturnType<typeof keptCountsOf>;

/** Above this many rows, one organisation's or owner's counts are merged (on the next read). */
const rowsToFold = 64;

/** Rows by status; a status with none may be missing. */
export type StatusCounts = Partial<Record<string, number>>;

/** One organisation's or owner's counts by status, merged when they have piled up. */
export async function readKeptCounts(
  db: Executor,
  counts: KeptCounts,
  key: string,
): Promise<StatusCounts> {
  return statusCountsOf(db, counts, key, await counts.rowsOf(db).execute({ key }));
}

type KeptRow = { status: string; total: string | number; rows: number };

async function statusCountsOf(
  db: Executor,
  counts: KeptCounts,
  key: string,
  rows: KeptRow[],
): Promise<StatusCounts> {
  if (rows.reduce((sum, row) => sum + row.rows, 0) > rowsToFold)
    await foldKeptCounts(db, counts, key);
  return countsByStatus(rows);
}

function countsByStatus(rows: readonly KeptRow[]): StatusCounts {
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.total)]));
}

/**
 * Several keys' counts summed by status, as a column of a page (a name search's owners): `keys` is
 * the SQL of an array of them. Read as they are: their rows are merged by each key's own reads.
 */
export function keptCountsOfKeysColumn(counts: KeptCounts, keys: SQL) {
  return keptCountsColumn(counts, sql`ANY(${keys})`);
}

/**
 * The counts keptCountsOfKeysColumn put on a page's first row, or read on their own for a page
 * without rows (`undefined`).
 */
export async function keptCountsOfKeysOfPage(
  db: Executor,
  counts: KeptCounts,
  keys: readonly string[],
  carried: string | null | undefined,
): Promise<StatusCounts> {
  if (carried !== undefined) return countsByStatus(JSON.parse(carried ?? '[]') as KeptRow[]);
  return countsByStatus(await sumsByStatus(db, counts, inArray(counts.key, [...keys])));
}

/**
 * The same read as a column of a list's page (issue 13): one key's rows as JSON text, from a
 * subquery PostgreSQL runs once per statement, so the page and its total come in one round trip
 * instead of two, from one snapshot. Every row of the page carries the same text.
 */
export function keptCountsColumn(counts: KeptCounts, key: Placeholder | SQL) {
  return sql<string | null>`(
    SELECT json_agg(json_build_object('status', c.status, 'total', c.total, 'rows', c.rows))::text
    FROM (
      SELECT ${counts.status} AS status, sum(${counts.count}) AS total, count(*)::int AS rows
      FROM ${counts.table} WHERE ${counts.key} = ${key}
      GROUP BY ${counts.status}
    ) c
  )`;
}

/**
 * A page's kept counts from the text keptCountsColumn put on its first row (null: no rows of
 * counts at all), or read on their own when the page has no row to carry them (`undefined`: past
 * the end, or nothing to list).
 */
export function keptCountsOfPage(
  db: Executor,
  counts: KeptCounts,
  key: string,
  carried: string | null | undefined,
): Promise<StatusCounts> {
  if (carried === undefined) return readKeptCounts(db, counts, key);
  return statusCountsOf(db, counts, key, JSON.parse(carried ?? '[]') as KeptRow[]);
}

/**
 * keptCountsColumn for a list's first page (db/first-page.ts), which PostgreSQL plans once per
 * connection, the subquery with it; a later page, planned for its values each call, would plan
 * the subquery every time too, so it carries NULL and its counts are read beside it
 * (docs/decisions/0045).
 */
export function firstPageKeptCountsColumn(
  counts: KeptCounts,
  key: Placeholder | SQL,
  window: PageWindow,
) {
  return window.isFirst ? keptCountsColumn(counts, key) : sql<string | null>`NULL::text`;
}

/**
 * A list's page and its kept counts: from the page's own rows when its statement carries them
 * (firstPageKeptCountsColumn on a first page), else read beside the page, side by side.
 */
export async function pageWithKeptCounts<Row extends { kept_counts: string | null }>(
  db: Executor,
  counts: KeptCounts,
  key: string,
  page: { carriesCounts: boolean; rows: () => Promise<Row[]> },
): Promise<{ rows: Row[]; counts: StatusCounts }> {
  const read = await pageWithKeptCountsOf(
    db,
    [{ counts, key, carried: (row: Row) => row.kept_counts }],
    page,
  );
  return { rows: read.rows, counts: read.counts[0] ?? {} };
}

/** One table of kept counts a page carries: its key, and the column of the page that holds them. */
export type CarriedKeptCounts<Row> = {
  counts: KeptCounts;
  key: string;
  carried: (row: Row) => string | null;
};

/**
 * pageWithKeptCounts for a page that carries several tables' counts (a reviewer's queue: the
 * organisation's and the caller's, migration 0025): each in the order given.
 */
export async function pageWithKeptCountsOf<Row>(
  db: Executor,
  sources: readonly CarriedKeptCounts<Row>[],
  page: { carriesCounts: boolean; rows: () => Promise<Row[]> },
): Promise<{ rows: Row[]; counts: StatusCounts[] }> {
  if (page.carriesCounts) {
    const rows = await page.rows();
    const [first] = rows;
    const counts = await Promise.all(
      sources.map((source) =>
        keptCountsOfPage(db, source.counts, source.key, first && source.carried(first)),
      ),
    );
    return { rows, counts };
  }
  const [rows, ...counts] = await Promise.all([
    page.rows(),
    ...sources.map((source) => readKeptCounts(db, source.counts, source.key)),
  ]);
  return { rows: rows as Row[], counts: counts as StatusCounts[] };
}

/**
 * Merges one organisation's or owner's rows into one row per status (none for a status that adds
 * up to zero), in one statement. Safe beside writers, which only insert rows this statement does
 * not see, and beside another fold, whose deleted rows this one skips.
 */
export async function foldKeptCounts(db: Executor, counts: KeptCounts, key: string): Promise<void> {
  const keyColumn = sql.identifier(counts.key.name);
  const status = sql.identifier(counts.status.name);
  const count = sql.identifier(counts.count.name);
  await db.execute(sql`
    WITH folded AS (
      DELETE FROM ${counts.table}
      WHERE ${keyColumn} = ${key}
      RETURNING ${status}, ${count}
    )
    INSERT INTO ${counts.table} (${keyColumn}, ${status}, ${count})
    SELECT ${key}::uuid, ${status}, sum(${count}) FROM folded
    GROUP BY ${status}
    HAVING sum(${count}) <> 0`);
}

/** The total of a list's status filter. */
export function totalOf(counts: StatusCounts, status: StatusFilter): number {
  if (status !== 'all') return counts[status] ?? 0;
  return Object.values(counts).reduce<number>((sum, value) => sum + (value ?? 0), 0);
}
