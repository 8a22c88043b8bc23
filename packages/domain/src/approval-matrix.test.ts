import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  approvalGroup,
  approvalMatrixProblem,
  approvalRowFor,
  defaultApprovalMatrix,
  matrixPositions,
  rowHolds,
  type ApprovalMatrixRow,
} from './approval-matrix.ts';
import { updateApprovalMatrixRequest } from './api/approval-matrix.ts';
import { maxAmount } from './money.ts';

describe('approvalGroup', () => {
  it.each([
    [0, 'B'],
    [1, 'B'],
    [149_999_999.99, 'B'],
    [150_000_000, 'A'],
    [150_000_000.01, 'A'],
    [10_000_000_000, 'A'],
  ])('%d → group %s', (amount, group) => {
    expect(approvalGroup(amount)).toBe(group);
  });
});

describe('approvalRowFor on the default matrix', () => {
  const matrix = defaultApprovalMatrix();

  it.each([
    [0, ['finance_officer', 'executive_secretary']],
    [100_000, ['finance_officer', 'executive_secretary']],
    [149_999_999.99, ['finance_officer', 'executive_secretary']],
    [150_000_000, ['finance_officer', 'executive_secretary', 'director']],
    [5_000_000_000, ['finance_officer', 'executive_secretary', 'director']],
  ])('%d → %j', (amount, roles) => {
    expect(approvalRowFor(matrix, amount)?.user_role).toEqual(roles);
  });

  it('agrees with approvalGroup and is itself valid', () => {
    expect(approvalMatrixProblem(matrix)).toBeNull();
    expect(approvalRowFor(matrix, 149_999_999)?.description).toBe('Group B');
    expect(approvalRowFor(matrix, 150_000_000)?.description).toBe('Group A');
  });

  it('is a fresh copy each time', () => {
    const first = defaultApprovalMatrix();
    first[0]?.user_role.push('director');
    expect(defaultApprovalMatrix()[0]?.user_role).toEqual([
      'finance_officer',
      'executive_secretary',
    ]);
  });
});

const row = (
  start: number,
  end: number | null,
): Pick<ApprovalMatrixRow, 'start_value' | 'end_value'> => ({
  start_value: start,
  end_value: end,
});

describe('approvalMatrixProblem', () => {
  it.each([
    ['one open row', [row(0, null)], null],
    ['two rows in any order', [row(100, null), row(0, 100)], null],
    ['three rows', [row(0, 10), row(10, 1000), row(1000, null)], null],
    ['no rows', [], 'Add at least one row to the approval matrix.'],
    ['a start above 0', [row(5, null)], 'The first row of the approval matrix must start at 0.'],
    ['a gap', [row(0, 100), row(200, null)], 'Amounts from 100 to 200 have no row.'],
    ['an overlap', [row(0, 200), row(100, null)], 'The rows starting at 0 and 100 overlap.'],
    ['two open rows', [row(0, null), row(100, null)], 'The rows starting at 0 and 100 overlap.'],
    [
      'a closed last row',
      [row(0, 100), row(100, 1_000_000)],
      'Amounts from 1,000,000 have no row; leave the end amount of the last row empty.',
    ],
    [
      'an empty row',
      [row(0, 0), row(0, null)],
      'The row starting at 0 must end above its start amount.',
    ],
    [
      'an inverted row',
      [row(0, 100), row(100, 50), row(50, null)],
      'The row starting at 100 must end above its start amount.',
    ],
  ])('%s', (_name, rows, problem) => {
    expect(approvalMatrixProblem(rows)).toBe(problem);
  });

  /** Valid matrices: sorted distinct cut points from 0, the last row open. */
  const validMatrix = fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000_000_000 }), { maxLength: 6 })
    .map((cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b)];
      return points.map((start, index) => row(start, points[index + 1] ?? null));
    })
    .chain((rows) => fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }));

  it('every amount ≥ 0 maps to exactly one row of a valid matrix', () => {
    fc.assert(
      fc.property(
        validMatrix,
        fc.double({ min: 0, max: maxAmount, noNaN: true }),
        (rows, amount) => {
          expect(approvalMatrixProblem(rows)).toBeNull();
          expect(rows.filter((candidate) => rowHolds(candidate, amount))).toHaveLength(1);
          expect(approvalRowFor(rows, amount)).toBeDefined();
        },
      ),
    );
  });

  it('every cut point belongs to the row that starts there', () => {
    fc.assert(
      fc.property(validMatrix, (rows) => {
        for (const candidate of rows)
          expect(approvalRowFor(rows, candidate.start_value)).toBe(candidate);
      }),
    );
  });
});

describe('updateApprovalMatrixRequest', () => {
  const valid = {
    rows: [
      {
        start_value: 0,
        end_value: 1_000_000,
        description: 'Small',
        user_role: ['petty_cash_custodian'],
      },
      {
        start_value: 1_000_000,
        user_role: ['finance_officer', 'executive_secretary', 'director', 'board_chairman'],
      },
    ],
  };

  it('accepts a covering matrix and fills the defaults', () => {
    const parsed = updateApprovalMatrixRequest.parse(valid);
    expect(parsed.rows[1]).toEqual({
      start_value: 1_000_000,
      end_value: null,
      description: '',
      user_role: ['finance_officer', 'executive_secretary', 'director', 'board_chairman'],
      cascading_notification: false,
    });
  });

  it.each([
    [
      'no reviewer',
      { rows: [{ start_value: 0, end_value: null, user_role: [] }] },
      'at least one reviewer role',
    ],
    [
      'five reviewers',
      {
        rows: [
          {
            start_value: 0,
            user_role: [
              'petty_cash_custodian',
              'finance_officer',
              'executive_secretary',
              'director',
              'board_chairman',
            ],
          },
        ],
      },
      'at most 4',
    ],
    [
      'a non-reviewer role',
      { rows: [{ start_value: 0, user_role: ['staff'] }] },
      'Reviewer roles must be one of',
    ],
    [
      'a repeated role',
      { rows: [{ start_value: 0, user_role: ['director', 'director'] }] },
      'only once',
    ],
    [
      'a negative start',
      { rows: [{ start_value: -1, user_role: ['director'] }] },
      'must not be negative',
    ],
    ['a text amount', { rows: [{ start_value: '0', user_role: ['director'] }] }, 'must be numbers'],
    [
      'a gap',
      {
        rows: [
          { start_value: 0, end_value: 5, user_role: ['director'] },
          { start_value: 6, user_role: ['director'] },
        ],
      },
      'have no row',
    ],
  ])('refuses %s', (_name, body, message) => {
    const result = updateApprovalMatrixRequest.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join(' | ')).toContain(message);
  });
});

describe('matrixPositions', () => {
  it('names each position of the default matrix once, in the hierarchy’s order', () => {
    expect(matrixPositions(defaultApprovalMatrix())).toEqual([
      'finance_officer',
      'executive_secretary',
      'director',
    ]);
  });

  it('orders positions by the hierarchy, not by where the rows name them', () => {
    expect(
      matrixPositions([
        { user_role: ['board_chairman'] },
        { user_role: ['finance_officer', 'director'] },
      ]),
    ).toEqual(['finance_officer', 'director', 'board_chairman']);
  });
});
