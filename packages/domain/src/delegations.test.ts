import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canActAsDelegate,
  canBeDelegate,
  canDelegate,
  canDelegateForOthers,
  delegateProblem,
  delegationDays,
  delegationPeriodProblem,
  delegationStatus,
  delegatorFor,
  delegatorProblem,
  isDelegationActive,
  isDelegationLive,
  maxDelegationDays,
  periodsOverlap,
  type DelegationGrant,
} from './delegations.ts';
import { roles, type Role } from './enums.ts';
import { addDays } from './retirements.ts';

const today = '2026-03-10';

describe('delegationStatus', () => {
  it.each([
    // starts_on, ends_on, ended_at → status on 2026-03-10
    ['2026-03-11', '2026-03-20', null, 'scheduled'], // starts tomorrow
    ['2026-03-10', '2026-03-20', null, 'active'], // the first day is active
    ['2026-03-01', '2026-03-10', null, 'active'], // the last day is active
    ['2026-03-10', '2026-03-10', null, 'active'], // a one-day delegation
    ['2026-03-01', '2026-03-09', null, 'ended'], // the day after the last
    ['2026-03-01', '2026-03-20', new Date('2026-03-05T08:00:00Z'), 'ended'], // ended early
    ['2026-03-11', '2026-03-20', '2026-03-09T08:00:00Z', 'ended'], // cancelled before it began
    ['2025-12-30', '2026-01-02', null, 'ended'], // across a year end, long past
  ] as const)('%s → %s, ended %s: %s', (starts_on, ends_on, ended_at, status) => {
    const delegation = { starts_on, ends_on, ended_at };
    expect(delegationStatus(delegation, today)).toBe(status);
    expect(isDelegationActive(delegation, today)).toBe(status === 'active');
    expect(isDelegationLive(delegation, today)).toBe(status !== 'ended');
  });
});

describe('periodsOverlap', () => {
  it.each([
    ['2026-03-01', '2026-03-10', '2026-03-10', '2026-03-20', true], // share the last / first day
    ['2026-03-01', '2026-03-09', '2026-03-10', '2026-03-20', false], // back to back
    ['2026-03-01', '2026-03-31', '2026-03-10', '2026-03-12', true], // one inside the other
    ['2026-03-10', '2026-03-10', '2026-03-10', '2026-03-10', true], // the same day
    ['2026-04-01', '2026-04-02', '2026-03-01', '2026-03-31', false], // after
  ])('[%s, %s] and [%s, %s] → %s', (aStart, aEnd, bStart, bEnd, expected) => {
    const a = { starts_on: aStart, ends_on: aEnd };
    const b = { starts_on: bStart, ends_on: bEnd };
    expect(periodsOverlap(a, b)).toBe(expected);
    expect(periodsOverlap(b, a)).toBe(expected);
  });

  it('is symmetric and agrees with a day-by-day check', () => {
    const day = fc.integer({ min: 0, max: 60 }).map((offset) => addDays('2026-01-01', offset));
    const period = fc
      .tuple(day, day)
      .map(([x, y]) => (x <= y ? { starts_on: x, ends_on: y } : { starts_on: y, ends_on: x }));
    fc.assert(
      fc.property(period, period, (a, b) => {
        const days = (p: { starts_on: string; ends_on: string }) =>
          Array.from({ length: delegationDays(p.starts_on, p.ends_on) }, (_, index) =>
            addDays(p.starts_on, index),
          );
        const shared = days(a).some((d) => days(b).includes(d));
        expect(periodsOverlap(a, b)).toBe(shared);
        expect(periodsOverlap(b, a)).toBe(shared);
      }),
    );
  });
});

describe('delegationPeriodProblem', () => {
  it.each([
    // starts_on, ends_on → problem on 2026-03-10
    ['2026-03-10', '2026-03-10', null], // today only
    ['2026-03-10', addDays('2026-03-10', maxDelegationDays - 1), null], // 90 days
    [
      '2026-03-10',
      addDays('2026-03-10', maxDelegationDays),
      'A delegation lasts at most 90 days; name it again when it ends.',
    ],
    ['2026-03-09', '2026-03-12', 'A delegation cannot start before today.'],
    ['2026-03-12', '2026-03-11', 'The last day of a delegation cannot be before its first day.'],
    ['2027-03-10', '2027-03-11', null], // 365 days ahead
    ['2027-03-11', '2027-03-12', 'A delegation must start within 365 days from today.'],
  ])('%s to %s → %s', (starts_on, ends_on, problem) => {
    expect(delegationPeriodProblem({ starts_on, ends_on }, today)).toBe(problem);
  });
});

