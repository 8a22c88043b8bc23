/**
 * The retirement lists (spec §2 Retirements list): an organisation's or one owner's retirements a
 * page at a time, newest first, filtered by status, searched as the requests are, each first page
 * of an organisation carrying its total.
 */
import type { StatusFilter } from '@imprest/domain/enums.ts';
import { approvalNumberSearchPrefix, purposesMatching } from '@imprest/domain/requests.ts';
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import {
  firstPageKeptCountsColumn,
  foldKeptCounts,
  keptCountsOf,
  pageWithKeptCounts,
  totalOf,
} from '../../db/kept-counts.ts';
import { countColumn, pageValues, totalOfPage } from '../../db/page-total.ts';
import { containsPattern } from '../../db/like.ts';
import { anyPageWindow, isFirstPage, preparedPages, type PageWindow } from '../../db/first-page.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { requests, retirements, retirementStatusCounts } from '../../db/schema.ts';
import { usersNamed } from '../requests/list-queries.ts';
import { newestFirst, recordColumns, selectRecords, type RetirementRecord } from './queries.ts';

export type RetirementFilter = {
  organizationId: string;
  /** Only this owner's retirements (staff mode); all of the organisation's otherwise. */
  ownerId?: string;
  status: StatusFilter;
  search?: string;
};

function filterConditions(filter: RetirementFilter, search?: SQL): SQL[] {
  const conditions: SQL[] = [eq(retirements.organization_id, filter.organizationId)];
  if (filter.ownerId) conditions.push(eq(retirements.retirement_owner_id, filter.ownerId));
  if (filter.status !== 'all') conditions.push(eq(retirements.status, filter.status));
  if (search) conditions.push(search);
  return conditions;
}

/**
 * What a search term matches in a retirement list, the requests' rule (docs/decisions/0006) applied
 * to the retirement's request: the start of an approval number; otherwise the purposes it names,
 * the owners whose name contains it, and approval numbers containing it.
 */
async function searchCondition(db: Executor, organizationId: string, term: string): Promise<SQL> {
  const prefix = approvalNumberSearchPrefix(term);
  if (prefix) return sql`${requests.approval_number} LIKE ${`${prefix}%`}`;
  const purposes = purposesMatching(term);
  const owners = await usersNamed(db, organizationId, term);
  const alternatives = [sql`lower(${requests.approval_number}) LIKE ${containsPattern(term)}`];
  if (purposes.length > 0) alternatives.push(inArray(requests.purpose, purposes));
  if (owners.length > 0) alternatives.push(inArray(retirements.retirement_owner_id, owners));
  return or(...alternatives) as SQL;
}

/**
 * How many retirements each organisation has by status, kept by the triggers of migration 0020
 * (db/kept-counts.ts): an admin list without a search reads its total from here.
 */
const organizationRetirementCounts = keptCountsOf({
  table: retirementStatusCounts,
  key: retirementStatusCounts.organization_id,
  status: retirementStatusCounts.status,
  count: retirementStatusCounts.retirements,
  name: 'organization_retirement_counts',
});

/** Merges an organisation's retirement_status_counts. */
export function foldRetirementStatusCounts(db: Executor, organizationId: string): Promise<void> {
  return foldKeptCounts(db, organizationRetirementCounts, organizationId);
}

/**
 * How many retirements a search matches, from the rows it matches (the request is read for the
 * search's conditions).
 */
async function countSearchMatches(db: Executor, where: SQL | undefined): Promise<number> {
  const [count] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(retirements)
    .innerJoin(requests, eq(requests.id, retirements.request_id))
    .where(where);
  return count?.total ?? 0;
}

/** The conditions of a list without a search, as placeholders: its organisation, owner, status. */
function listConditions(byOwner: boolean, byStatus: boolean) {
  return and(
    eq(retirements.organization_id, sql.placeholder('organizationId')),
    byOwner ? eq(retirements.retirement_owner_id, sql.placeholder('ownerId')) : undefined,
    byStatus ? eq(retirements.status, sql.placeholder('status')) : undefined,
  );
}

/**
 * A list's page without a search, built once per filter shape (issue 13), as the requests' list
 * pages are: Drizzle puts the SQL together a single time. Named (decision 0026) where one plan is
 * the best for every organisation and owner: an owner's few rows, read off the owner's indexes
 * (prepareOwnerPageWithTotal, below), and an organisation's newest first off
 * retirements_org_latest_idx. PostgreSQL plans an owner's page once per connection (planning it
 * cost more than running it: 0.49 against 0.31 ms, bench/results.md, 2026-12-02); an
 * organisation's first page once its size is in its text (db/first-page.ts). An organisation's
 * list in one status is unnamed ('' is PostgreSQL's unnamed statement): no index has the status
 * and the order, and one status has a few rows where another has tens of thousands, so no one
 * plan should stand for them all.
 */
