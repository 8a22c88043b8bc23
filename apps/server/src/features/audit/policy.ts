import { auditActions, type AuditAction } from '@imprest/domain/audit.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { isSuperAdmin } from '@imprest/domain/permissions.ts';

/** Who reads the whole audit trail and downloads it: the director (issue 15). */
export function canReadAuditTrail(actor: { role: Role }): boolean {
  return isSuperAdmin(actor.role);
}

/** Sign-ins, failed sign-ins and password events: when and how someone gets in. */
const authActions: readonly AuditAction[] = auditActions.filter((action) =>
  action.startsWith('auth.'),
);

/**
 * What one caller sees of one object's history: the actions left out, and whether each event
 * keeps where it came from (client address and request id).
 */
export type ObjectHistoryView = {
  hiddenActions: readonly AuditAction[];
  showsOrigin: boolean;
};

/**
 * What a caller who may open an object sees of its history (issue 15; docs/decisions/0019): the
 * full trail (who did what, when, from where) is the director's; anyone else sees the object's
 * events without client address and request id, and no sign-in or password events, except their
 * own account's (still without addresses: a failed attempt's address is a stranger's).
 */
export function objectHistoryView(
  actor: { id: string; role: Role },
  object: { object_type: string; object_id: string },
): ObjectHistoryView {
  if (canReadAuditTrail(actor)) return { hiddenActions: [], showsOrigin: true };
  const isOwnAccount = object.object_type === 'user' && object.object_id === actor.id;
  return { hiddenActions: isOwnAccount ? [] : authActions, showsOrigin: false };
}
