import type { ApprovalMatrixRowResponse } from '@imprest/domain/api/approval-matrix.ts';
import { formatNumber } from '../../../lib/format.ts';

/** Column and field labels of the approval matrix (spec §2). */
export const matrixLabels = {
  requestedAmount: 'REQUESTED AMOUNT',
  approvalGroup: 'APPROVAL GROUP',
  officers: ['FIRST OFFICER', 'SECOND OFFICER', 'THIRD OFFICER'],
  startAmount: 'Start Amount',
  endAmount: 'End Amount',
  description: 'Description',
  cascadingNotification: 'Cascading Notification',
  reviewers: ['First Reviewer', 'Second Reviewer', 'Third Reviewer'],
} as const;

/** The amounts a row covers: `0 - 150,000,000` or `150,000,000 and above`. */
export function amountRange(
  row: Pick<ApprovalMatrixRowResponse, 'start_value' | 'end_value'>,
): string {
  if (row.end_value === null) return `${formatNumber(row.start_value)} and above`;
  return `${formatNumber(row.start_value)} - ${formatNumber(row.end_value)}`;
}