function prepareOrganizationPage(byStatus: boolean) {
  const page = (db: Executor, window: PageWindow) =>
    db
      .select({
        ...recordColumns,
        // A first page carries the organisation's kept counts (docs/decisions/0045).
        kept_counts: firstPageKeptCountsColumn(
          organizationRetirementCounts,
          sql.placeholder('organizationId'),
          window,
        ),
      })
      .from(retirements)
      .innerJoin(requests, eq(requests.id, retirements.request_id))
      .where(listConditions(false, byStatus))
      .orderBy(...newestFirst)
      .limit(window.limit)
      .offset(window.offset);
  if (byStatus) {
    const unnamed = preparedOnce((db: Executor) => page(db, anyPageWindow).prepare(''));
    return (db: Executor, _page: { page: number; perPage: number }) => unnamed(db);
  }
  return preparedPages('organization_retirements_page', (db, window, name) =>
    page(db, window).prepare(name),
  );
}

/**
 * An owner's page with its total (docs/decisions/0042): each row carries the count of the owner's
 * matching retirements, as prepareOwnerCount counts them (db/page-total.ts); a page without rows
 * falls back to prepareOwnerCount. Named, so PostgreSQL plans it once per connection.
 */
function prepareOwnerPageWithTotal(byStatus: boolean) {
  const where = listConditions(true, byStatus);
  return preparedOnce((db: Executor) =>
    db
      .select({ ...recordColumns, page_total: countColumn(retirements, where) })
      .from(retirements)
      .innerJoin(requests, eq(requests.id, retirements.request_id))
      .where(where)
      .orderBy(...newestFirst)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(`owner_retirements_page${byStatus ? '_by_status' : ''}`),
  );
}

/**
 * How many retirements an owner has, in every status or in one: a staff list's total, from the
 * owner's few rows in retirements_owner_status_idx, named as the owner's page is. Without the
 * request: the join cannot change the count (request_id is a NOT NULL foreign key to the
 * requests' primary key, one request each).
 */
function prepareOwnerCount(byStatus: boolean) {
  return preparedOnce((db: Executor) =>
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(retirements)
      .where(listConditions(true, byStatus))
      .prepare(byStatus ? 'owner_retirement_count_by_status' : 'owner_retirement_count'),
  );
}

/** An organisation's pages and an owner's, [every status, one status]. */
const organizationPageQueries = [
  prepareOrganizationPage(false),
  prepareOrganizationPage(true),
] as const;
const ownerPageQueries = [
  prepareOwnerPageWithTotal(false),
  prepareOwnerPageWithTotal(true),
] as const;
const ownerCountQueries = [prepareOwnerCount(false), prepareOwnerCount(true)] as const;

/**
 * One page of retirements, newest first (retirements_org_latest_idx or
 * retirements_owner_latest_idx), and how many match: an admin list without a search counts from
 * the kept counts (the benchmark's 20,892 retirements of one organisation cost PostgreSQL 4-5 ms a
 * call to count), which its first page carries in every status (decision 0045), a staff list from
 * the owner's rows, a search from the rows it matches.
 */
export async function listRetirementPage(
  db: Executor,
  filter: RetirementFilter & { page: number; perPage: number },
): Promise<{ rows: RetirementRecord[]; total: number }> {
  if (filter.search) {
    const search = await searchCondition(db, filter.organizationId, filter.search);
    const where = and(...filterConditions(filter, search));
    const [rows, total] = await pipelined(db, [
      (on) =>
        selectRecords(on)
          .where(where)
          .orderBy(...newestFirst)
          .limit(filter.perPage)
          .offset((filter.page - 1) * filter.perPage),
      (on) => countSearchMatches(on, where),
    ]);
    return { rows, total };
  }
  const byStatus = filter.status === 'all' ? 0 : 1;
  const values = pageValues(filter);
  if (filter.ownerId) {
    const rows = await ownerPageQueries[byStatus](db).execute(values);
    const total = await totalOfPage(rows, async () => {
      const [count] = await ownerCountQueries[byStatus](db).execute(values);
      return count?.total ?? 0;
    });
    return { rows, total };
  }
  const { rows, counts } = await pageWithKeptCounts(
    db,
    organizationRetirementCounts,
    filter.organizationId,
    {
      // Only a named first page carries them: one status's page is unnamed (above).
      carriesCounts: !byStatus && isFirstPage(filter),
      rows: () => organizationPageQueries[byStatus](db, filter).execute(values),
    },
  );
  return { rows, total: totalOf(counts, filter.status) };
}
