import { canDelegate, canDelegateForOthers } from '@imprest/domain/delegations.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { isSuperAdmin } from '@imprest/domain/permissions.ts';

/** What the delegation policies need to know of the user (always of the record's organisation). */
type PolicyActor = { id: string; role: Role };
type Parties = { delegator_id: string; delegate_id: string };

/**
 * Why a user may not create a delegation for `delegatorId`, or null when they may (issue 15;
 * docs/decisions/0019): for themselves when they review requests; for someone else only as the
 * director. Whether the named delegator and delegate qualify is input, checked by the service.
 */
export function createDelegationRefusal(actor: PolicyActor, delegatorId: string): string | null {
  if (delegatorId !== actor.id) {
    return canDelegateForOthers(actor.role)
      ? null
      : 'Only the director can set a delegation for someone else.';
  }
  return canDelegate(actor.role) ? null : 'Only someone who reviews requests can name a delegate.';
}

/** Its delegator and delegate see a delegation; the director sees every one of the organisation. */
export function canReadDelegation(actor: PolicyActor, delegation: Parties): boolean {
  return (
    actor.id === delegation.delegator_id ||
    actor.id === delegation.delegate_id ||
    isSuperAdmin(actor.role)
  );
}

/** Its delegator or the director ends a delegation early; the delegate cannot. */
export function canEndDelegation(actor: PolicyActor, delegation: Parties): boolean {
  return actor.id === delegation.delegator_id || isSuperAdmin(actor.role);
}

/** The director lists every delegation of the organisation; others their own. */
export function canListAllDelegations(actor: PolicyActor): boolean {
  return isSuperAdmin(actor.role);
}
