import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import {
  canEndDelegation,
  canListAllDelegations,
  canReadDelegation,
  createDelegationRefusal,
} from './policy.ts';

const me = '00000000-0000-4000-8000-000000000001';
const someone = '00000000-0000-4000-8000-000000000002';
const another = '00000000-0000-4000-8000-000000000003';
const reviewing = new Set<Role>([
  'petty_cash_custodian',
  'finance_officer',
  'executive_secretary',
  'director',
  'board_chairman',
]);

describe('delegation policy', () => {
  it.each(roles.map((role) => [role] as const))('%s creates, reads, ends', (role) => {
    const actor = { id: me, role };
    expect(createDelegationRefusal(actor, me)).toBe(
      reviewing.has(role) ? null : 'Only someone who reviews requests can name a delegate.',
    );
    expect(createDelegationRefusal(actor, someone)).toBe(
      role === 'director' ? null : 'Only the director can set a delegation for someone else.',
    );
    const mine = { delegator_id: me, delegate_id: someone };
    const forMe = { delegator_id: someone, delegate_id: me };
    const others = { delegator_id: someone, delegate_id: another };
    // actor × record → [read, end]
    expect([canReadDelegation(actor, mine), canEndDelegation(actor, mine)]).toEqual([true, true]);
    expect([canReadDelegation(actor, forMe), canEndDelegation(actor, forMe)]).toEqual([
      true,
      role === 'director',
    ]);
    expect([canReadDelegation(actor, others), canEndDelegation(actor, others)]).toEqual([
      role === 'director',
      role === 'director',
    ]);
    expect(canListAllDelegations(actor)).toBe(role === 'director');
  });
});
