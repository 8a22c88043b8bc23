import { changesBetween } from '@imprest/domain/audit.ts';
import type {
  ApprovalMatrixResponse,
  ApprovalMatrixVacanciesResponse,
} from '@imprest/domain/api/approval-matrix.ts';
import {
  matrixPositions,
  sortedRows,
  type ApprovalMatrixRow,
} from '@imprest/domain/approval-matrix.ts';
import type { AppContext } from '../../context.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit } from '../audit/record.ts';
import { assertIfMatch, entityTag } from '../../lib/entity-tag.ts';
import { AppError } from '../../lib/errors.ts';
import {
  canReadApprovalMatrix,
  canReadMatrixVacancies,
  canReplaceApprovalMatrix,
} from './policy.ts';
import { presentApprovalMatrix } from './presenter.ts';
import {
  approvalMatrixFrom,
  findMatrixRows,
  findHeldRoles,
  lockMatrix,
  loadApprovalMatrix,
  replaceMatrixRows,
} from './queries.ts';

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
 * The positions of the matrix in force that nobody can review as (admins): a request reaching one
 * of those steps would wait there, so the web warns where the users and the matrix are kept.
 */
export async function getMatrixVacancies(
  context: AppContext,
  options: { actor: Actor },
): Promise<ApprovalMatrixVacanciesResponse> {
  const { actor } = options;
  if (!canReadMatrixVacancies(actor))
    throw new AppError('forbidden', 'Only admins can see which positions nobody holds.');
  const positions = matrixPositions(await loadApprovalMatrix(context.db, actor.organization_id));
  const held = await findHeldRoles(context.db, actor.organization_id, positions);
  return { roles: positions.filter((role) => !held.has(role)) };
}

/** A matrix's rows in a fixed shape, to tell whether a save changes anything. */
function rowsKey(rows: ApprovalMatrixRow[]): string {
  return JSON.stringify(
    rows.map((row) => [
      row.start_value,
      row.end_value,
      row.description,
      row.user_role,
      row.cascading_notification,
    ]),
  );
}

/**
 * Replaces the approval matrix in one transaction (director) holding the organisation's matrix
 * lock from before its first read. The rows were checked to cover [0, ∞) once by the request
 * schema; requests already submitted keep their reviewer chain. Saving the rows in force again (the
 * saved ones, or the default's while it is in force) writes nothing (docs/decisions/0019); the audit event records the rows before → after, without the row
 * ids every save renews. With `ifMatch` (the `If-Match` header), a matrix saved meanwhile by
 * someone else refuses it (412, docs/decisions/0035).
 */
export async function replaceApprovalMatrix(
  context: AppContext,
  options: { actor: Actor; rows: ApprovalMatrixRow[]; ifMatch?: string | undefined },
): Promise<ApprovalMatrixResponse> {
  const { actor } = options;
  const organizationId = actor.organization_id;
  if (!canReplaceApprovalMatrix(actor))
    throw new AppError('forbidden', 'Only a director can change the approval matrix.');
  const { saved, isChanged } = await context.db.transaction(async (tx) => {
    await lockMatrix(tx, organizationId);
    const records = await findMatrixRows(tx, organizationId);
    assertIfMatch(
      options.ifMatch,
      entityTag(presentApprovalMatrix(records)),
      'The approval matrix was changed by someone else after you opened it. Check it and save again.',
    );
    const before = approvalMatrixFrom(records);
    const rows = sortedRows(options.rows);
    // The rows in force again, saved or the default: nothing changes, nothing is written.
    if (rowsKey(before) === rowsKey(rows)) return { saved: records, isChanged: false };
    await replaceMatrixRows(tx, organizationId, rows);
    const after = await findMatrixRows(tx, organizationId);
    await recordAudit(tx, {
      organizationId,
      actor,
      action: 'approval_matrix.updated',
      objectType: 'approval_matrix',
      objectId: null,
      changes: changesBetween<Record<string, unknown>>(
        { rows: before },
        { rows: approvalMatrixFrom(after) },
        ['rows'],
      ),
    });
    return { saved: after, isChanged: true };
  });
  // Open views and forms of the matrix read it again (docs/decisions/0035).
  if (isChanged) context.events.publish(organizationId, 'approval_matrix_updated', {});
  return presentApprovalMatrix(saved);
}