describe('who may delegate and be a delegate', () => {
  const reviewing = new Set<Role>([
    'petty_cash_custodian',
    'finance_officer',
    'executive_secretary',
    'director',
    'board_chairman',
  ]);

  it.each(roles.map((role) => [role, reviewing.has(role)] as const))(
    '%s: delegates and is a delegate → %s',
    (role, expected) => {
      expect(canDelegate(role)).toBe(expected);
      expect(canBeDelegate(role)).toBe(expected);
      expect(canActAsDelegate({ role, is_locked: false })).toBe(expected);
      expect(canActAsDelegate({ role, is_locked: true })).toBe(false);
      expect(canDelegateForOthers(role)).toBe(role === 'director');
    },
  );

  const person = (overrides: Partial<Parameters<typeof delegateProblem>[0]> = {}) => ({
    id: 'b',
    fullname: 'Baraka Custodian',
    role: 'petty_cash_custodian' as Role,
    is_locked: false,
    deleted_at: null,
    ...overrides,
  });

  it.each([
    ['an active reviewer', person(), null],
    ['the delegator', person({ id: 'a' }), 'A delegate must be someone else.'],
    [
      'a deactivated user',
      person({ deleted_at: new Date() }),
      'Baraka Custodian has been deactivated.',
    ],
    [
      'a locked user',
      person({ is_locked: true }),
      "Baraka Custodian's account is locked, so they cannot act for someone else.",
    ],
    [
      'plain staff',
      person({ role: 'staff' }),
      'Baraka Custodian reviews no requests; choose a delegate who does.',
    ],
    [
      'an admin who reviews nothing',
      person({ role: 'admin' }),
      'Baraka Custodian reviews no requests; choose a delegate who does.',
    ],
  ] as const)('delegate: %s → %s', (_name, delegate, problem) => {
    expect(delegateProblem(delegate, { id: 'a' })).toBe(problem);
  });

  it.each([
    ['a reviewer', person(), null],
    [
      'a deactivated user',
      person({ deleted_at: new Date() }),
      'Baraka Custodian has been deactivated.',
    ],
    [
      'staff',
      person({ role: 'staff' }),
      'Baraka Custodian reviews no requests, so has no steps to delegate.',
    ],
    // A locked reviewer still reviews (decisions §9), so may still name a delegate.
    ['a locked reviewer', person({ is_locked: true }), null],
  ] as const)('delegator: %s → %s', (_name, delegator, problem) => {
    expect(delegatorProblem(delegator)).toBe(problem);
  });
});

describe('delegatorFor', () => {
  const grant = (overrides: Partial<DelegationGrant> = {}): DelegationGrant => ({
    delegator_id: 'director',
    delegator_name: 'Eshe Director',
    delegator_role: 'director',
    starts_on: '2026-03-01',
    ends_on: '2026-03-31',
    ended_at: null,
    ...overrides,
  });
  const custodian = { id: 'custodian', role: 'petty_cash_custodian' as Role, is_locked: false };

  it.each([
    ['an active grant of the step role', custodian, 'director', 'staff-1', [grant()], 'director'],
    ['no grant', custodian, 'director', 'staff-1', [], null],
    [
      'a grant of another role',
      custodian,
      'director',
      'staff-1',
      [grant({ delegator_role: 'finance_officer' })],
      null,
    ],
    ['the delegator owns the request', custodian, 'director', 'director', [grant()], null],
    ['the delegate owns the request', custodian, 'director', 'custodian', [grant()], null],
    [
      'a locked delegate',
      { ...custodian, is_locked: true },
      'director',
      'staff-1',
      [grant()],
      null,
    ],
    [
      'a grant not yet begun',
      custodian,
      'director',
      'staff-1',
      [grant({ starts_on: '2026-03-11' })],
      null,
    ],
    [
      'the first grant whose delegator is not the owner',
      custodian,
      'director',
      'director',
      [grant(), grant({ delegator_id: 'director-2', delegator_name: 'Other' })],
      'director-2',
    ],
  ] as const)('%s', (_name, actor, stepRole, ownerId, grants, expected) => {
    expect(delegatorFor({ actor, stepRole, ownerId, grants, today })?.id ?? null).toBe(expected);
  });
});
