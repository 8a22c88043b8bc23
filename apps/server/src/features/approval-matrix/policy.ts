import { roles, type Role } from '@imprest/domain/enums.ts';
import { isAdmin, isSuperAdmin } from '@imprest/domain/permissions.ts';

type PolicyActor = { role: Role };

/**
 * Every user reads the approval matrix (decisions §9: the request view's 'See Approval Matrix' is
 * shown to everyone, so a requester can see who will review their amount).
 */
export function canReadApprovalMatrix(actor: PolicyActor): boolean {
  return roles.includes(actor.role);
}

/** Only a director replaces the approval matrix (decisions §9). */
export function canReplaceApprovalMatrix(actor: PolicyActor): boolean {
  return isSuperAdmin(actor.role);
}

/**
 * Which of the matrix's positions nobody can answer: the admins, who see the users and add them
 * (decisions §9 "list users", "create users: admin"); it tells who the organisation lacks.
 */
export function canReadMatrixVacancies(actor: PolicyActor): boolean {
  return isAdmin(actor.role);
}
