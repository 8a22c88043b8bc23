import { roleLabels, type Role } from '@imprest/domain/enums.ts';
import { isReviewerRole } from '@imprest/domain/requests.ts';

type PolicyActor = { id: string; role: Role };

/**
 * Why a user may not answer a review step, or null when they may (decisions §3, §9): only a user
 * whose role is the step's role, and never the request's owner. Whether it is the step's turn is a
 * state question the service answers with 409.
 */
export function reviewRefusal(
  actor: PolicyActor,
  request: { request_owner_id: string },
  review: { reviewer_role: string },
): string | null {
  if (actor.role !== review.reviewer_role) {
    const label = isReviewerRole(review.reviewer_role)
      ? roleLabels[review.reviewer_role]
      : review.reviewer_role;
    return `Only a ${label} can answer this review.`;
  }
  if (actor.id === request.request_owner_id) return 'You cannot review your own request.';
  return null;
}

/** Whether a user may answer a review step. */
export function canAnswerReview(
  actor: PolicyActor,
  request: { request_owner_id: string },
  review: { reviewer_role: string },
): boolean {
  return reviewRefusal(actor, request, review) === null;
}
