import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canRestrictUser } from './policy.ts';

const organization = '00000000-0000-4000-8000-0000000000a1';
const elsewhere = '00000000-0000-4000-8000-0000000000a2';
const me = '00000000-0000-4000-8000-000000000001';
const colleague = { id: '00000000-0000-4000-8000-000000000002', organization_id: organization };
const actor = (role: Role) => ({ id: me, role, organization_id: organization });
const finance: Role[] = ['finance_officer', 'executive_secretary', 'director'];

describe('users policy: restrict', () => {
  it.each(roles.map((role) => [role, finance.includes(role)] as const))(
    '%s restricts a colleague → %s',
    (role, expected) => {
      expect(canRestrictUser(actor(role), colleague)).toBe(expected);
    },
  );

  it.each([
    // actor, target, allowed
    [
      'finance officer, own account',
      actor('finance_officer'),
      { id: me, organization_id: organization },
      false,
    ],
    ['director, own account', actor('director'), { id: me, organization_id: organization }, false],
    [
      'finance officer, another organisation',
      actor('finance_officer'),
      { ...colleague, organization_id: elsewhere },
      false,
    ],
  ])('%s → %s', (_name, who, target, expected) => {
    expect(canRestrictUser(who, target)).toBe(expected);
  });
});
