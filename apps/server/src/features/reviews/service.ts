import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type { ReviewRequest } from '@imprest/domain/api/reviews.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { messages } from '@imprest/domain/messages.ts';
import {
  approvalNumber,
  firstPendingReview,
  isAwaitingReview,
  nextReviewerRole,
  reviewerTitle,
  statusAfterReview,
  yearIn,
  type ReviewerRole,
} from '@imprest/domain/requests.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyRequestReviewed } from '../notifications/service.ts';
import { lockRequest, updateRequestStatus } from '../requests/queries.ts';
import { readRequest } from '../requests/service.ts';
import { reviewRefusal } from './policy.ts';
import { answerPendingReview, findReviewsOf, nextApprovalSequence } from './queries.ts';

const alreadyAnswered = 'This review has already been answered.';

/**
 * Answers the first pending review of a request (decisions §3) in one transaction that holds the
 * request row lock: the reviewer is the signed-in user, the review changes only while still pending
 * (a second answer gets 409), and the request's status and approval number follow the answer.
 */
export async function answerReview(
  context: AppContext,
  options: { actor: Actor; input: ReviewRequest },
): Promise<RequestResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  const outcome = await context.db.transaction(async (tx) => {
    const request = await lockRequest(tx, { organizationId, id: input.request_id });
    if (!request) throw new AppError('not_found', messages.requestNotFound);
    const reviews = await findReviewsOf(tx, request.id);
    const review = reviews.find((candidate) => candidate.id === input.id);
    if (!review) throw new AppError('not_found', 'This review does not belong to the request.');
    const refusal = reviewRefusal(actor, request, review);
    if (refusal) throw new AppError('forbidden', refusal);
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

    const next = statusAfterReview(reviews, input.status);
    const answered = await answerPendingReview(tx, {
      id: review.id,
      status: input.status,
      comments: input.comments,
      reviewerId: actor.id,
      reviewerName: actor.fullname,
      reviewerTitle: roleLabels[actor.role],
    });
    if (!answered) throw new AppError('conflict', alreadyAnswered);
    let number: string | null = null;
    if (next.status === 'approved') {
      const year = yearIn(context.config.orgTimezone);
      number = approvalNumber(year, await nextApprovalSequence(tx, { organizationId, year }));
    }
    const answeredChain = reviews.map((step) =>
      step.id === review.id ? { ...step, status: input.status } : step,
    );
    await updateRequestStatus(tx, {
      id: request.id,
      status: next.status,
      nextReviewerRole: nextReviewerRole(next.status, answeredChain),
      approvalNumber: number,
    });
    await notifyRequestReviewed(context, tx, { requestId: request.id });
    return { requestId: request.id, budgetCode: request.budget_code, status: next.status };
  });

  context.events.publish(organizationId, 'request_updated', { request_id: outcome.requestId });
  // A rejection or a return releases the reserved amount (decisions §3).
  if (outcome.status === 'rejected' || outcome.status === 'request_edit') {
    context.events.publish(organizationId, 'budget_updated', { code: outcome.budgetCode });
  }
  const request = await readRequest(context.db, { organizationId, id: outcome.requestId });
  if (!request) throw new Error(`request ${outcome.requestId} vanished after its review`);
  return request;
}
