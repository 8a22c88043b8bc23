/**
 * The request lists (spec §2 Requests list, Home's recent requests): an organisation's or one
 * owner's newest versions a page at a time, filtered by status, searched by name, purpose or
 * approval number, each first page carrying its total.
 */
import { searchCountLimit } from '@imprest/domain/constants.ts';
import type { StatusFilter } from '@imprest/domain/enums.ts';
import {
  approvalNumberSearchPrefix,
  purposesMatching,
  searchNamesOnly,
} from '@imprest/domain/requests.ts';
import { and, count, desc, eq, inArray, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern } from '../../db/like.ts';
import { anyPageWindow, isFirstPage, preparedPages, type PageWindow } from '../../db/first-page.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { budgets, requests, users } from '../../db/schema.ts';
import { totalOf } from '../../db/kept-counts.ts';
import { pageValues } from '../../db/page-total.ts';
import {
  organizationRequestCountsColumn,
  organizationRequestPageWithCounts,
  ownerRequestCountsColumn,
  ownerRequestCountsOfPage,
  ownersRequestCountsColumn,
  ownersRequestCountsOfPage,
} from './counts.ts';
import { newestFirst, recordColumns, type RequestRecord } from './queries.ts';

/** Approval numbers, lower-cased: the expression of requests_search_idx. */
const approvalNumberText = sql`lower(${requests.approval_number})`;

export type RequestFilter = {
  organizationId: string;
  /** Only this owner's requests (staff mode); all of the organisation's otherwise. */
  ownerId?: string;
  search?: string;
  status: StatusFilter;
};

/**
 * The ids of an organisation's users whose name contains a term, without case: read off the
 * name's trigrams (users_name_idx, migration 0026), deleted users too (their requests stay listed).
 */
export async function usersNamed(
  db: Executor,
  organizationId: string,
  term: string,
): Promise<string[]> {
  const rows = await usersNamedStatement(db).execute({
    organizationId,
    pattern: containsPattern(term),
  });
  return rows.map((row) => row.id);
}

function usersNamedQuery(
  db: Executor,
  organizationId: string | Placeholder,
  pattern: string | Placeholder,
) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.organization_id, organizationId), sql`lower(${users.fullname}) LIKE ${pattern}`),
    );
}

/**
 * usersNamed's statement, built once and prepared under a name: its plan, the trigrams of
 * users_name_idx, is the same whatever the term, so PostgreSQL plans it once per connection.
 */
const usersNamedStatement = preparedOnce((db: Executor) =>
  usersNamedQuery(db, sql.placeholder('organizationId'), sql.placeholder('pattern')).prepare(
    'users_named',
  ),
);

/**
 * What a search term matches (docs/decisions/0006): the start of an approval number
 * (requests_approval_number_prefix_idx); otherwise requests of the purposes it names
 * (requests_org_purpose_idx), of the users whose name contains it (requests_owner_latest_idx), and
 * approval numbers containing it (the trigrams of requests_search_idx). `plannerSettings`
 * (set_config calls, for the transaction's later statements) is sent with the look-up, one round
 * trip fewer (issue 13), or alone when the owners named were looked up before (`namedOwners`).
 */
async function searchCondition(
  tx: Executor,
  filter: RequestFilter,
  term: string,
  plannerSettings: SQL,
  namedOwners: readonly string[] | undefined,
): Promise<SQL> {
  const prefix = approvalNumberSearchPrefix(term);
  if (prefix) {
    await tx.execute(sql`SELECT ${plannerSettings}`);
    return sql`${requests.approval_number} LIKE ${`${prefix}%`}`;
  }
  const purposes = purposesMatching(term);
  let owners = namedOwners;
  if (owners) {
    await tx.execute(sql`SELECT ${plannerSettings}`);
  } else {
    // A setting made in a statement does not change that statement's own plan: the look-up is
    // planned as it would be alone.
    const named = usersNamedQuery(tx, filter.organizationId, containsPattern(term));
    const result = await tx.execute<{ owners: string[] }>(
      sql`SELECT ${plannerSettings}, ARRAY(${named}) AS owners`,
    );
    owners = result.rows[0]?.owners ?? [];
  }
  const alternatives = [sql`${approvalNumberText} LIKE ${containsPattern(term)}`];
  if (purposes.length > 0) alternatives.push(inArray(requests.purpose, purposes));
  if (owners.length > 0) alternatives.push(inArray(requests.request_owner_id, owners));
  return or(...alternatives) as SQL;
}

