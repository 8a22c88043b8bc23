import type { Role } from '@imprest/domain/enums.ts';
import { isSuperAdmin } from '@imprest/domain/permissions.ts';

type PolicyActor = { role: Role };

/** Only a director runs the lock job now (decisions §9). */
export function canRunLockJob(actor: PolicyActor): boolean {
  return isSuperAdmin(actor.role);
}
