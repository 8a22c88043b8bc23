import type { Role } from './enums.ts';
import { isSuperAdmin } from './permissions.ts';
import { isReviewerRole } from './requests.ts';
import { addDays, daysBetween } from './retirements.ts';

/**
 * Out-of-office delegation (issue 15; docs/decisions/0019 "Delegation"): a reviewer names a delegate
 * who answers their request review steps for a period of calendar days in ORG_TIMEZONE.
 */

/** The longest delegation, first and last day included. */
export const maxDelegationDays = 90;
/** How far ahead a delegation may start. */
export const maxDelegationLeadDays = 365;
/** The longest note on a delegation. */
export const maxDelegationNoteLength = 500;

export const delegationStatuses = ['scheduled', 'active', 'ended'] as const;
export type DelegationStatus = (typeof delegationStatuses)[number];

export const delegationStatusLabels: Record<DelegationStatus, string> = {
  scheduled: 'Scheduled',
  active: 'Active',
  ended: 'Ended',
};

/** A delegation's period and whether it was ended early (`ended_at` set). */
type Period = { starts_on: string; ends_on: string; ended_at: unknown };

/**
 * Where a delegation stands on `today` (`YYYY-MM-DD` in ORG_TIMEZONE): ended once ended early or
 * once its last day has passed, scheduled before its first day, otherwise active. Both the first
 * and the last day are active.
 */
export function delegationStatus(delegation: Period, today: string): DelegationStatus {
  if (delegation.ended_at != null || delegation.ends_on < today) return 'ended';
  if (delegation.starts_on > today) return 'scheduled';
  return 'active';
}

/** Whether a delegation lets its delegate act on `today`. */
export function isDelegationActive(delegation: Period, today: string): boolean {
  return delegationStatus(delegation, today) === 'active';
}

/** Whether a delegation still matters: active or scheduled (not ended early, last day not passed). */
export function isDelegationLive(delegation: Period, today: string): boolean {
  return delegationStatus(delegation, today) !== 'ended';
}

/** Whether two periods of days (`YYYY-MM-DD`, both ends included) share at least one day. */
export function periodsOverlap(
  a: { starts_on: string; ends_on: string },
  b: { starts_on: string; ends_on: string },
): boolean {
  return a.starts_on <= b.ends_on && b.starts_on <= a.ends_on;
}

/** Days a period covers, first and last included. */
export function delegationDays(startsOn: string, endsOn: string): number {
  return daysBetween(startsOn, endsOn) + 1;
}

/** Whether a role may name a delegate: a role that answers request review steps (the matrix roles). */
export function canDelegate(role: Role): boolean {
  return isReviewerRole(role);
}

/**
 * Whether a role may be named a delegate: it must itself review requests, so the delegate already
 * reads every request of the organisation (spec §6) and is trusted with approvals.
 */
export function canBeDelegate(role: Role): boolean {
  return isReviewerRole(role);
}

/**
 * Whether a user can act for their delegators now: unlocked, and still holding a role that reviews
 * requests (a delegate who lost it, or was locked, acts for nobody).
 */
export function canActAsDelegate(user: { role: Role; is_locked: boolean }): boolean {
  return !user.is_locked && canBeDelegate(user.role);
}

/** Whether a user may set a delegation for another delegator: the director (issue 15). */
export function canDelegateForOthers(role: Role): boolean {
  return isSuperAdmin(role);
}

/**
 * Why a period cannot be a new delegation on `today`, or null when it can: it starts today or
 * later (within maxDelegationLeadDays), ends on or after its start, and lasts at most
 * maxDelegationDays.
 */
export function delegationPeriodProblem(
  period: { starts_on: string; ends_on: string },
  today: string,
): string | null {
  if (period.starts_on < today) return 'A delegation cannot start before today.';
  if (period.ends_on < period.starts_on)
    return 'The last day of a delegation cannot be before its first day.';
  if (period.starts_on > addDays(today, maxDelegationLeadDays))
    return `A delegation must start within ${maxDelegationLeadDays} days from today.`;
  if (delegationDays(period.starts_on, period.ends_on) > maxDelegationDays)
    return `A delegation lasts at most ${maxDelegationDays} days; name it again when it ends.`;
  return null;
}

/** A user as the delegation rules need them. */
type Person = {
  id: string;
  fullname: string;
  role: Role;
  is_locked: boolean;
  deleted_at: unknown;
};

/** Why a user cannot delegate their steps, or null when they can. */
export function delegatorProblem(delegator: Person): string | null {
  if (delegator.deleted_at != null) return `${delegator.fullname} has been deactivated.`;
  if (!canDelegate(delegator.role))
    return `${delegator.fullname} reviews no requests, so has no steps to delegate.`;
  return null;
}

/**
 * Why a user cannot be a delegator's delegate, or null when they can: an active, unlocked user who
 * reviews requests themselves, and not the delegator.
 */
export function delegateProblem(delegate: Person, delegator: { id: string }): string | null {
  if (delegate.id === delegator.id) return 'A delegate must be someone else.';
  if (delegate.deleted_at != null) return `${delegate.fullname} has been deactivated.`;
  if (delegate.is_locked)
    return `${delegate.fullname}'s account is locked, so they cannot act for someone else.`;
  if (!canBeDelegate(delegate.role))
    return `${delegate.fullname} reviews no requests; choose a delegate who does.`;
  return null;
}

/**
 * What a delegate holds from one of their delegators: the delegator's name and current role, and
 * the delegation's period. Only the delegate's own delegations count: a delegate never acts for
 * someone who delegated to their delegator (no chaining).
 */
export type DelegationGrant = Period & {
  delegator_id: string;
  delegator_name: string;
  delegator_role: string;
};

/** The delegator a step is answered for. */
export type OnBehalfOf = { id: string; name: string };

/**
 * The delegator for whom a user may answer a step of `stepRole` on a request owned by `ownerId`,
 * or null: a grant active on `today` whose delegator holds the step's role, provided neither the
 * user nor that delegator owns the request (no self-approval through delegation). A locked user,
 * or one who no longer reviews requests, acts for nobody. Among several delegators the first
 * grant wins.
 */
export function delegatorFor(options: {
  actor: { id: string; role: Role; is_locked: boolean };
  stepRole: string;
  ownerId: string;
  grants: readonly DelegationGrant[];
  today: string;
}): OnBehalfOf | null {
  const { actor, ownerId } = options;
  if (!canActAsDelegate(actor) || actor.id === ownerId) return null;
  const grant = options.grants.find(
    (candidate) =>
      candidate.delegator_role === options.stepRole &&
      candidate.delegator_id !== ownerId &&
      candidate.delegator_id !== actor.id &&
      isDelegationActive(candidate, options.today),
  );
  return grant ? { id: grant.delegator_id, name: grant.delegator_name } : null;
}
