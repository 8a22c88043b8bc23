import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import {
  canChangePassword,
  canChangeUserField,
  canCreateUsers,
  canDeleteUser,
  canGiveDirectorPosition,
  canListUsers,
  canReadUser,
  canRestrictUser,
} from './policy.ts';

const organization = '00000000-0000-4000-8000-0000000000a1';
const elsewhere = '00000000-0000-4000-8000-0000000000a2';
const me = '00000000-0000-4000-8000-000000000001';
const targets = {
  self: { id: me, organization_id: organization },
  'same organisation': {
    id: '00000000-0000-4000-8000-000000000002',
    organization_id: organization,
  },
  'other organisation': { id: '00000000-0000-4000-8000-000000000003', organization_id: elsewhere },
} as const;
type TargetName = keyof typeof targets;
type Who = { id: string; role: Role; organization_id: string };
type Target = { id: string; organization_id: string };

/** Every action of decisions §9 on users, as one predicate of actor and target. */
const actions = {
  list: (actor: Who, target: Target) =>
    canListUsers(actor) && actor.organization_id === target.organization_id,
  read: canReadUser,
  create: (actor: Who, target: Target) =>
    canCreateUsers(actor) && actor.organization_id === target.organization_id,
  'create-director': (actor: Who, target: Target) =>
    canCreateUsers(actor) &&
    canGiveDirectorPosition(actor) &&
    actor.organization_id === target.organization_id,
  'update-own-phone': (actor: Who, target: Target) =>
    actor.id === target.id && canChangeUserField(actor, target, 'phone_number'),
  'update-others-phone': (actor: Who, target: Target) =>
    actor.id !== target.id && canChangeUserField(actor, target, 'phone_number'),
  'update-email': (actor: Who, target: Target) => canChangeUserField(actor, target, 'email'),
  'update-name': (actor: Who, target: Target) => canChangeUserField(actor, target, 'fullname'),
  'update-department': (actor: Who, target: Target) =>
    canChangeUserField(actor, target, 'department'),
  'update-role': (actor: Who, target: Target) => canChangeUserField(actor, target, 'role'),
  'update-system-role': (actor: Who, target: Target) =>
    canChangeUserField(actor, target, 'system_role'),
  delete: canDeleteUser,
  restrict: canRestrictUser,
  'change-own-password': canChangePassword,
} as const;
type Action = keyof typeof actions;

const admins: readonly Role[] = roles.filter((role) => role !== 'staff');
const finance: readonly Role[] = ['finance_officer', 'executive_secretary', 'director'];

/** Who may, per target (decisions §9, spec §5, §6); the other organisation is never allowed. */
function expected(role: Role, action: Action, target: TargetName): boolean {
  if (target === 'other organisation') return false;
  const isSelf = target === 'self';
  switch (action) {
    case 'list':
    case 'create':
      return admins.includes(role);
    case 'read':
      return isSelf || admins.includes(role);
    case 'create-director':
      return role === 'director';
    case 'update-own-phone':
      return isSelf;
    case 'update-others-phone':
      return !isSelf && admins.includes(role);
    case 'update-email':
      return admins.includes(role);
    case 'update-name':
    case 'update-department':
    case 'update-role':
    case 'update-system-role':
      return role === 'director';
    case 'delete':
      return !isSelf && role === 'director';
    case 'restrict':
      return !isSelf && finance.includes(role);
    case 'change-own-password':
      return isSelf;
  }
}

const table = roles.flatMap((role) =>
  (Object.keys(actions) as Action[]).flatMap((action) =>
    (Object.keys(targets) as TargetName[]).map(
      (target) => [role, action, target, expected(role, action, target)] as const,
    ),
  ),
);

describe('users policy: actor role × action × target (decisions §9)', () => {
  it('covers 8 roles × 14 actions × 3 targets', () => {
    expect(table).toHaveLength(8 * 14 * 3);
  });

  it.each(table)('%s: %s on %s → %s', (role, action, target, allowed) => {
    const actor = { id: me, role, organization_id: organization };
    expect(actions[action](actor, targets[target])).toBe(allowed);
  });
});
