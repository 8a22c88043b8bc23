import { approvalNumberFormat, type ReviewerRole } from '@imprest/domain/requests.ts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { equalsConstant } from '../../db/constants.ts';
import { DrawnValue } from '../../db/drawn.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { approvalSequences, reviews } from '../../db/schema.ts';

export type ReviewRow = typeof reviews.$inferSelect;

const insertReviewRows = preparedInsert<typeof reviews.$inferInsert>(reviews, 'insert_reviews');

/** Creates a request's reviewer chain, one pending review per role, step 1 first. */
export async function insertReviewChain(
  db: Executor,
  options: {
    organizationId: string;
    requestId: string;
    roles: readonly ReviewerRole[];
    titleOf: (role: ReviewerRole) => string;
  },
): Promise<void> {
  await insertReviewRows(
    db,
    options.roles.map((role, index) => ({
      organization_id: options.organizationId,
      request_id: options.requestId,
      step: index + 1,
      reviewer_role: role,
      reviewer_title: options.titleOf(role),
    })),
  );
}

/** The reviews of a request by step. */
export async function findReviewsOf(db: Executor, requestId: string): Promise<ReviewRow[]> {
  return reviewsOfQuery(db).execute({ requestId });
}

/**
 * The statements of findReviewsOf and answerPendingReview, prepared under names (issue 13): every
 * answer to a review sends both, and PostgreSQL planned each afresh on every call (decision 0026).
 */
const reviewsOfQuery = preparedOnce((db: Executor) =>
  db
    .select()
    .from(reviews)
    .where(eq(reviews.request_id, sql.placeholder('requestId')))
    .orderBy(asc(reviews.step))
    .prepare('reviews_of'),
);

/**
 * Answers a review only while it is still pending; returns nothing when someone else answered it
 * first, so a second answer to the same step can never overwrite the first.
 */
export async function answerPendingReview(
  db: Executor,
  options: {
    id: string;
    status: 'approved' | 'rejected' | 'request_edit';
    comments: string;
    reviewerId: string;
    reviewerName: string;
    reviewerTitle: string;
    /** The delegator a delegate answers for (issue 15); null when answering in their own right. */
    onBehalfOf?: { id: string; name: string } | null;
  },
): Promise<ReviewRow | undefined> {
  const [row] = await answerReviewQuery(db).execute({
    id: options.id,
    status: options.status,
    comments: options.comments,
    reviewerId: options.reviewerId,
    reviewerName: options.reviewerName,
    reviewerTitle: options.reviewerTitle,
    onBehalfOfId: options.onBehalfOf?.id ?? null,
    onBehalfOfName: options.onBehalfOf?.name ?? null,
  });
  return row;
}

const answerReviewQuery = preparedOnce((db: Executor) =>
  db
    .update(reviews)
    .set({
      status: sql`${sql.placeholder('status')}`,
      comments: sql`${sql.placeholder('comments')}`,
      reviewer_id: sql`${sql.placeholder('reviewerId')}`,
      reviewer_name: sql`${sql.placeholder('reviewerName')}`,
      reviewer_title: sql`${sql.placeholder('reviewerTitle')}`,
      on_behalf_of_id: sql`${sql.placeholder('onBehalfOfId')}`,
      on_behalf_of_name: sql`${sql.placeholder('onBehalfOfName')}`,
      reviewed_at: sql`now()`,
      modified_at: sql`now()`,
    })
    .where(and(eq(reviews.id, sql.placeholder('id')), equalsConstant(reviews.status, 'pending')))
    .returning()
    .prepare('answer_review'),
);

/**
 * The approval number, drawn in the transaction (docs/decisions/0054): kept for its later
 * statements (`value`), and written where a text made before the draw holds its marker (`into`).
 */
export const drawnApprovalNumber = new DrawnValue('imprest.approval_number');

/**
 * The draw of the next approval number of an organisation and year, as a statement to send: its
 * sequence row counts up (or is created at 1), locked until the transaction ends, so numbers are
 * unique and leave no gap (decision 0022). PostgreSQL writes the number, as the domain's
 * approvalNumberFormat says, answers it, and keeps it for the transaction's later statements
 * (drawnApprovalNumber).
 */
export function approvalNumberDraw(
  db: Executor,
  options: { organizationId: string; year: number },
) {
  const { prefix, digits } = approvalNumberFormat;
  const sequence = sql`${approvalSequences.last_value}::text`;
  return db
    .insert(approvalSequences)
    .values({ organization_id: options.organizationId, year: options.year, last_value: 1 })
    .onConflictDoUpdate({
      target: [approvalSequences.organization_id, approvalSequences.year],
      set: { last_value: sql`${approvalSequences.last_value} + 1` },
    })
    .returning({
      number: drawnApprovalNumber.keep(
        sql`${prefix(options.year)} || lpad(${sequence}, greatest(${digits}, length(${sequence})), '0')`,
      ),
    });
}

/** Draws the next approval number (approvalNumberDraw) and answers it. */
export async function drawApprovalNumber(
  db: Executor,
  options: { organizationId: string; year: number },
): Promise<string> {
  const [row] = await approvalNumberDraw(db, options);
  if (!row) throw new Error('approval sequence returned nothing');
  return row.number;
}
