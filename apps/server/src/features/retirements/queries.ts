/**
 * A retirement's records and writes (its rows, review rounds and answers), an owner's outstanding
 * retirements (Home, the request view) and the download's batches. The lists are in
 * list-queries.ts, the review queue in pending-queries.ts.
 */
import type { ReviewerRole } from '@imprest/domain/requests.ts';
import { outstandingRetirementStatuses } from '@imprest/domain/retirements.ts';
import { and, asc, desc, eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { equalsConstant, inConstants } from '../../db/constants.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { requests, retirementReviews, retirements } from '../../db/schema.ts';
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

export const recordColumns = {
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
export const newestFirst = [sql`${retirements.created_at} desc nulls last`, desc(retirements.id)];

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
export function selectRecords(db: Executor) {
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
  const conditions: SQL[] = [eq(retirements.organization_id, options.organizationId)];
  if (options.ownerId) conditions.push(eq(retirements.retirement_owner_id, options.ownerId));
  if (options.after) conditions.push(olderThan(retirements, options.after));
  return db
    .select(sheetColumns)
    .from(retirements)
    .innerJoin(requests, eq(requests.id, retirements.request_id))
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(options.limit);
}
