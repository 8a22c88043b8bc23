import { roleLabels, type Role } from '@imprest/domain/enums.ts';
import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';
import {
  hasAnsweredAnotherStep,
  isReviewerRole,
  type AnsweredStep,
} from '@imprest/domain/requests.ts';

/** What the retirement policies need to know of the user (always of the retirement's organisation). */
export type PolicyActor = { id: string; role: Role };
type OwnedRetirement = { retirement_owner_id: string };

/** Finance attaches a retirement to a request (spec §6, decisions §9); a lock does not stop it. */
export function canAttachRetirement(actor: PolicyActor): boolean {
  return isFinance(actor.role);
}

/** The owner reads their own retirements; admin reads any of the organisation (decisions §9). */
export function canReadRetirement(actor: PolicyActor, retirement: OwnedRetirement): boolean {
  return actor.id === retirement.retirement_owner_id || isAdmin(actor.role);
}

/** Only the owner submits a retirement, locked or not: locking exists to make them (decisions §8, §9). */
export function canSubmitRetirement(actor: PolicyActor, retirement: OwnedRetirement): boolean {
  return actor.id === retirement.retirement_owner_id;
}

/** Only the owner asks to resubmit a rejected retirement (spec §6). */
export function canRequestRetirementEdit(actor: PolicyActor, retirement: OwnedRetirement): boolean {
  return actor.id === retirement.retirement_owner_id;
}

/** Admin mode lists and downloads every retirement of the organisation (decisions §9). */
export function canListAllRetirements(actor: PolicyActor): boolean {
  return isAdmin(actor.role);
}

/** A user's own retirements and their download: that user, or an admin (decisions §9). */
export function canSeeUserRetirements(actor: PolicyActor, userId: string): boolean {
  return actor.id === userId || isAdmin(actor.role);
}

/** One person answers one step of a retirement's round (docs/decisions/0019). */
export const anotherRetirementStepRefusal =
  'You have already answered another step of this retirement; someone else must answer this one.';

/**
 * Why a user may not answer a retirement's review step, or null when they may (decisions §9):
 * never the owner, only a user whose role is the step's role, and never someone who answered
 * another step of the same round (a reviewer whose position changed mid-round; docs/decisions/0019).
 * Whether it is the step's turn is a state question the service answers with 409.
 * pendingReviewWhere (queries.ts) says the same in SQL for the reviewers' queue: change both
 * together.
 */
export function retirementReviewRefusal(
  actor: PolicyActor,
  retirement: OwnedRetirement,
  review: { id: string; reviewer_role: string },
  round: readonly AnsweredStep[],
): string | null {
  if (actor.id === retirement.retirement_owner_id) return 'You cannot review your own retirement.';
  if (actor.role !== review.reviewer_role) {
    const label = isReviewerRole(review.reviewer_role)
      ? roleLabels[review.reviewer_role]
      : review.reviewer_role;
    return `Only a ${label} can answer this review.`;
  }
  if (hasAnsweredAnotherStep(round, actor.id, review.id)) return anotherRetirementStepRefusal;
  return null;
}

/** Whether a user may answer a retirement's review step. */
export function canReviewRetirementStep(
  actor: PolicyActor,
  retirement: OwnedRetirement,
  review: { id: string; reviewer_role: string },
  round: readonly AnsweredStep[],
): boolean {
  return retirementReviewRefusal(actor, retirement, review, round) === null;
}
