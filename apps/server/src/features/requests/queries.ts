import type { ApprovalMatrixRow } from '@imprest/domain/approval-matrix.ts';
import type { ExchangeRates } from '@imprest/domain/exchange-rates.ts';
import { searchCountLimit } from '@imprest/domain/constants.ts';
import type { StatusFilter } from '@imprest/domain/enums.ts';
import {
  approvalNumberSearchPrefix,
  purposesMatching,
  reviewerHierarchy,
  searchNamesOnly,
} from '@imprest/domain/requests.ts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  lt,
  lte,
  ne,
  notInArray,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { equalsConstant, inConstants } from '../../db/constants.ts';
import { containsPattern } from '../../db/like.ts';
import { DrawnValue } from '../../db/drawn.ts';
import { anyPageWindow, isFirstPage, preparedPages, type PageWindow } from '../../db/first-page.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import { preparedOnce } from '../../db/prepared.ts';
import {
  approvalMatrixRows,
  budgets,
  exchangeRates,
  requests,
  retirements,
  users,
} from '../../db/schema.ts';
import { jsonObjectOf, rowFromJson, type JsonRow } from '../../db/json-rows.ts';
import { approvalMatrixFrom } from '../approval-matrix/queries.ts';
import { budgetWithRoomColumns, type BudgetRow, type BudgetWithRoom } from '../budgets/ledger.ts';
import { exchangeRatesFrom } from '../settings/queries.ts';
import { totalOf } from '../../db/kept-counts.ts';
import { pageValues } from '../../db/page-total.ts';
import {
  organizationRequestCountsColumn,
  organizationRequestPageWithCounts,
  ownerRequestCountsColumn,
  ownerRequestCountsOfPage,
  ownersRequestCountsColumn,
  ownersRequestCountsOfPage,
  reviewQueueCountsColumns,
  reviewQueuePageWithTotal,
} from './counts.ts';

export type RequestRow = typeof requests.$inferSelect;
export type RequestRecord = RequestRow & { budget_name: string };
export type NewRequest = typeof requests.$inferInsert;

export const recordColumns = { ...getTableColumns(requests), budget_name: budgets.name };

/**
 * Newest first, in the order of requests_org_latest_idx and requests_owner_latest_idx: they are
 * built `created_at DESC NULLS LAST`, and a plain `DESC` (NULLS FIRST) would not match them, so
 * PostgreSQL would sort every row of the organisation instead of reading the first page off the index.
 */
const newestFirst = [sql`${requests.created_at} desc nulls last`, desc(requests.id)];

/** A budget of an organisation by its code string, e.g. "6105". */
export async function findBudgetByCode(
  db: Executor,
  options: { organizationId: string; code: string },
): Promise<BudgetRow | undefined> {
  const [row] = await db
    .select()
    .from(budgets)
    .where(
      and(eq(budgets.organization_id, options.organizationId), eq(budgets.code, options.code)),
    );
  return row;
}

/** What a submission is checked and placed by, read before the budget is locked. */
export type SubmissionTerms = {
  /** The budget by its code, and whether it covers the amount as of this read. */
  budget: BudgetWithRoom;
  rates: ExchangeRates;
  matrix: ApprovalMatrixRow[];
};

const rateColumns = { currency: exchangeRates.currency, rate: exchangeRates.rate };
const matrixColumns = {
  start_value: approvalMatrixRows.start_value,
  end_value: approvalMatrixRows.end_value,
  description: approvalMatrixRows.description,
  user_role: approvalMatrixRows.user_role,
  cascading_notification: approvalMatrixRows.cascading_notification,
};

/**
 * The statement of findSubmissionTerms, prepared under a name (issue 13): the budget by code with
 * the organisation's exchange rates and approval matrix as JSON in the same row, one round trip
 * where there were three in every submission. Neither the rates nor the matrix is locked, so
 * reading them with the budget, before its lock, decides the same as reading them after it.
 */
