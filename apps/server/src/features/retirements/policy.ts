import type { Role } from '@imprest/domain/enums.ts';
import { isFinance } from '@imprest/domain/permissions.ts';

/** What the retirement policies need to know of the user (always of the retirement's organisation). */
export type PolicyActor = { id: string; role: Role };

/** Finance attaches a retirement to a request (spec §6, decisions §9); a lock does not stop it. */
export function canAttachRetirement(actor: PolicyActor): boolean {
  return isFinance(actor.role);
}
