import type { StatusFilter } from '@imprest/domain/enums.ts';
import {
  approvalNumberSearchPrefix,
  purposesMatching,
  type ReviewerRole,
} from '@imprest/domain/requests.ts';
import { outstandingRetirementStatuses } from '@imprest/domain/retirements.ts';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  inArray,
  ne,
  or,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { equalsConstant, inConstants } from '../../db/constants.ts';
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
import { preparedInsert } from '../../db/prepared-insert.ts';
import { preparedOnce } from '../../db/prepared.ts';
import {
  requests,
  retirementReviews,
  retirements,
  retirementStatusCounts,
} from '../../db/schema.ts';
import { usersNamed } from '../requests/list-queries.ts';
import { keysetPosition, olderThan, type BatchOptions } from '../requests/queries.ts';

export type RetirementRow = typeof retirements.$inferSelect;
export type NewRetirement = typeof retirements.$inferInsert;
export type RetirementReviewRow = typeof retirementReviews.$inferSelect;

/** A retirement with what its request says of it: the owner's name, purpose, approval number, budget. */
export type RetirementRecord = RetirementRow & {
  name: string;
  purpose: string;
  approval_number: string | null;
  budget_code: string;
};

const recordColumns = {
  ...getTableColumns(retirements),
  name: requests.request_owner_name,
  purpose: requests.purpose,
  approval_number: requests.approval_number,
  budget_code: requests.budget_code,
};

/**
 * Newest first, in the order of retirements_org_latest_idx and retirements_owner_latest_idx (built
 * `created_at DESC NULLS LAST`; a plain DESC would not match them).
 */
const newestFirst = [sql`${retirements.created_at} desc nulls last`, desc(retirements.id)];

const insertRetirementRow = preparedInsert<NewRetirement, RetirementRow>(
  retirements,
  'insert_retirement',
  (insert) => insert.returning(),
);

export async function insertRetirement(
  db: Executor,
  values: NewRetirement,
): Promise<RetirementRow> {
  const [row] = await insertRetirementRow(db, [values]);
  if (!row) throw new Error('retirement insert returned nothing');
  return row;
}

/** Retirements with their request's fields (recordColumns). */
function selectRecords(db: Executor) {
  return db
    .select(recordColumns)
    .from(retirements)
    .innerJoin(requests, eq(requests.id, retirements.request_id));
}

async function findRecord(db: Executor, where: SQL | undefined) {
  const [row] = await selectRecords(db).where(where);
  return row;
}