const submissionTermsQuery = preparedOnce((db: Executor) =>
  db
    .select({
      ...budgetWithRoomColumns,
      ratesJson: sql<JsonRow[]>`(${db
        .select({ rows: sql`coalesce(json_agg(${jsonObjectOf(rateColumns)}), '[]'::json)` })
        .from(exchangeRates)
        .where(eq(exchangeRates.organization_id, budgets.organization_id))})`,
      matrixJson: sql<JsonRow[]>`(${db
        .select({
          rows: sql`coalesce(json_agg(${jsonObjectOf(matrixColumns)} ORDER BY ${approvalMatrixRows.start_value}), '[]'::json)`,
        })
        .from(approvalMatrixRows)
        .where(eq(approvalMatrixRows.organization_id, budgets.organization_id))})`,
    })
    .from(budgets)
    .where(
      and(
        eq(budgets.organization_id, sql.placeholder('organizationId')),
        eq(budgets.code, sql.placeholder('code')),
      ),
    )
    .prepare('submission_terms'),
);

/**
 * A budget of an organisation by its code, whether it covers `amount` (decided in SQL numeric,
 * docs/decisions/0013), and the organisation's exchange rates and approval matrix; undefined when
 * the organisation has no such budget.
 */
export async function findSubmissionTerms(
  db: Executor,
  options: { organizationId: string; code: string; amount: number },
): Promise<SubmissionTerms | undefined> {
  const [row] = await submissionTermsQuery(db).execute({
    ...options,
    amount: options.amount.toFixed(2),
  });
  if (!row) return undefined;
  const { ratesJson, matrixJson, ...budget } = row;
  return {
    budget,
    rates: exchangeRatesFrom(
      ratesJson.map((json) => rowFromJson<{ currency: string; rate: string }>(rateColumns, json)),
    ),
    matrix: approvalMatrixFrom(
      matrixJson.map((json) =>
        rowFromJson<Parameters<typeof approvalMatrixFrom>[0][number]>(matrixColumns, json),
      ),
    ),
  };
}

/**
 * Locks a request row of an organisation for the rest of the transaction: reviews and
 * resubmissions of one request are serialised on it.
 */
