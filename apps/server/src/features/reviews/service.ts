import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { ReviewRequest } from '@imprest/domain/api/reviews.ts';
import { changesBetween, type AuditAction } from '@imprest/domain/audit.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { messages } from '@imprest/domain/messages.ts';
import {
  firstPendingReview,
  hasAnsweredAnotherStep,
  isAwaitingReview,
  nextReviewerRole,
  reviewerTitle,
  statusAfterReview,
  todayIn,
  yearIn,
  type ReviewerRole,
} from '@imprest/domain/requests.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { recordAudit } from '../audit/record.ts';
import { findGrantsOf } from '../delegations/queries.ts';
import {
  notifyRequestApproved,
  notifyRequestReviewed,
  readRequestNotice,
} from '../notifications/service.ts';
import { lockRequest, updateRequestStatus } from '../requests/queries.ts';
import { readRequest } from '../requests/service.ts';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { commitWith } from '../../db/transaction.ts';
import { anotherStepRefusal, reviewAuthority, type Delegated } from './policy.ts';
import {
  answerPendingReview,
  approvalNumberDraw,
  drawnApprovalNumber,
  findReviewsOf,
} from './queries.ts';

const alreadyAnswered = 'This review has already been answered.';

/** What an answer changes, as the audit trail writes it down. */
type AnswerFields = {
  status: string;
  comments: string;
  on_behalf_of: { id: string; name: string } | null;
  current_status: string;
  approval_number: string | null;
};

/** The audit action of each answer (issue 15). */
const auditActionOf = {
  approved: 'review.approved',
  rejected: 'review.rejected',
  request_edit: 'review.returned',
} as const satisfies Record<ReviewRequest['status'], AuditAction>;

/**
 * Answers the first pending review of a request (decisions §3) in one transaction that holds the
 * request row lock: the reviewer is the signed-in user, in their own right or as a delegate of an
 * active delegator holding the step's role (issue 15, recorded as on_behalf_of); the review changes
 * only while still pending, so of a delegator and a delegate answering at once the first wins and
 * the other gets 409; the request's status and approval number follow the answer, and the audit
 * trail records it.
 */