function filterConditions(filter: RequestFilter, search?: SQL): SQL[] {
  const conditions: SQL[] = [
    eq(requests.organization_id, filter.organizationId),
    eq(requests.is_latest, true),
  ];
  if (filter.ownerId) conditions.push(eq(requests.request_owner_id, filter.ownerId));
  if (filter.status !== 'all') conditions.push(eq(requests.current_status, filter.status));
  if (search) conditions.push(search);
  return conditions;
}

export type RequestTotal = { total: number; capped: boolean };
type PageFilter = RequestFilter & { page: number; perPage: number };

function pageOfRequests(db: Executor, where: SQL | undefined, filter: PageFilter) {
  return db
    .select(recordColumns)
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(where)
    .orderBy(...newestFirst)
    .limit(filter.perPage)
    .offset((filter.page - 1) * filter.perPage);
}

/**
 * A list's page without a search, built once per filter shape (issue 13): Drizzle then puts its
 * SQL together a single time. Named (decision 0026), so each connection has it parsed once and
 * its rows described once. Every shape has an index in the page's order (requests_org_latest_idx,
 * requests_org_status_idx, requests_owner_latest_idx), so a plan made without the values is the
 * plans made with them; PostgreSQL keeps it where it looks no dearer: an owner's page, whose
 * planning cost more than its run (bench/results.md, 2026-12-02). An organisation's page only once
 * its size is in its text (its first page, db/first-page.ts): not knowing the LIMIT, PostgreSQL
 * costs the generic plan for a tenth of the organisation's rows. `is_latest` is in the text, the
 * partial indexes' condition (db/constants.ts).
 */
function listPage<Extra extends Record<string, SQL>>(
  db: Executor,
  filter: { byOwner: boolean; byStatus: boolean; extra: Extra },
  window: PageWindow,
) {
  const { byOwner, byStatus, extra } = filter;
  return db
    .select({ ...recordColumns, ...extra })
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(
      and(
        eq(requests.organization_id, sql.placeholder('organizationId')),
        sql`${requests.is_latest}`,
        byOwner ? eq(requests.request_owner_id, sql.placeholder('ownerId')) : undefined,
        byStatus ? eq(requests.current_status, sql.placeholder('status')) : undefined,
      ),
    )
    .orderBy(...newestFirst)
    .limit(window.limit)
    .offset(window.offset);
}

function listPageName(byOwner: boolean, byStatus: boolean) {
  return `${byOwner ? 'owner' : 'organization'}_requests_page${byStatus ? '_by_status' : ''}`;
}

/**
 * An organisation's page: its first page of each size the web asks for with that size in its
 * text, so PostgreSQL plans it once per connection too (db/first-page.ts), and then carries the
 * organisation's kept counts as an owner's page does (docs/decisions/0045); a later page, planned
 * for its values each call, carries none and its counts are read beside it.
 */
function prepareOrganizationPage(byStatus: boolean) {
  return preparedPages(listPageName(false, byStatus), (db, window, name) =>
    listPage(
      db,
      {
        byOwner: false,
        byStatus,
        extra: { kept_counts: organizationRequestCountsColumn(window) },
      },
      window,
    ).prepare(name),
  );
}

/** An owner's page: its generic plan is the owner's index walk, kept at any LIMIT. */
function prepareOwnerPage<Extra extends Record<string, SQL>>(byStatus: boolean, extra: Extra) {
  return preparedOnce((db: Executor) =>
    listPage(db, { byOwner: true, byStatus, extra }, anyPageWindow).prepare(
      listPageName(true, byStatus),
    ),
  );
}

/** An organisation's pages, [every status, one status]. */
const organizationPageQueries = [
  prepareOrganizationPage(false),
  prepareOrganizationPage(true),
] as const;

/**
 * An owner's pages, [every status, one status], each carrying the owner's kept counts
 * (docs/decisions/0042): planned once per connection, they gain a round trip and plan nothing
 * more. An organisation's pages carry its counts only on a first page, the page planned once
 * (decision 0045).
 */
const ownerPageQueries = [
  prepareOwnerPage(false, { kept_counts: ownerRequestCountsColumn() }),
  prepareOwnerPage(true, { kept_counts: ownerRequestCountsColumn() }),
] as const;

