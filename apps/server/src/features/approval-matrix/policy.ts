import type { Role } from '@imprest/domain/enums.ts';
import { isAdmin, isSuperAdmin } from '@imprest/domain/permissions.ts';

type PolicyActor = { role: Role };

/** Admin permission reads the approval matrix (decisions §9). */
export function canReadApprovalMatrix(actor: PolicyActor): boolean {
  return isAdmin(actor.role);
}

/** Only a director replaces the approval matrix (decisions §9). */
export function canReplaceApprovalMatrix(actor: PolicyActor): boolean {
  return isSuperAdmin(actor.role);
}
