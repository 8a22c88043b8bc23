import {
  approvalMatrixResponse,
  type ApprovalMatrixResponse,
} from '@imprest/domain/api/approval-matrix.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequestVersioned, type Versioned } from '../../../lib/api-client.ts';

export const approvalMatrixQueryKey = ['approval-matrix'] as const;

/** GET approval-matrix: the rows by start amount (decisions §5; every user), and their version. */
export function getApprovalMatrix(): Promise<Versioned<ApprovalMatrixResponse>> {
  return apiRequestVersioned('approval-matrix', { schema: approvalMatrixResponse });
}

/** The organisation's approval matrix. */
export function useApprovalMatrix() {
  return useQuery({ queryKey: approvalMatrixQueryKey, queryFn: getApprovalMatrix });
}
