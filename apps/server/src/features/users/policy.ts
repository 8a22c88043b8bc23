import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';
import type { Actor } from '../../lib/authenticate.ts';

/** Spec §5: only an admin or the account holder can change user values. */
export function canChangeSettings(
  actor: Actor,
  target: { id: string; organization_id: string },
): boolean {
  if (actor.organization_id !== target.organization_id) return false;
  return actor.id === target.id || isAdmin(actor.role);
}

/**
 * Finance restricts and unrestricts users of its organisation (decisions §9), anyone's but their
 * own: locking oneself out helps nobody, and lifting one's own lock would defeat it.
 */
export function canRestrictUser(
  actor: Pick<Actor, 'id' | 'role' | 'organization_id'>,
  target: { id: string; organization_id: string },
): boolean {
  if (actor.organization_id !== target.organization_id) return false;
  return isFinance(actor.role) && actor.id !== target.id;
}
