import { isAdmin } from '@imprest/domain/permissions.ts';
import type { Actor } from '../../lib/authenticate.ts';

/** Spec §5: only an admin or the account holder can change user values. */
export function canChangeSettings(
  actor: Actor,
  target: { id: string; organization_id: string },
): boolean {
  if (actor.organization_id !== target.organization_id) return false;
  return actor.id === target.id || isAdmin(actor.role);
}
