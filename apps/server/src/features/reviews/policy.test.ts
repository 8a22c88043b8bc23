import { roles } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canAnswerReview, reviewRefusal } from './policy.ts';

const owner = '00000000-0000-4000-8000-000000000001';
const reviewer = '00000000-0000-4000-8000-000000000002';
const request = { request_owner_id: owner };

describe('review policy', () => {
  it.each(roles.map((role) => [role, role === 'executive_secretary'] as const))(
    '%s answers an executive secretary step → %s',
    (role, expected) => {
      expect(
        canAnswerReview({ id: reviewer, role }, request, { reviewer_role: 'executive_secretary' }),
      ).toBe(expected);
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
    expect(reviewRefusal({ id, role }, request, { reviewer_role: 'finance_officer' })).toBe(
      refusal,
    );
  });
});
