import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/*
 * A list's page and its total in one statement (issue 13): the total is a column of the page's
 * own rows, from a subquery PostgreSQL runs once per statement, so a list costs one round trip
 * where it cost two, and both come from one snapshot. A page without rows (past the end, or
 * nothing to list) carries nothing, and its total is read on its own. kept-counts.ts does the same
 * for totals read from kept counts.
 */

/**
 * How many rows of `table` match `where`, as text, for a page's select list. `where` names
 * `table`'s columns by the table's name, which inside the subquery is the subquery's own `table`,
 * not the page's row: the count does not depend on the row it rides on.
 */
export function countColumn(table: PgTable, where: SQL | undefined) {
  return sql<string | null>`(SELECT count(*) FROM ${table} WHERE ${where})::text`;
}

/** The total a page's first row carries from countColumn, or `count()`'s for a page without rows. */
export async function totalOfPage(
  page: readonly { page_total: string | null }[],
  count: () => Promise<number>,
): Promise<number> {
  const [first] = page;
  return first ? Number(first.page_total) : count();
}

/** A list page's placeholders: its organisation, owner and status, and its page's size and start. */
export function pageValues(filter: {
  organizationId: string;
  ownerId?: string | undefined;
  status: string;
  page: number;
  perPage: number;
}) {
  return {
    organizationId: filter.organizationId,
    ownerId: filter.ownerId,
    status: filter.status,
    limit: filter.perPage,
    offset: (filter.page - 1) * filter.perPage,
  };
}
