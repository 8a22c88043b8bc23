import { changesBetween } from '@imprest/domain/audit.ts';
import type { ApprovalMatrixResponse } from '@imprest/domain/api/approval-matrix.ts';
import { sortedRows, type ApprovalMatrixRow } from '@imprest/domain/approval-matrix.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { canReadApprovalMatrix, canReplaceApprovalMatrix } from './policy.ts';
import { presentApprovalMatrix } from './presenter.ts';
import { findMatrixRows, replaceMatrixRows } from './queries.ts';

/** The organisation's approval matrix; the default one while none is saved (decisions §3). */
export async function getApprovalMatrix(
  context: AppContext,
  options: { actor: Actor },
): Promise<ApprovalMatrixResponse> {
  const { actor } = options;
  if (!canReadApprovalMatrix(actor))
    throw new AppError('forbidden', 'Only admins can see the approval matrix.');
  return presentApprovalMatrix(await findMatrixRows(context.db, actor.organization_id));
}

/**
 * Replaces the approval matrix in one transaction (director). The rows were checked to cover
 * [0, ∞) once by the request schema; requests already submitted keep their reviewer chain.
 */
export async function replaceApprovalMatrix(
  context: AppContext,
  options: { actor: Actor; rows: ApprovalMatrixRow[] },
): Promise<ApprovalMatrixResponse> {
  const { actor } = options;
  if (!canReplaceApprovalMatrix(actor))
    throw new AppError('forbidden', 'Only a director can change the approval matrix.');
  await context.db.transaction(async (tx) => {
    const before = presentApprovalMatrix(await findMatrixRows(tx, actor.organization_id));
    await replaceMatrixRows(tx, actor.organization_id, sortedRows(options.rows));
    const after = presentApprovalMatrix(await findMatrixRows(tx, actor.organization_id));
    await recordAudit(tx, {
      organizationId: actor.organization_id,
      actor,
      action: 'approval_matrix.updated',
      objectType: 'approval_matrix',
      objectId: null,
      changes: changesBetween<Record<string, unknown>>(before, after, ['rows']),
    });
  });
  return presentApprovalMatrix(await findMatrixRows(context.db, actor.organization_id));
}
