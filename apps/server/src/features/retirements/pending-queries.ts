/**
 * The retirement queue (Home's 'Retirements Pending Your Review', GET retirement/pending): the
 * retirements whose next step is the caller's role, oldest submission first.
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { equalsConstant } from '../../db/constants.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { retirements } from '../../db/schema.ts';
import { selectRecords, type RetirementRecord } from './queries.ts';

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