/**
 * One page of the newest versions, newest first, and how many there are: the total is read from
 * the kept counts (counts.ts), the owner's in the page's own statement, the organisation's in its
 * first page's and beside a later page. The conditions and order match the partial indexes
 * requests_org_latest_idx and requests_owner_latest_idx.
 */
export async function listRequestPage(
  db: Executor,
  filter: PageFilter,
): Promise<{ rows: RequestRecord[] } & RequestTotal> {
  if (filter.search) return searchRequestPage(db, { ...filter, search: filter.search });
  const byStatus = filter.status === 'all' ? 0 : 1;
  const values = pageValues(filter);
  if (filter.ownerId) {
    const rows = await ownerPageQueries[byStatus](db).execute(values);
    const counts = await ownerRequestCountsOfPage(db, filter.ownerId, rows[0]?.kept_counts);
    return { rows, total: totalOf(counts, filter.status), capped: false };
  }
  const { rows, counts } = await organizationRequestPageWithCounts(db, filter.organizationId, {
    carriesCounts: isFirstPage(filter),
    rows: () => organizationPageQueries[byStatus](db, filter).execute(values),
  });
  return { rows, total: totalOf(counts, filter.status), capped: false };
}

/**
 * A search's page and its total (docs/decisions/0006). A term that can only name people
 * (searchNamesOnly), naming few enough of them, reads their pages merged (namedOwnersPage);
 * naming nobody, it matches nothing; any other term reads its matches (searchMatches).
 */
async function searchRequestPage(
  db: Executor,
  filter: PageFilter & { search: string },
): Promise<{ rows: RequestRecord[] } & RequestTotal> {
  if (!searchNamesOnly(filter.search)) return searchMatches(db, filter);
  const named = await usersNamed(db, filter.organizationId, filter.search);
  const owners = filter.ownerId ? named.filter((id) => id === filter.ownerId) : named;
  if (owners.length === 0) return { rows: [], total: 0, capped: false };
  // The merged pages read up to owners × (the page's end) rows; the matches, up to the limit + 1.
  if (owners.length * filter.page * filter.perPage > searchCountLimit + 1) {
    return searchMatches(db, filter, owners);
  }
  return namedOwnersPage(db, filter, owners);
}

/**
 * A search, in two steps (docs/decisions/0006). First up to searchCountLimit + 1 matches, read
 * off the search indexes. Up to the limit they are all the matches: the total is exact, and the
 * page is cut from them and read by id. Past it the term is common, the total says `capped`, and
 * the page is read newest first off requests_org_latest_idx (or the owner's index), testing each
 * row: a common term fills a page after a few rows.
 *
 * The matches, their count and the page cut from them are one statement (issue 13): the matches
 * stay in PostgreSQL (a CTE read twice, so computed once) and only the page's rows come back,
 * each carrying the count. An empty first page means no match; an empty later page (past the
 * last) counts the matches alone.
 *
 * `owners`: the users the term names, when they have been looked up already.
 */
async function searchMatches(
  db: Executor,
  filter: PageFilter & { search: string },
  owners?: readonly string[],
): Promise<{ rows: RequestRecord[] } & RequestTotal> {
  // Planner settings for this transaction's statements only (set_config(…, true) lasts to its end).
  const plannerSettings = (settings: string[]) =>
    sql.join(
      settings.map((setting) => sql`set_config(${setting}, 'off', true)`),
      sql`, `,
    );
  return db.transaction(async (tx) => {
    // With a term this common a sequential scan would find 1,001 matches soonest, if they happen
    // to lie near the start of the table; the indexes find them whatever the order.
    const search = await searchCondition(
      tx,
      filter,
      filter.search,
      plannerSettings(['enable_seqscan']),
      owners,
    );
    const where = and(...filterConditions(filter, search));
    const matches = tx.$with('matches').as(firstMatches(tx, where));
    const pageIds = tx.$with('page_ids').as(
      tx
        .select({ id: matches.id })
        .from(matches)
        .orderBy(sql`${matches.created_at} desc nulls last`, desc(matches.id))
        .limit(filter.perPage)
        .offset((filter.page - 1) * filter.perPage),
    );
    const rows = await tx
      .with(matches, pageIds)
      .select({
        ...recordColumns,
        match_count: sql<number>`(SELECT count(*) FROM ${matches})`.mapWith(Number),
      })
      .from(requests)
      .innerJoin(budgets, eq(budgets.id, requests.budget_id))
      .where(inArray(requests.id, tx.select({ id: pageIds.id }).from(pageIds)))
      .orderBy(...newestFirst);
    const total = rows[0]?.match_count ?? (filter.page === 1 ? 0 : await countMatches(tx, where));
    if (total > searchCountLimit) {
      // PostgreSQL would read every match off the search indexes and sort them; with bitmap scans
      // and sorts off it walks the newest-first index instead, testing each row, and a term this
      // common fills a page within a few dozen rows.
      await tx.execute(sql`SELECT ${plannerSettings(['enable_bitmapscan', 'enable_sort'])}`);
      const page = await pageOfRequests(tx, where, filter);
      return { rows: page, total: searchCountLimit, capped: true };
    }
    return { rows, total, capped: false };
  });
}

