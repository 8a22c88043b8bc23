import { roles, type Role } from '@imprest/domain/enums.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';
import { describe, expect, it } from 'vitest';
import {
  canAttachRetirement,
  canListAllRetirements,
  canReadRetirement,
  canRequestRetirementEdit,
  canReviewRetirementStep,
  canSeeUserRetirements,
  canSubmitRetirement,
  anotherRetirementStepRefusal,
  retirementReviewRefusal,
} from './policy.ts';

const owner = '00000000-0000-4000-8000-000000000001';
const someone = '00000000-0000-4000-8000-000000000002';
const retirement = { retirement_owner_id: owner };
const financeStep = { id: 'step-2', reviewer_role: 'finance_officer' };
/** The round: step 1 answered by `someone` (then a secretary), step 2 (finance) waiting. */
const answeredBySomeone = [
  { id: 'step-1', status: 'approved', reviewer_id: someone },
  { id: 'step-2', status: 'pending', reviewer_id: null },
];
const answeredByAThird = [
  { id: 'step-1', status: 'approved', reviewer_id: '00000000-0000-4000-8000-000000000003' },
  { id: 'step-2', status: 'pending', reviewer_id: null },
];

type Actor = 'owner' | 'other';
const actor = (who: Actor, role: Role) => ({ id: who === 'owner' ? owner : someone, role });

describe('retirement policy: actor × action × retirement → allowed', () => {
  const cases = roles.flatMap((role) =>
    (['owner', 'other'] as const).map((who) => ({
      who,
      role,
      read: who === 'owner' || isAdmin(role),
      submit: who === 'owner',
      requestEdit: who === 'owner',
      review: who === 'other' && role === 'finance_officer',
      listAll: isAdmin(role),
      attach: ['finance_officer', 'executive_secretary', 'director'].includes(role),
    })),
  );

  it.each(cases)('$who $role', (row) => {
    const user = actor(row.who, row.role);
    expect(canReadRetirement(user, retirement)).toBe(row.read);
    expect(canSubmitRetirement(user, retirement)).toBe(row.submit);
    expect(canRequestRetirementEdit(user, retirement)).toBe(row.requestEdit);
    expect(canReviewRetirementStep(user, retirement, financeStep, answeredByAThird)).toBe(
      row.review,
    );
    expect(canListAllRetirements(user)).toBe(row.listAll);
    expect(canAttachRetirement(user)).toBe(row.attach);
  });

  it.each([
    ['staff', someone, true],
    ['staff', owner, false],
    ['finance_officer', owner, true],
    ['admin', owner, true],
  ] as const)('%s (id %s) sees the retirements of user 2 → %s', (role, id, expected) => {
    expect(canSeeUserRetirements({ id, role }, someone)).toBe(expected);
  });
});

describe('retirementReviewRefusal', () => {
  it.each([
    ['the step role', someone, 'finance_officer', null],
    [
      'another reviewer role',
      someone,
      'executive_secretary',
      'Only a Finance Officer can answer this review.',
    ],
    ['staff', someone, 'staff', 'Only a Finance Officer can answer this review.'],
    [
      'the owner with the step role',
      owner,
      'finance_officer',
      'You cannot review your own retirement.',
    ],
    ['the owner with another role', owner, 'director', 'You cannot review your own retirement.'],
  ] as const)('%s → %s', (_name, id, role, refusal) => {
    expect(retirementReviewRefusal({ id, role }, retirement, financeStep, answeredByAThird)).toBe(
      refusal,
    );
  });

  it('someone who answered another step of the round, now holding this step’s role → refused', () => {
    const nowFinance = { id: someone, role: 'finance_officer' as const };
    expect(retirementReviewRefusal(nowFinance, retirement, financeStep, answeredBySomeone)).toBe(
      anotherRetirementStepRefusal,
    );
    expect(canReviewRetirementStep(nowFinance, retirement, financeStep, answeredBySomeone)).toBe(
      false,
    );
    // A step answered in an earlier round is no longer in the round passed in: it does not count.
    expect(
      retirementReviewRefusal(nowFinance, retirement, financeStep, answeredByAThird),
    ).toBeNull();
  });
});
