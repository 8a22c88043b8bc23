import { defaultPageSize, pageSizeOptions, retirementPageSize } from '@imprest/domain/constants.ts';
import { sql, type Placeholder } from 'drizzle-orm';
import type { Executor } from './client.ts';
import { preparedOnce } from './prepared.ts';

/**
 * Where a prepared page's rows start and how many it holds: placeholders (`limit`, `offset`), or,
 * for a first page, its size written into the statement and no OFFSET.
 */
export type PageWindow = {
  /** A placeholder, a first page's size as SQL (typed as `limit` takes it), or a number. */
  limit: Placeholder | number;
  /** A placeholder, or 0 for a first page: Drizzle writes no OFFSET for 0. */
  offset: Placeholder | number;
  /** A first page's statement, planned once per connection (isFirstPage); false unless said. */
  isFirst?: boolean;
};

/** Any page: its size and start as the `limit` and `offset` placeholders. */
export const anyPageWindow: PageWindow = {
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  isFirst: false,
};

/** The page sizes the web app asks for (its tables' and the retirements' list's). */
const firstPageSizes: ReadonlySet<number> = new Set([
  defaultPageSize,
  retirementPageSize,
  ...pageSizeOptions,
]);

/** Whether preparedPages answers this page with a first page's statement (its size in its text). */
export function isFirstPage(page: { page: number; perPage: number }): boolean {
  return page.page === 1 && firstPageSizes.has(page.perPage);
}

/**
 * A list's page statement, prepared under `name` with its LIMIT and OFFSET as placeholders, and
 * under `name_first_<size>` for the first page of each size the web asks for, with the size
 * written into its text and no OFFSET (issue 13).
 *
 * PostgreSQL keeps a prepared statement's generic plan (planned once per connection) only when it
 * looks no dearer than the plans made for the values; not knowing a LIMIT or an OFFSET, it costs a
 * generic plan as if a tenth of the rows were wanted, so an organisation's page, whose rows run to
 * hundreds of thousands, was planned again on every call: 0.33–0.44 ms of PostgreSQL's CPU a call,
 * more than running it (pg_stat_statements, bench/results.md, 2026-12-02, fifth session). With its
 * LIMIT known, the generic plan is the index walk the custom ones were, and PostgreSQL keeps it.
 * The first page is nearly every call a list gets; a later one is planned as before.
 */
export function preparedPages<T extends object>(
  name: string,
  build: (db: Executor, window: PageWindow, name: string) => T,
  options: {
    /** A later page as PostgreSQL's unnamed statement (''), planned for its values each call. */
    laterPagesUnnamed?: boolean;
  } = {},
): (db: Executor, page: { page: number; perPage: number }) => T {
  const anyPage = preparedOnce((db: Executor) =>
    build(db, anyPageWindow, options.laterPagesUnnamed ? '' : name),
  );
  const firstPages = new Map(
    [...firstPageSizes].map((size) => [
      size,
      preparedOnce((db: Executor) =>
        build(
          db,
          // SQL in place of a number: Drizzle would send a number as a parameter.
          { limit: sql.raw(String(size)) as unknown as Placeholder, offset: 0, isFirst: true },
          `${name}_first_${size}`,
        ),
      ),
    ]),
  );
  return (db, page) => {
    const firstPage = isFirstPage(page) ? firstPages.get(page.perPage) : undefined;
    return (firstPage ?? anyPage)(db);
  };
}