export async function answerReview(
  context: AppContext,
  options: { actor: Actor; input: ReviewRequest },
): Promise<RequestResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  const outcome = await context.db.transaction(async (tx) => {
    // The reviews go out with the lock and are read once it is granted (db/pipelined.ts); they
    // count only when the request is the organisation's.
    const [request, reviews] = await pipelined(tx, [
      (on) => lockRequest(on, { organizationId, id: input.request_id }),
      (on) => findReviewsOf(on, input.request_id),
    ]);
    if (!request) throw new AppError('not_found', messages.requestNotFound);
    const review = reviews.find((candidate) => candidate.id === input.id);
    if (!review) throw new AppError('not_found', 'This review does not belong to the request.');
    // A delegate's delegations are read only when the step is not their own role's, and held FOR
    // SHARE: a delegation ended meanwhile is either seen ended or waits for this answer.
    const delegated: Delegated = { grants: [], today: todayIn(context.config.orgTimezone) };
    if (actor.role !== review.reviewer_role) {
      delegated.grants = await findGrantsOf(tx, {
        organizationId,
        delegateId: actor.id,
        today: delegated.today,
        lock: true,
      });
    }
    const authority = reviewAuthority(actor, request, review, delegated);
    if (authority.refusal !== null) throw new AppError('forbidden', authority.refusal);
    if (review.status !== 'pending') throw new AppError('conflict', alreadyAnswered);
    if (!request.is_latest || !isAwaitingReview(request.current_status)) {
      throw new AppError('conflict', 'This request no longer awaits review.');
    }
    const current = firstPendingReview(reviews);
    if (current && current.id !== review.id) {
      const role = roleLabels[current.reviewer_role as ReviewerRole];
      throw new AppError(
        'conflict',
        `It is not this review's turn yet: the ${reviewerTitle(current.step)} (${role}) answers first.`,
      );
    }

    if (hasAnsweredAnotherStep(reviews, actor.id, review.id))
      throw new AppError('forbidden', anotherStepRefusal);

    const next = statusAfterReview(reviews, input.status);
    const { onBehalfOf } = authority;
    const answer = (on: Executor) =>
      answerPendingReview(on, {
        id: review.id,
        status: input.status,
        comments: input.comments,
        reviewerId: actor.id,
        reviewerName: actor.fullname,
        // A delegate answers with the step's title: the card reads "Director", answered by the
        // delegate on behalf of the director.
        reviewerTitle: onBehalfOf
          ? roleLabels[review.reviewer_role as ReviewerRole]
          : roleLabels[actor.role],
        onBehalfOf,
      });
    const answeredChain = reviews.map((step) =>
      step.id === review.id ? { ...step, status: input.status } : step,
    );
    // What the answer writes, given the approval number it carries (drawn on the last step only).
    type Issued = typeof drawnApprovalNumber | null;
    const update = (number: Issued) => (on: Executor) =>
      updateRequestStatus(on, {
        id: request.id,
        status: next.status,
        nextReviewerRole: nextReviewerRole(next.status, answeredChain),
        approvalNumber: number,
        answeredBy: [actor.id],
      });
    const audit = (number: Issued) => (on: Executor) =>
      recordAudit(on, {
        organizationId,
        actor: { id: actor.id, fullname: actor.fullname },
        action: auditActionOf[input.status],
        objectType: 'request',
        objectId: request.id,
        changes: {
          step: { to: review.step },
          ...changesBetween<AnswerFields>(
            {
              status: 'pending',
              comments: '',
              on_behalf_of: null,
              current_status: request.current_status,
              approval_number: request.approval_number,
            },
            {
              status: input.status,
              comments: input.comments,
              on_behalf_of: onBehalfOf,
              current_status: next.status,
              approval_number: number?.marker ?? request.approval_number,
            },
            ['status', 'comments', 'on_behalf_of', 'current_status', 'approval_number'],
          ),
        },
        carries: number ?? undefined,
      });
    const notify = (on: Executor) => notifyRequestReviewed(context, on, { requestId: request.id });
    const readBack = (on: Executor) => readRequest(on, { organizationId, id: request.id });

    // The answer goes out with the writes that follow from it (db/pipelined.ts). A review
    // answered meanwhile updates no row: the transaction is then rolled back with everything sent
    // beside it.
    let response: RequestResponse | undefined;
    if (next.status === 'approved') {
      // The organisation's sequence row is locked from the draw to the commit, where final
      // approvals of one organisation queue (decision 0022). So the draw goes out with the writes
      // that carry the number and the COMMIT, in one write (docs/decisions/0054): PostgreSQL
      // writes the number into them, and the lock is held while it runs them, not across a turn
      // of the server. The answer and the owner's notice are read before, outside the lock.
      const [answered, notice] = await pipelined(tx, [
        answer,
        (on) => readRequestNotice(on, request.id),
      ]);
      if (!answered) throw new AppError('conflict', alreadyAnswered);
      const year = yearIn(context.config.orgTimezone);
      // Each of these sends its statements at once, as commitWith needs; the draw goes first.
      [, , , response] = await commitWith(
        tx,
        [
          update(drawnApprovalNumber),
          audit(drawnApprovalNumber),
          (on) =>
            notifyRequestApproved(context, on, { notice, approvalNumber: drawnApprovalNumber }),
          readBack,
        ],
        { first: approvalNumberDraw(tx, { organizationId, year }) },
      );
    } else {
      let answered: Awaited<ReturnType<typeof answer>>;
      [answered, , , , response] = await pipelined(tx, [
        answer,
        update(null),
        audit(null),
        notify,
        readBack,
      ]);
      if (!answered) throw new AppError('conflict', alreadyAnswered);
    }
    if (!response) throw new Error(`request ${request.id} not found where it was just answered`);
    return {
      requestId: request.id,
      budgetCode: request.budget_code,
      status: next.status,
      response,
    };
  });

  context.events.publish(organizationId, 'request_updated', { request_id: outcome.requestId });
  // A rejection or a return releases the reserved amount (decisions §3).
  if (outcome.status === 'rejected' || outcome.status === 'request_edit') {
    context.events.publish(organizationId, 'budget_updated', { code: outcome.budgetCode });
  }
  return outcome.response;
}
