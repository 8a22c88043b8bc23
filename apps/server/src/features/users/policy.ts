import {
  holdsPermissionBeyond,
  isAdmin,
  isSuperAdmin,
  mayRestrictUser,
} from '@imprest/domain/permissions.ts';
import { userAuditFields } from '@imprest/domain/audit.ts';
import type { Role } from '@imprest/domain/enums.ts';
import type { Actor } from '../../lib/authenticate.ts';

type Who = Pick<Actor, 'id' | 'role' | 'organization_id'>;
type Target = { id: string; organization_id: string };
/** A stored user: its role is a column of text, kept to the positions by the database. */
type TargetWithRole = Target & { role: string };

const sameOrganization = (actor: Who, target: Target) =>
  actor.organization_id === target.organization_id;

/** Decisions §9: list users — admin. */
export function canListUsers(actor: Who): boolean {
  return isAdmin(actor.role);
}

/** Decisions §9: read a user — admin, or oneself (own profile); never another organisation. */
export function canReadUser(actor: Who, target: Target): boolean {
  if (!sameOrganization(actor, target)) return false;
  return actor.id === target.id || isAdmin(actor.role);
}

/** Decisions §9: create users — admin. */
export function canCreateUsers(actor: Who): boolean {
  return isAdmin(actor.role);
}

/** Spec §5, §6: only the super admin (director) gives the director position. */
export function canGiveDirectorPosition(actor: Who): boolean {
  return isSuperAdmin(actor.role);
}

/** Spec §6: only the super admin sees Last Logged In. */
export function canSeeLastLoggedIn(actor: Pick<Actor, 'role'>): boolean {
  return isSuperAdmin(actor.role);
}

/**
 * The fields of `PUT users` and who may change them (decisions §9): the fields the audit trail
 * records of a user, so every change made through it is in the trail.
 */
export const userFields = userAuditFields;
export type UserField = (typeof userFields)[number];

/**
 * Whether an actor may change one field of a user (decisions §9): every user their own phone;
 * an admin any phone of the organisation, and the e-mail of anyone holding no permission the admin
 * lacks (docs/decisions/0033: a new address takes the account over through a password reset);
 * only the director the fullname, department, role and system role (their own too).
 */
export function canChangeUserField(actor: Who, target: TargetWithRole, field: UserField): boolean {
  if (!sameOrganization(actor, target)) return false;
  switch (field) {
    case 'phone_number':
      return actor.id === target.id || isAdmin(actor.role);
    case 'email':
      return isAdmin(actor.role) && !holdsPermissionBeyond(target.role as Role, actor.role);
    case 'fullname':
    case 'department':
    case 'role':
    case 'system_role':
      return isSuperAdmin(actor.role);
  }
}

/** Spec §5: only an admin or the account holder can change user values. */
export function canChangeSettings(actor: Who, target: Target): boolean {
  if (!sameOrganization(actor, target)) return false;
  return actor.id === target.id || isAdmin(actor.role);
}

/** Decisions §9: delete users — the director, never their own account. */
export function canDeleteUser(actor: Who, target: Target): boolean {
  if (!sameOrganization(actor, target)) return false;
  return isSuperAdmin(actor.role) && actor.id !== target.id;
}

/** Finance restricts and unrestricts users of its organisation, anyone's but their own. */
export function canRestrictUser(actor: Who, target: Target): boolean {
  return sameOrganization(actor, target) && mayRestrictUser(actor, target);
}

/** Decisions §9: every user changes their own password, nobody another's. */
export function canChangePassword(actor: Who, target: Target): boolean {
  return sameOrganization(actor, target) && actor.id === target.id;
}
