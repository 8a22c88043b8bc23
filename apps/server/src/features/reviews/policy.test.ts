import type { DelegationGrant } from '@imprest/domain/delegations.ts';
import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canAnswerReview, reviewAuthority, reviewRefusal, type Delegated } from './policy.ts';

const owner = '00000000-0000-4000-8000-000000000001';
const reviewer = '00000000-0000-4000-8000-000000000002';
const directorId = '00000000-0000-4000-8000-000000000003';
const request = { request_owner_id: owner };
const today = '2026-03-10';

const grant = (overrides: Partial<DelegationGrant> = {}): DelegationGrant => ({
  delegator_id: directorId,
  delegator_name: 'Eshe Director',
  delegator_role: 'director',
  starts_on: '2026-03-01',
  ends_on: '2026-03-31',
  ended_at: null,
  ...overrides,
});
const delegated = (...grants: DelegationGrant[]): Delegated => ({ grants, today });
const actor = (role: Role, options: { id?: string; isLocked?: boolean } = {}) => ({
  id: options.id ?? reviewer,
  role,
  is_locked: options.isLocked ?? false,
});

describe('review policy', () => {
  it.each(roles.map((role) => [role, role === 'executive_secretary'] as const))(
    '%s answers an executive secretary step → %s',
    (role, expected) => {
      expect(canAnswerReview(actor(role), request, { reviewer_role: 'executive_secretary' })).toBe(
        expected,
      );
    },
  );

  it.each([
    ['the step role', reviewer, 'finance_officer', null],
    ['another role', reviewer, 'director', 'Only a Finance Officer can answer this review.'],
    ['staff', reviewer, 'staff', 'Only a Finance Officer can answer this review.'],
    [
      'the owner with the step role',
      owner,
      'finance_officer',
      'You cannot review your own request.',
    ],
  ] as const)('%s → %s', (_name, id, role, refusal) => {
    expect(reviewRefusal(actor(role, { id }), request, { reviewer_role: 'finance_officer' })).toBe(
      refusal,
    );
  });
});

describe('review policy for delegates (issue 15)', () => {
  const directorStep = { reviewer_role: 'director' };

  it.each([
    // name, actor, grants, expected authority
    [
      'a delegate of the director, on the director’s step',
      actor('petty_cash_custodian'),
      [grant()],
      { refusal: null, onBehalfOf: { id: directorId, name: 'Eshe Director' } },
    ],
    [
      'on the first day of the period',
      actor('petty_cash_custodian'),
      [grant({ starts_on: today })],
      { refusal: null, onBehalfOf: { id: directorId, name: 'Eshe Director' } },
    ],
    [
      'on the last day of the period',
      actor('petty_cash_custodian'),
      [grant({ ends_on: today })],
      { refusal: null, onBehalfOf: { id: directorId, name: 'Eshe Director' } },
    ],
    [
      'the day after the period',
      actor('petty_cash_custodian'),
      [grant({ ends_on: '2026-03-09' })],
      { refusal: 'Only a Director can answer this review.' },
    ],
    [
      'the day before the period',
      actor('petty_cash_custodian'),
      [grant({ starts_on: '2026-03-11' })],
      { refusal: 'Only a Director can answer this review.' },
    ],
    [
      'a delegation ended early',
      actor('petty_cash_custodian'),
      [grant({ ended_at: new Date('2026-03-05T10:00:00Z') })],
      { refusal: 'Only a Director can answer this review.' },
    ],
    [
      'a delegate of someone with another role',
      actor('petty_cash_custodian'),
      [grant({ delegator_role: 'executive_secretary' })],
      { refusal: 'Only a Director can answer this review.' },
    ],
    [
      'the delegate owns the request',
      actor('petty_cash_custodian', { id: owner }),
      [grant()],
      { refusal: 'You cannot review your own request.' },
    ],
    [
      'the delegator owns the request',
      actor('petty_cash_custodian'),
      [grant({ delegator_id: owner })],
      { refusal: 'Eshe Director owns this request, so you cannot answer it on their behalf.' },
    ],
    [
      'two delegators, one of them the owner: for the other',
      actor('petty_cash_custodian'),
      [
        grant({ delegator_id: owner, delegator_name: 'Owning Director' }),
        grant({ delegator_name: 'Other Director' }),
      ],
      { refusal: null, onBehalfOf: { id: directorId, name: 'Other Director' } },
    ],
    [
      'a locked delegate',
      actor('petty_cash_custodian', { isLocked: true }),
      [grant()],
      { refusal: 'Your account is locked, so you cannot answer for someone else.' },
    ],
    [
      'a delegate who no longer reviews requests',
      actor('staff'),
      [grant()],
      { refusal: 'You no longer review requests, so you cannot answer for someone else.' },
    ],
    [
      'the step role itself: in their own right, whatever the grants',
      actor('director'),
      [grant({ delegator_id: '00000000-0000-4000-8000-000000000009' })],
      { refusal: null, onBehalfOf: null },
    ],
  ] as const)('%s', (_name, who, grants, expected) => {
    expect(reviewAuthority(who, request, directorStep, delegated(...grants))).toEqual(expected);
  });

  it('no chaining: only the grants of the delegate themselves count', () => {
    // The secretary delegated to the custodian; the director delegated to the secretary. The
    // custodian holds only the secretary's grant, so the director's step is not theirs.
    expect(
      reviewRefusal(
        actor('petty_cash_custodian'),
        request,
        directorStep,
        delegated(grant({ delegator_role: 'executive_secretary', delegator_name: 'Daudi' })),
      ),
    ).toBe('Only a Director can answer this review.');
  });
});