/** One retirement of an organisation, with its request's fields. */
export async function findRetirement(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RetirementRecord | undefined> {
  const [row] = await retirementRecordQuery(db).execute(options);
  return row;
}

/** An organisation's retirement by id, in the statement's text (its values are placeholders). */
const retirementById = and(
  eq(retirements.id, sql.placeholder('id')),
  eq(retirements.organization_id, sql.placeholder('organizationId')),
);

/**
 * The statements of findRetirement, lockRetirement and findRetirementReviews, prepared under names
 * (issue 13): every submission and review of a retirement sends them, and PostgreSQL planned each
 * afresh on every call (decision 0026).
 */
const retirementRecordQuery = preparedOnce((db: Executor) =>
  selectRecords(db).where(retirementById).prepare('retirement_record'),
);

const lockRetirementQuery = preparedOnce((db: Executor) =>
  db.select().from(retirements).where(retirementById).for('update').prepare('lock_retirement'),
);

const retirementReviewsQuery = preparedOnce((db: Executor) =>
  db
    .select()
    .from(retirementReviews)
    .where(eq(retirementReviews.retirement_id, sql.placeholder('retirementId')))
    .orderBy(asc(retirementReviews.round), asc(retirementReviews.step))
    .prepare('retirement_reviews_of'),
);

/** The retirement of a request, if it has one (at most one: retirements_request_key). */
export async function findRetirementOfRequest(
  db: Executor,
  options: { organizationId: string; requestId: string },
): Promise<RetirementRecord | undefined> {
  return findRecord(
    db,
    and(
      eq(retirements.request_id, options.requestId),
      eq(retirements.organization_id, options.organizationId),
    ),
  );
}

/**
 * Locks a retirement row of an organisation for the rest of the transaction: submissions, reviews
 * and requests to resubmit one retirement are serialised on it (and the ledger trigger takes the
 * budget row after it, never before).
 */
export async function lockRetirement(
  tx: Executor,
  options: { organizationId: string; id: string },
): Promise<RetirementRow | undefined> {
  const [row] = await lockRetirementQuery(tx).execute(options);
  return row;
}

/**
 * A retirement's new submission: its figures and files, a new round under review from its first
 * step (`nextReviewerRole`), and who answered the previous round forgotten (decision 0019). Cash
 * Returned marked in a rejected round spoke of that round's amount, so it is cleared too.
 */
export async function submitRetirementRound(
  db: Executor,
  options: {
    id: string;
    amountSpent: string;
    comments: string;
    filePaths: readonly string[];
    round: number;
    nextReviewerRole: string;
  },
): Promise<void> {
  await submitRetirementRoundQuery(db).execute(options);
}

/**
 * The three UPDATEs of a retirement are prepared under names (issue 13): built by Drizzle on every
 * call, they were the last statements of the writes still put together each time
 * (bench/results.md, 2026-12-02, fifth session).
 */
const submitRetirementRoundQuery = preparedOnce((db: Executor) =>
  db
    .update(retirements)
    .set({
      status: sql`'on_progress'`,
      amount_spent: sql`${sql.placeholder('amountSpent')}::numeric`,
      comments: sql`${sql.placeholder('comments')}`,
      file_paths: sql`${sql.placeholder('filePaths')}::text[]`,
      submissions: sql`${sql.placeholder('round')}::integer`,
      submitted_at: sql`now()`,
      next_reviewer_role: sql`${sql.placeholder('nextReviewerRole')}`,
      is_funds_returned: sql`false`,
      answered_by: sql`'{}'::uuid[]`,
      modified_at: sql`now()`,
    })
    .where(eq(retirements.id, sql.placeholder('id')))
    .prepare('submit_retirement_round'),
);

/**
 * A step of a retirement's round answered: its new status and next reviewer, the answerer added
 * to answered_by (migration 0024), and Cash Returned kept once a reviewer confirmed it.
 */
export async function answerRetirementStep(
  db: Executor,
  options: {
    id: string;
    status: string;
    nextReviewerRole: string | null;
    answeredBy: string;
    fundsReturned: boolean;
  },
): Promise<void> {
  await answerRetirementStepQuery(db).execute(options);
}

const answeredBy = sql.placeholder('answeredBy');
const fundsReturned = sql.placeholder('fundsReturned');
const answerRetirementStepQuery = preparedOnce((db: Executor) =>
  db
    .update(retirements)
    .set({
      status: sql`${sql.placeholder('status')}`,
      next_reviewer_role: sql`${sql.placeholder('nextReviewerRole')}`,
      answered_by: sql`${retirements.answered_by} || ARRAY[${answeredBy}]::uuid[]`,
      is_funds_returned: sql`${retirements.is_funds_returned} OR ${fundsReturned}::boolean`,
      modified_at: sql`now()`,
    })
    .where(eq(retirements.id, sql.placeholder('id')))
    .prepare('answer_retirement_step'),
);

/** A rejected retirement back to pending, so its owner can submit it again (spec §4). */
export async function reopenRetirement(db: Executor, id: string): Promise<void> {
  await reopenRetirementQuery(db).execute({ id });
}

const reopenRetirementQuery = preparedOnce((db: Executor) =>
  db
    .update(retirements)
    .set({ status: sql`'pending'`, next_reviewer_role: sql`NULL`, modified_at: sql`now()` })
    .where(eq(retirements.id, sql.placeholder('id')))
    .prepare('reopen_retirement'),
);

/** Every review of a retirement, round by round, step by step. */
export async function findRetirementReviews(
  db: Executor,
  retirementId: string,
): Promise<RetirementReviewRow[]> {
  return retirementReviewsQuery(db).execute({ retirementId });
}

const insertRetirementReviewRows = preparedInsert<typeof retirementReviews.$inferInsert>(
  retirementReviews,
  'insert_retirement_reviews',
);

/** Opens a review round: one pending review per role, step 1 first. */
export async function insertRetirementReviewRound(
  db: Executor,
  options: {
    organizationId: string;
    retirementId: string;
    round: number;
    roles: readonly ReviewerRole[];
    titleOf: (role: ReviewerRole) => string;
  },
): Promise<void> {
  await insertRetirementReviewRows(
    db,
    options.roles.map((role, index) => ({
      organization_id: options.organizationId,
      retirement_id: options.retirementId,
      round: options.round,
      step: index + 1,
      reviewer_role: role,
      reviewer_title: options.titleOf(role),
    })),
  );
}

/**
 * Answers a retirement review only while it is still pending; returns nothing when someone else
 * answered it first, so a second answer can never overwrite the first.
 */
export async function answerPendingRetirementReview(
  db: Executor,
  options: {
    id: string;
    status: 'approved' | 'rejected';
    comments: string;
    isFundsReturned: boolean;
    reviewerId: string;
    reviewerName: string;
    reviewerTitle: string;
  },
): Promise<RetirementReviewRow | undefined> {
  const [row] = await answerRetirementReviewQuery(db).execute({
    id: options.id,
    status: options.status,
    comments: options.comments,
    isFundsReturned: options.isFundsReturned,
    reviewerId: options.reviewerId,
    reviewerName: options.reviewerName,
    reviewerTitle: options.reviewerTitle,
  });
  return row;
}

/** answerPendingRetirementReview's statement, prepared under a name as the request's (issue 13). */
const answerRetirementReviewQuery = preparedOnce((db: Executor) =>
  db
    .update(retirementReviews)
    .set({
      status: sql`${sql.placeholder('status')}`,
      comments: sql`${sql.placeholder('comments')}`,
      is_funds_returned: sql`${sql.placeholder('isFundsReturned')}`,
      reviewer_id: sql`${sql.placeholder('reviewerId')}`,
      reviewer_name: sql`${sql.placeholder('reviewerName')}`,
      reviewer_title: sql`${sql.placeholder('reviewerTitle')}`,
      reviewed_at: sql`now()`,
      modified_at: sql`now()`,
    })
    .where(
      and(
        eq(retirementReviews.id, sql.placeholder('id')),
        equalsConstant(retirementReviews.status, 'pending'),
      ),
    )
    .returning()
    .prepare('answer_retirement_review'),
);

/**
 * A value, the column of an enclosing query's row that a subquery is correlated with, or a
 * prepared statement's placeholder.
 */
type ValueOrColumn = string | AnyPgColumn | Placeholder;

const ownerOutstanding = (options: { organizationId: ValueOrColumn; ownerId: ValueOrColumn }) =>
  and(
    eq(retirements.retirement_owner_id, options.ownerId),
    // In the text, so the request view's named statement is planned once (db/constants.ts).
    inConstants(retirements.status, outstandingRetirementStatuses),
    eq(retirements.organization_id, options.organizationId),
  );

/** An owner of an organisation, as placeholders of a prepared statement. */
const ownerPlaceholders = {
  organizationId: sql.placeholder('organizationId'),
  ownerId: sql.placeholder('ownerId'),
};

/**
 * The Home's two statements of retirements (the summary, every Home load; the count only when the
 * list is full, listOwnerOutstandingWithTotal), prepared under names (issue 13): Drizzle put both
 * together on every call. One owner's few rows, read off retirements_owner_status_idx whatever the
 * owner, so a plan made once serves every call.
 */
const ownerOutstandingCountQuery = preparedOnce((db: Executor) =>
  db
    .select({ total: sql<number>`count(*)::int` })
    .from(retirements)
    .where(ownerOutstanding(ownerPlaceholders))
    .prepare('owner_outstanding_count'),
);

const ownerOutstandingQuery = preparedOnce((db: Executor) =>
  selectRecords(db)
    .where(ownerOutstanding(ownerPlaceholders))
    .orderBy(asc(retirements.due_date), asc(retirements.id))
    .limit(sql.placeholder('limit'))
    .prepare('owner_outstanding'),
);

/**
 * How many retirements a user still owes (pending or rejected): the Home tile 'Unretired Requests'
 * (spec §2), the same retirements Home lists under it. Served by retirements_owner_status_idx.
 */
export async function countOwnerOutstandingRetirements(
  db: Executor,
  options: { organizationId: string; ownerId: string },
): Promise<number> {
  const [row] = await ownerOutstandingCountQuery(db).execute(options);
  return row?.total ?? 0;
}

/**
 * The oldest due date of a user's pending or rejected retirements (`YYYY-MM-DD`), or null.
 * With columns for the owner, a scalar subquery correlated with the enclosing request (the
 * request view reads it in its own statement).
 */
export function ownerOldestDueDateQuery(
  db: Executor,
  options: { organizationId: ValueOrColumn; ownerId: ValueOrColumn },
) {
  return db
    .select({ due: sql<string | null>`min(${retirements.due_date})::text` })
    .from(retirements)
    .where(ownerOutstanding(options));
}

/** A user's pending or rejected retirements, oldest due date first. */
export async function listOwnerOutstanding(
  db: Executor,
  options: { organizationId: string; ownerId: string; limit: number },
): Promise<RetirementRecord[]> {
  return ownerOutstandingQuery(db).execute(options);
}

/**
 * A user's pending or rejected retirements, oldest due date first, at most `limit`, and how many
 * there are: counted only when the page is full, since otherwise it holds them all (the Home's
 * summary, issue 13: one statement instead of two for nearly everyone).
 */
export async function listOwnerOutstandingWithTotal(
  db: Executor,
  options: { organizationId: string; ownerId: string; limit: number },
): Promise<{ rows: RetirementRecord[]; total: number }> {
  const rows = await listOwnerOutstanding(db, options);
  const total =
    rows.length < options.limit ? rows.length : await countOwnerOutstandingRetirements(db, options);
  return { rows, total };
}

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

/**
 * A reviewer's queue, in SQL the rule of retirementReviewRefusal (policy.ts) for the step whose
 * turn it is: retirements of the organisation under review whose first pending step is the
 * caller's role, never the caller's own, nor one whose current round has a step the caller already
 * answered (one person answers one step: a reviewer whose role changed mid-round; decisions 0019).
 * No delegation: the retirement policy has none. Change both together.
 */
const pendingReviewWhere = and(
  eq(retirements.organization_id, sql.placeholder('organizationId')),
  eq(retirements.next_reviewer_role, sql.placeholder('role')),
  // The code sets next_reviewer_role only while on_progress, but no constraint does: the status
  // keeps out one left behind. In the text (db/constants.ts).
  equalsConstant(retirements.status, 'on_progress'),
  ne(retirements.retirement_owner_id, sql.placeholder('callerId')),
  // Read off the row (answered_by, the current round's answerers), not probed in
  // retirement_reviews once per waiting retirement (migration 0024).
  sql`NOT ${retirements.answered_by} @> ARRAY[${sql.placeholder('callerId')}]::uuid[]`,
);

/**
 * The queue's page and its count, built once (issue 13). Named, as the requests' pending list is:
 * both read retirements_next_reviewer_idx, whose key gives the page's order and whose INCLUDE
 * columns (migration 0024) the count's filters, the best plan for any organisation and role.
 */
const pendingReviewPageQuery = preparedOnce((db: Executor) =>
  selectRecords(db)
    .where(pendingReviewWhere)
    .orderBy(asc(retirements.submitted_at), asc(retirements.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('pending_retirements_page'),
);

const pendingReviewCountQuery = preparedOnce((db: Executor) =>
  db
    .select({ total: sql<number>`count(*)::int` })
    .from(retirements)
    .where(pendingReviewWhere)
    .prepare('pending_retirements_count'),
);

/**
 * One page of the retirements waiting for a reviewer (pendingReviewWhere), oldest submission
 * first, and how many there are.
 */
export async function listPendingReviewPage(
  db: Executor,
  options: {
    organizationId: string;
    /** The caller's role: the role of the step whose turn it is. */
    role: string;
    /** The caller: never their own retirements, nor a round they answered a step of. */
    callerId: string;
    page: number;
    perPage: number;
  },
): Promise<{ rows: RetirementRecord[]; total: number }> {
  const values = {
    organizationId: options.organizationId,
    role: options.role,
    callerId: options.callerId,
    limit: options.perPage,
    offset: (options.page - 1) * options.perPage,
  };
  const [rows, [count]] = await pipelined(db, [
    (on) => pendingReviewPageQuery(on).execute(values),
    (on) => pendingReviewCountQuery(on).execute(values),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/**
 * The columns of the retirements spreadsheet and its keyset, and no others (as the requests
 * download, decision 0024: each column more is a value parsed and mapped per row).
 */
const sheetColumns = {
  id: retirements.id,
  position: keysetPosition(retirements),
  name: requests.request_owner_name,
  purpose: requests.purpose,
  approval_number: requests.approval_number,
  budget_code: requests.budget_code,
  due_date: retirements.due_date,
  submitted_at: retirements.submitted_at,
  amount_received: retirements.amount_received,
  amount_spent: retirements.amount_spent,
  amount_currency: retirements.amount_currency,
  status: retirements.status,
  is_funds_returned: retirements.is_funds_returned,
};
export type RetirementSheetRow = Awaited<ReturnType<typeof retirementBatch>>[number];

/** The next batch of retirements for a download, newest first, after a keyset position. */
export async function retirementBatch(db: Executor, options: BatchOptions) {
  const conditions = filterConditions({ ...options, status: 'all' });
  if (options.after) conditions.push(olderThan(retirements, options.after));
  return db
    .select(sheetColumns)
    .from(retirements)
    .innerJoin(requests, eq(requests.id, retirements.request_id))
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(options.limit);
}