export async function lockRequest(
  tx: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestRow | undefined> {
  const [row] = await lockRequestQuery(tx).execute(options);
  return row;
}

/**
 * The statements of lockRequest and updateRequestStatus, prepared under names (issue 13): every
 * answer to a review sends both, and PostgreSQL planned each afresh on every call (decision 0026).
 */
const lockRequestQuery = preparedOnce((db: Executor) =>
  db
    .select()
    .from(requests)
    .where(
      and(
        eq(requests.id, sql.placeholder('id')),
        eq(requests.organization_id, sql.placeholder('organizationId')),
      ),
    )
    .for('update')
    .prepare('lock_request'),
);

const insertRequestRow = preparedInsert<NewRequest>(requests, 'insert_request');

/** Writes a new request row; its callers know every value, so nothing is read back. */
export async function insertRequest(db: Executor, values: NewRequest): Promise<void> {
  await insertRequestRow(db, [values]);
}

/** Marks a version as superseded, so it no longer counts in lists and budgets. */
export async function markSuperseded(db: Executor, id: string): Promise<void> {
  await db
    .update(requests)
    .set({ is_latest: false, modified_at: sql`now()` })
    .where(eq(requests.id, id));
}

/**
 * Sets a request's status and next reviewer role (and approval number once approved), and adds
 * who answered to answered_by.
 */
export async function updateRequestStatus(
  db: Executor,
  options: {
    id: string;
    status: string;
    nextReviewerRole: string | null;
    /** The number issued now, one drawn earlier in the transaction, or none (the row's stays). */
    approvalNumber: string | DrawnValue | null;
    /** Who answered the steps that moved it: added to answered_by (migration 0017). */
    answeredBy: readonly string[];
  },
): Promise<void> {
  const { approvalNumber } = options;
  const drawn = approvalNumber instanceof DrawnValue;
  await (drawn ? drawnStatusUpdate(approvalNumber) : statusUpdate)(db).execute({
    id: options.id,
    status: options.status,
    nextReviewerRole: options.nextReviewerRole,
    answeredBy: options.answeredBy,
    ...(drawn ? {} : { approvalNumber }),
  });
}

/** The UPDATE of a request's status, whose approval number is `approvalNumber`, prepared as `name`. */
const statusUpdateWith = (approvalNumber: SQL, name: string) =>
  preparedOnce((db: Executor) =>
    db
      .update(requests)
      .set({
        current_status: sql`${sql.placeholder('status')}`,
        next_reviewer_role: sql`${sql.placeholder('nextReviewerRole')}`,
        answered_by: sql`${requests.answered_by} || ${sql.placeholder('answeredBy')}::uuid[]`,
        approval_number: approvalNumber,
        modified_at: sql`now()`,
      })
      .where(eq(requests.id, sql.placeholder('id')))
      .prepare(name),
  );

// An approval number, once drawn, stays.
const statusUpdate = statusUpdateWith(
  sql`coalesce(${sql.placeholder('approvalNumber')}, ${requests.approval_number})`,
  'request_status',
);

/** The status UPDATE that writes the number drawn earlier in its transaction (one drawn value). */
const drawnStatusUpdates = new Map<DrawnValue, ReturnType<typeof statusUpdateWith>>();
function drawnStatusUpdate(number: DrawnValue): ReturnType<typeof statusUpdateWith> {
  let update = drawnStatusUpdates.get(number);
  if (!update) {
    update = statusUpdateWith(number.value, `request_status_drawn_${drawnStatusUpdates.size}`);
    drawnStatusUpdates.set(number, update);
  }
  return update;
}

/** The owner's requests, as a subquery of one request's view reads them. */
const owned = alias(requests, 'owned');

/**
 * The owner's approved newest versions whose retirement is not approved yet (none attached, or one
 * still pending, under review or rejected), summed in tzs: a scalar subquery correlated with the
 * enclosing request's owner columns (the request view, requests/view.ts). A retirement's owner is
 * its request's, so the owner's approved retirements are read once (retirements_owner_approved_idx,
 * migration 0027) and their requests left out by a hash, instead of a probe for each approved
 * request (`request_id` is never null, so NOT IN means NOT EXISTS here).
 */
export function ownerUnretiredTotalQuery(
  db: Executor,
  owner: { organizationId: AnyPgColumn; ownerId: AnyPgColumn },
) {
  return db
    .select({ total: sql<string>`coalesce(sum(${owned.amount_base}), 0)` })
    .from(owned)
    .where(
      and(
        eq(owned.request_owner_id, owner.ownerId),
        eq(owned.organization_id, owner.organizationId),
        // Constants in the text, so the request view's named statement is planned once
        // (db/constants.ts).
        sql`${owned.is_latest}`,
        equalsConstant(owned.current_status, 'approved'),
        notInArray(
          owned.id,
          db
            .select({ id: retirements.request_id })
            .from(retirements)
            .where(
              and(
                eq(retirements.retirement_owner_id, owner.ownerId),
                eq(retirements.organization_id, owner.organizationId),
                equalsConstant(retirements.status, 'approved'),
              ),
            ),
        ),
      ),
    );
}

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

/** A role a delegate answers for one delegator (issue 15): not on that delegator's own requests. */
export type PendingGrant = { role: string; delegatorId: string };

/**
 * Newest versions awaiting review whose first pending step is the caller's role, and, for a
 * delegate, those whose step is the role of one of their active delegators, except that
 * delegator's own; never the caller's own, nor one with a step the caller already answered (one
 * person answers one step, so a director who answered the secretary's step as a delegate does not
 * see the director's step of that request; issue 15, docs/decisions/0019). Oldest first.
 * next_reviewer_role is set only while a request awaits review, so requests_next_reviewer_idx
 * serves the filter and the order; requests.answered_by (migration 0017) the answered check. The
 * total of a caller who holds no delegation is kept by triggers (migration 0025): the role's queue
 * less the requests the caller owns or answered, carried by a first page; a delegate's is counted.
 */
export async function listPendingForRole(
  db: Executor,
  options: {
    organizationId: string;
    role: string;
    /** The caller: never their own requests. */
    excludeOwnerId: string;
    grants?: readonly PendingGrant[];
    page: number;
    perPage: number;
  },
): Promise<{ rows: RequestRecord[]; total: number }> {
  const callerId = options.excludeOwnerId;
  const grants = options.grants ?? [];
  if (grants.length === 0) {
    const values = {
      organizationId: options.organizationId,
      role: options.role,
      callerId,
      limit: options.perPage,
      offset: (options.page - 1) * options.perPage,
    };
    const page = (pendingPageOfRole.get(options.role) ?? pendingPageQuery)(db, options);
    return reviewQueuePageWithTotal(
      db,
      { organizationId: options.organizationId, role: options.role, callerId },
      { carriesCounts: isFirstPage(options), rows: () => page.execute(values) },
    );
  }
  const ownRole = eq(requests.next_reviewer_role, options.role);
  const waitingFor = or(
    ownRole,
    ...grants.map((grant) =>
      and(
        eq(requests.next_reviewer_role, grant.role),
        ne(requests.request_owner_id, grant.delegatorId),
      ),
    ),
  );
  const where = pendingWhere(options.organizationId, waitingFor, callerId);
  const [rows, total] = await pipelined(db, [
    (on) =>
      pendingPage(on, where, {
        limit: options.perPage,
        offset: (options.page - 1) * options.perPage,
      }),
    (on) => on.$count(requests, where),
  ]);
  return { rows, total };
}

/** Newest versions waiting for review in `waitingFor`'s steps, never the caller's own or answered. */
function pendingWhere(
  organizationId: string | Placeholder,
  waitingFor: SQL | undefined,
  callerId: string | Placeholder,
) {
  return and(
    eq(requests.organization_id, organizationId),
    // Constants in the text, so the named queue's generic plan knows them (db/constants.ts).
    sql`${requests.is_latest}`,
    waitingFor,
    inConstants(requests.current_status, ['pending', 'on_progress']),
    ne(requests.request_owner_id, callerId),
    sql`NOT ${requests.answered_by} @> ARRAY[${callerId}]::uuid[]`,
  );
}

function pendingPage<Extra extends Record<string, SQL.Aliased | SQL>>(
  db: Executor,
  where: SQL | undefined,
  window: PageWindow,
  extra?: Extra,
) {
  return db
    .select({ ...recordColumns, ...(extra as Extra) })
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(where)
    .orderBy(asc(requests.created_at), asc(requests.id))
    .limit(window.limit)
    .offset(window.offset);
}

/**
 * The pending list of a caller who holds no delegation (nearly every one), built once (issue 13).
 * Named (decision 0026): the page reads requests_next_reviewer_idx, whose key is the organisation,
 * the role and the page's order and whose INCLUDE columns are the other conditions, the best plan
 * whether a role waits on a few requests or on thousands; PostgreSQL plans it once only with its
 * size and role in its text (pendingPageOfRole, below). Its total is kept (migration 0025,
 * docs/decisions/0047): a first page carries the role's and the caller's kept counts, as an
 * organisation's first page does (decision 0045); a later page reads them beside it. Counting the
 * queue instead read thousands of the index's entries a call.
 */
const pendingOwnWhere = pendingWhere(
  sql.placeholder('organizationId'),
  eq(requests.next_reviewer_role, sql.placeholder('role')),
  sql.placeholder('callerId'),
);
const pendingPageQuery = preparedPages('pending_requests_page', (db, window, name) =>
  pendingPage(db, pendingOwnWhere, window, reviewQueueCountsColumns(window)).prepare(name),
);

/**
 * A reviewer role's queue page, the role in its text (db/constants.ts): most requests wait for no
 * one, so PostgreSQL, not knowing the role, expects a few dozen of an organisation's to wait for
 * it, and costs the generic plan's LIMIT at a third of their walk, not the few rows it reads; it
 * kept planning each call even with the page's size in the text (0.39 ms a call, more than the page
 * ran; bench/results.md, 2026-12-02, fifth session). Knowing the role, it expects the thousands
 * there are and keeps the one plan, the same walk of requests_next_reviewer_idx.
 */
const pendingPageOfRole = new Map(
  reviewerHierarchy.map((role) => [
    role as string,
    preparedPages(`pending_requests_page_${role}`, (db, window, name) =>
      pendingPage(
        db,
        pendingWhere(
          sql.placeholder('organizationId'),
          equalsConstant(requests.next_reviewer_role, role),
          sql.placeholder('callerId'),
        ),
        window,
        reviewQueueCountsColumns(window),
      ).prepare(name),
    ),
  ]),
);

/**
 * Rows after a keyset position in newest-first order (created_at, then id, both descending): the
 * next batch of a download. The position is created_at as PostgreSQL prints it, to the
 * microsecond: a Date keeps only milliseconds, and rows of the boundary row's millisecond that
 * are older than it would be skipped. `created_at <= position` comes first, on its own, so the
 * created_at index starts the scan at the position: written as `created_at < position or
 * (created_at = position and id < …)` alone, every batch read the rows of all the batches
 * before it again (bench:download, 100,000 rows: 10–12 s, now 3 s).
 */
export function olderThan(
  table: { created_at: PgColumn; id: PgColumn },
  after: { position: string; id: string },
): SQL {
  const position = sql`${after.position}::timestamptz`;
  return and(
    lte(table.created_at, position),
    or(lt(table.created_at, position), lt(table.id, after.id)),
  ) as SQL;
}

/** A row's created_at to the microsecond, to continue a download's batches from (olderThan). */
export function keysetPosition(table: { created_at: PgColumn }) {
  return sql<string>`${table.created_at}::text`;
}

/** Which rows a download's next batch reads: an organisation's, or one owner's, after a keyset position. */
export type BatchOptions = {
  organizationId: string;
  ownerId?: string;
  /** Only the requests on this budget (a budget's download). */
  budgetId?: string;
  after?: { position: string; id: string };
  limit: number;
};

/**
 * The columns of the requests spreadsheet and its keyset, and no others: a download reads every
 * newest version of an organisation, and each column more is a value parsed and mapped per row
 * (issue 13: reading every column made a 100,000-row download allocate about 460 MB).
 */
const sheetColumns = {
  id: requests.id,
  position: keysetPosition(requests),
  request_owner_name: requests.request_owner_name,
  department: requests.department,
  purpose: requests.purpose,
  name_of_establishment: requests.name_of_establishment,
  expenditure_date: requests.expenditure_date,
  amount_requested: requests.amount_requested,
  amount_currency: requests.amount_currency,
  amount_base: requests.amount_base,
  budget_code: requests.budget_code,
  payment_mode: requests.payment_mode,
  current_status: requests.current_status,
  approval_number: requests.approval_number,
  expenditure_justification: requests.expenditure_justification,
  created_at: requests.created_at,
};
export type RequestSheetRow = Awaited<ReturnType<typeof requestBatch>>[number];

/** The next batch of newest versions for a download, newest first, after a keyset position. */
export async function requestBatch(db: Executor, options: BatchOptions) {
  const conditions: SQL[] = [
    eq(requests.organization_id, options.organizationId),
    eq(requests.is_latest, true),
  ];
  if (options.ownerId) conditions.push(eq(requests.request_owner_id, options.ownerId));
  if (options.budgetId) conditions.push(eq(requests.budget_id, options.budgetId));
  if (options.after) conditions.push(olderThan(requests, options.after));
  return db
    .select(sheetColumns)
    .from(requests)
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(options.limit);
}
