import {
  approvalMatrixResponse,
  type ApprovalMatrixResponse,
  type updateApprovalMatrixRequest,
} from '@imprest/domain/api/approval-matrix.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { approvalMatrixQueryKey } from './get-approval-matrix.ts';

export type UpdateApprovalMatrixBody = z.input<typeof updateApprovalMatrixRequest>;

/** PUT approval-matrix {rows}: replaces the matrix (decisions §5; director). */
export function updateApprovalMatrix(
  body: UpdateApprovalMatrixBody,
): Promise<ApprovalMatrixResponse> {
  return apiRequest('approval-matrix', { method: 'PUT', body, schema: approvalMatrixResponse });
}

/** Save mutation; the matrix page shows the saved rows at once. */
export function useUpdateApprovalMatrix() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApprovalMatrix,
    onSuccess: async (matrix) => {
      queryClient.setQueryData(approvalMatrixQueryKey, matrix);
      await queryClient.invalidateQueries({ queryKey: approvalMatrixQueryKey });
    },
  });
}
