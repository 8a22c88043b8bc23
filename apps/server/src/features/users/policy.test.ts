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
// Targets are staff here; whose e-mail an admin may change by the target's position is tested below.
const targets = {
  self: { id: me, organization_id: organization, role: 'staff' },
  'same organisation': {
    id: '00000000-0000-4000-8000-000000000002',
    organization_id: organization,
    role: 'staff',
  },
  'other organisation': {
    id: '00000000-0000-4000-8000-000000000003',
    organization_id: elsewhere,
    role: 'staff',
  },
} as const;
type TargetName = keyof typeof targets;
type Who = { id: string; role: Role; organization_id: string };
type Target = { id: string; organization_id: string; role: Role };

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

describe('an admin changes the e-mail of a user holding no permission the admin lacks (docs/decisions/0033)', () => {
  const superAdmin: readonly Role[] = ['director'];
  const table = roles.flatMap((actorRole) =>
    roles.map((targetRole) => {
      const lacksOne =
        (superAdmin.includes(targetRole) && !superAdmin.includes(actorRole)) ||
        (finance.includes(targetRole) && !finance.includes(actorRole));
      return [actorRole, targetRole, admins.includes(actorRole) && !lacksOne] as const;
    }),
  );

  it('covers 8 × 8 positions, and no one but the director may change a director’s e-mail', () => {
    expect(table).toHaveLength(64);
    expect(table.filter(([, target, allowed]) => target === 'director' && allowed)).toEqual([
      ['director', 'director', true],
    ]);
  });

  it.each(table)('%s changing the e-mail of a %s → %s', (actorRole, targetRole, allowed) => {
    const actor = { id: me, role: actorRole, organization_id: organization };
    const target = { ...targets['same organisation'], role: targetRole };
    expect(canChangeUserField(actor, target, 'email')).toBe(allowed);
  });
});
