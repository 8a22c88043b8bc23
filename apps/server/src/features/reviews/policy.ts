import {
  canBeDelegate,
  delegatorFor,
  isDelegationActive,
  type DelegationGrant,
  type OnBehalfOf,
} from '@imprest/domain/delegations.ts';
import { roleLabels, type Role } from '@imprest/domain/enums.ts';
import { isReviewerRole } from '@imprest/domain/requests.ts';

type PolicyActor = { id: string; role: Role; is_locked: boolean };

/** What the delegations of the actor as a delegate say, on the organisation's today. */
export type Delegated = { grants: readonly DelegationGrant[]; today: string };

/** Who answers a step: in their own right (`onBehalfOf` null) or for a delegator; or a refusal. */
export type ReviewAuthority =
  { refusal: string } | { refusal: null; onBehalfOf: OnBehalfOf | null };

const ownRequest = 'You cannot review your own request.';

function roleLabel(role: string): string {
  return isReviewerRole(role) ? roleLabels[role] : role;
}

/**
 * May a user answer a review step, and for whom (decisions §3, §9; issue 15)? A user whose role is
 * the step's role answers in their own right; a delegate answers for an active delegator holding
 * the step's role (docs/decisions/0019). Never the request's owner, and never for a delegator who
 * owns it (no self-approval through delegation). Whether it is the step's turn is a state
 * question the service answers with 409.
 */
export function reviewAuthority(
  actor: PolicyActor,
  request: { request_owner_id: string },
  review: { reviewer_role: string },
  delegated: Delegated = { grants: [], today: '' },
): ReviewAuthority {
  const isOwner = actor.id === request.request_owner_id;
  if (actor.role === review.reviewer_role) {
    return isOwner ? { refusal: ownRequest } : { refusal: null, onBehalfOf: null };
  }
  const held = delegated.grants.filter(
    (grant) =>
      grant.delegator_role === review.reviewer_role && isDelegationActive(grant, delegated.today),
  );
  const onBehalfOf = delegatorFor({
    actor,
    stepRole: review.reviewer_role,
    ownerId: request.request_owner_id,
    grants: held,
    today: delegated.today,
  });
  if (onBehalfOf) return { refusal: null, onBehalfOf };
  const [first] = held;
  if (!first)
    return { refusal: `Only a ${roleLabel(review.reviewer_role)} can answer this review.` };
  if (isOwner) return { refusal: ownRequest };
  if (actor.is_locked)
    return { refusal: 'Your account is locked, so you cannot answer for someone else.' };
  if (!canBeDelegate(actor.role))
    return { refusal: 'You no longer review requests, so you cannot answer for someone else.' };
  return {
    refusal: `${first.delegator_name} owns this request, so you cannot answer it on their behalf.`,
  };
}

/** Why a user may not answer a review step, or null when they may (see reviewAuthority). */
export function reviewRefusal(
  actor: PolicyActor,
  request: { request_owner_id: string },
  review: { reviewer_role: string },
  delegated?: Delegated,
): string | null {
  return reviewAuthority(actor, request, review, delegated).refusal;
}

/** Whether a user may answer a review step. */
export function canAnswerReview(
  actor: PolicyActor,
  request: { request_owner_id: string },
  review: { reviewer_role: string },
  delegated?: Delegated,
): boolean {
  return reviewRefusal(actor, request, review, delegated) === null;
}

/** One person answers one step of a request (docs/decisions/0019). */
export const anotherStepRefusal =
  'You have already answered another step of this request; someone else must answer this one.';
