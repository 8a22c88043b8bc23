import {
  approvalMatrixResponse,
  type ApprovalMatrixResponse,
  type updateApprovalMatrixRequest,
} from '@imprest/domain/api/approval-matrix.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequestVersioned, isApiError, type Versioned } from '../../../lib/api-client.ts';
import { approvalMatrixQueryKey } from './get-approval-matrix.ts';

export type UpdateApprovalMatrixBody = z.input<typeof updateApprovalMatrixRequest>;

type UpdateApprovalMatrix = {
  body: UpdateApprovalMatrixBody;
  /** The version of the matrix the form shows (docs/decisions/0035). */
  version: string | null;
};

/**
 * PUT approval-matrix {rows}: replaces the matrix (decisions §5; director), refused (412) when
 * someone else saved it since the version the form shows.
 */
export function updateApprovalMatrix({
  body,
  version,
}: UpdateApprovalMatrix): Promise<Versioned<ApprovalMatrixResponse>> {
  return apiRequestVersioned('approval-matrix', {
    method: 'PUT',
    body,
    ifMatch: version,
    schema: approvalMatrixResponse,
  });
}

/** Save mutation; the matrix page shows the saved rows at once, the form the stored ones after a refusal. */
export function useUpdateApprovalMatrix() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApprovalMatrix,
    onSuccess: async (matrix) => {
      queryClient.setQueryData(approvalMatrixQueryKey, matrix);
      await queryClient.invalidateQueries({ queryKey: approvalMatrixQueryKey });
    },
    onError: async (error) => {
      if (isApiError(error, 412))
        await queryClient.invalidateQueries({ queryKey: approvalMatrixQueryKey });
    },
  });
}