/**
 * A name search's page when the term can only name people (searchNamesOnly) and names few enough
 * of them: each owner's newest requests read as their own list reads them
 * (requests_owner_latest_idx, newest first, down to the page's end), merged, and cut to the page;
 * the total from the owners' kept counts (migration 0016), carried by the page's rows. It reads
 * at most owners × the page's end rows, where the matches are every request of the owners, each
 * read to be counted and ordered (bench/results.md, 2026-12-07). [every status, one status],
 * each planned once per connection.
 */
function prepareNamedOwnersPage(byStatus: boolean) {
  return preparedOnce((db: Executor) => {
    const owners = sql`${sql.placeholder('owners')}::uuid[]`;
    const ownerPage = sql`
      SELECT ${requests.id} AS id, ${requests.created_at} AS created_at
      FROM ${requests}
      WHERE ${requests.request_owner_id} = named.owner_id
        AND ${requests.organization_id} = ${sql.placeholder('organizationId')}
        AND ${requests.is_latest}
        ${byStatus ? sql`AND ${requests.current_status} = ${sql.placeholder('status')}` : sql``}
      ORDER BY ${sql.join(newestFirst, sql`, `)}
      LIMIT ${sql.placeholder('reach')}`;
    const pageIds = sql`
      SELECT merged.id
      FROM unnest(${owners}) AS named(owner_id) CROSS JOIN LATERAL (${ownerPage}) AS merged
      ORDER BY merged.created_at DESC NULLS LAST, merged.id DESC
      LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')}`;
    return db
      .select({ ...recordColumns, kept_counts: ownersRequestCountsColumn(owners) })
      .from(requests)
      .innerJoin(budgets, eq(budgets.id, requests.budget_id))
      .where(sql`${requests.id} IN (${pageIds})`)
      .orderBy(...newestFirst)
      .prepare(byStatus ? 'named_owners_page_by_status' : 'named_owners_page');
  });
}
const namedOwnersPageQueries = [
  prepareNamedOwnersPage(false),
  prepareNamedOwnersPage(true),
] as const;

async function namedOwnersPage(
  db: Executor,
  filter: PageFilter,
  owners: readonly string[],
): Promise<{ rows: RequestRecord[] } & RequestTotal> {
  const values = pageValues(filter);
  const rows = await namedOwnersPageQueries[filter.status === 'all' ? 0 : 1](db).execute({
    ...values,
    owners: [...owners],
    reach: values.offset + values.limit,
  });
  const counts = await ownersRequestCountsOfPage(db, owners, rows[0]?.kept_counts);
  const total = totalOf(counts, filter.status);
  if (total > searchCountLimit) return { rows, total: searchCountLimit, capped: true };
  return { rows, total, capped: false };
}

/** Up to searchCountLimit + 1 requests that match, in no order: all of them up to the limit. */
function firstMatches(tx: Executor, where: SQL | undefined) {
  return tx
    .select({ id: requests.id, created_at: requests.created_at })
    .from(requests)
    .where(where)
    .limit(searchCountLimit + 1);
}

/** How many requests match, up to searchCountLimit + 1: the total of a page past the last. */
async function countMatches(tx: Executor, where: SQL | undefined): Promise<number> {
  const [row] = await tx.select({ total: count() }).from(firstMatches(tx, where).as('matches'));
  return row?.total ?? 0;
}
