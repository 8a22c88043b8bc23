import type {
  ApprovalMatrixResponse,
  ApprovalMatrixRowResponse,
} from '@imprest/domain/api/approval-matrix.ts';
import { defaultApprovalMatrix, type ApprovalMatrixRow } from '@imprest/domain/approval-matrix.ts';
import type { ApprovalMatrixRecord } from './queries.ts';

function presentRow(row: ApprovalMatrixRow, id: string | null): ApprovalMatrixRowResponse {
  return {
    id,
    start_value: row.start_value,
    end_value: row.end_value,
    description: row.description,
    user_role: row.user_role,
    cascading_notification: row.cascading_notification,
  };
}

/** The approval matrix object: the saved rows, or the default rows (without ids) when none is saved. */
export function presentApprovalMatrix(records: ApprovalMatrixRecord[]): ApprovalMatrixResponse {
  if (records.length === 0) {
    return { rows: defaultApprovalMatrix().map((row) => presentRow(row, null)), is_default: true };
  }
  return {
    rows: records.map((record) =>
      presentRow(
        {
          start_value: Number(record.start_value),
          end_value: record.end_value === null ? null : Number(record.end_value),
          description: record.description,
          user_role: record.user_role as ApprovalMatrixRow['user_role'],
          cascading_notification: record.cascading_notification,
        },
        record.id,
      ),
    ),
    is_default: false,
  };
}
