import { approvalThreshold } from './constants.ts';
import { formatAmountNumber } from './money.ts';
import { reviewerHierarchy, type ReviewerRole } from './requests.ts';

/** One row of an approval matrix: amounts in [start_value, end_value) go to `user_role` in order. */
export type ApprovalMatrixRow = {
  start_value: number;
  /** Null means no upper bound. */
  end_value: number | null;
  description: string;
  user_role: ReviewerRole[];
  cascading_notification: boolean;
};

type Range = Pick<ApprovalMatrixRow, 'start_value' | 'end_value'>;

/** The amounts a row covers as the matrix page writes them: `0 - 150,000,000`, `… and above`. */
export function amountRange(row: Range): string {
  if (row.end_value === null) return `${formatAmountNumber(row.start_value)} and above`;
  return `${formatAmountNumber(row.start_value)} - ${formatAmountNumber(row.end_value)}`;
}

export type ApprovalGroup = 'A' | 'B';

/** The approval group of an amount in tzs: A at or above 150,000,000, otherwise B (spec §6, §9). */
export function approvalGroup(amount: number): ApprovalGroup {
  return amount >= approvalThreshold ? 'A' : 'B';
}

/** The matrix that applies while an organisation has not saved its own (decisions §3). */
export function defaultApprovalMatrix(): ApprovalMatrixRow[] {
  return [
    {
      start_value: 0,
      end_value: approvalThreshold,
      description: 'Group B',
      user_role: ['finance_officer', 'executive_secretary'],
      cascading_notification: false,
    },
    {
      start_value: approvalThreshold,
      end_value: null,
      description: 'Group A',
      user_role: ['finance_officer', 'executive_secretary', 'director'],
      cascading_notification: false,
    },
  ];
}

/** Whether an amount lies in a row's [start_value, end_value). */
export function rowHolds(row: Range, amount: number): boolean {
  return amount >= row.start_value && (row.end_value === null || amount < row.end_value);
}

/** The row whose [start_value, end_value) holds an amount in the base currency (decisions §3). */
export function approvalRowFor<R extends Range>(
  rows: readonly R[],
  amountInBase: number,
): R | undefined {
  return rows.find((row) => rowHolds(row, amountInBase));
}

/** Rows ordered by their start amount. */
export function sortedRows<R extends Range>(rows: readonly R[]): R[] {
  return [...rows].sort((a, b) => a.start_value - b.start_value);
}

const amountText = (value: number) => value.toLocaleString('en-GB');

/**
 * Why a matrix does not cover [0, ∞) exactly once, or null when it does (decisions §5): it starts
 * at 0, each row ends where the next begins, and only the last row is open-ended.
 */
export function approvalMatrixProblem(rows: readonly Range[]): string | null {
  if (rows.length === 0) return 'Add at least one row to the approval matrix.';
  const sorted = sortedRows(rows);
  const first = sorted[0];
  if (first && first.start_value !== 0)
    return 'The first row of the approval matrix must start at 0.';
  const inverted = sorted.find((row) => row.end_value !== null && row.end_value <= row.start_value);
  if (inverted)
    return `The row starting at ${amountText(inverted.start_value)} must end above its start amount.`;
  for (const [index, row] of sorted.entries()) {
    const next = sorted[index + 1];
    if (!next) {
      if (row.end_value !== null) {
        return `Amounts from ${amountText(row.end_value)} have no row; leave the end amount of the last row empty.`;
      }
      continue;
    }
    if (row.end_value === null || next.start_value < row.end_value) {
      return `The rows starting at ${amountText(row.start_value)} and ${amountText(next.start_value)} overlap.`;
    }
    if (next.start_value > row.end_value) {
      return `Amounts from ${amountText(row.end_value)} to ${amountText(next.start_value)} have no row.`;
    }
  }
  return null;
}

/**
 * The reviewer positions a matrix sends requests to, each once, in the hierarchy's order: the
 * positions someone must hold for every request to find its reviewers (docs/decisions/0040).
 */
export function matrixPositions(
  rows: readonly Pick<ApprovalMatrixRow, 'user_role'>[],
): ReviewerRole[] {
  const used = new Set(rows.flatMap((row) => row.user_role));
  return reviewerHierarchy.filter((role) => used.has(role));
}
