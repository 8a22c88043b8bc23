import { defaultApprovalMatrix, type ApprovalMatrixRow } from '@imprest/domain/approval-matrix.ts';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { approvalMatrixRows, users } from '../../db/schema.ts';

export type ApprovalMatrixRecord = typeof approvalMatrixRows.$inferSelect;

/** The organisation's saved rows by start amount (none while the default applies). */
export async function findMatrixRows(
  db: Executor,
  organizationId: string,
): Promise<ApprovalMatrixRecord[]> {
  return matrixRowsQuery(db).execute({ organizationId });
}

/**
 * The statement of findMatrixRows, prepared under a name (issue 13): every submission of a request
 * reads the matrix, and PostgreSQL planned it afresh on each call (decision 0026).
 */
const matrixRowsQuery = preparedOnce((db: Executor) =>
  db
    .select()
    .from(approvalMatrixRows)
    .where(eq(approvalMatrixRows.organization_id, sql.placeholder('organizationId')))
    .orderBy(asc(approvalMatrixRows.start_value))
    .prepare('matrix_rows'),
);

/** The matrix that applies to an organisation: its saved rows, or the default (decisions §3). */
export async function loadApprovalMatrix(
  db: Executor,
  organizationId: string,
): Promise<ApprovalMatrixRow[]> {
  return approvalMatrixFrom(await findMatrixRows(db, organizationId));
}

/** The matrix of an organisation's saved rows, or the default when it has none (decisions §3). */
export function approvalMatrixFrom(
  rows: Pick<
    ApprovalMatrixRecord,
    'start_value' | 'end_value' | 'description' | 'user_role' | 'cascading_notification'
  >[],
): ApprovalMatrixRow[] {
  if (rows.length === 0) return defaultApprovalMatrix();
  return rows.map((row) => ({
    start_value: Number(row.start_value),
    end_value: row.end_value === null ? null : Number(row.end_value),
    description: row.description,
    user_role: row.user_role as ApprovalMatrixRow['user_role'],
    cascading_notification: row.cascading_notification,
  }));
}

/**
 * Takes the organisation's matrix for the rest of the transaction, before reading it: one save
 * per organisation at a time, so two racing saves cannot leave both sets behind, and each reads
 * (and records as its "before") the matrix the other saved.
 */
export async function lockMatrix(tx: Executor, organizationId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(727003, hashtext(${organizationId}))`);
}

/** Replaces an organisation's rows; call inside a transaction holding lockMatrix. */
export async function replaceMatrixRows(
  tx: Executor,
  organizationId: string,
  rows: ApprovalMatrixRow[],
): Promise<void> {
  await tx.delete(approvalMatrixRows).where(eq(approvalMatrixRows.organization_id, organizationId));
  await tx.insert(approvalMatrixRows).values(
    rows.map((row) => ({
      organization_id: organizationId,
      start_value: String(row.start_value),
      end_value: row.end_value === null ? null : String(row.end_value),
      description: row.description,
      user_role: row.user_role,
      cascading_notification: row.cascading_notification,
    })),
  );
}

/**
 * Of `roles`, those some user of the organisation can review as: holding the position, neither
 * locked (a locked user answers no review) nor deleted.
 */
export async function findHeldRoles(
  db: Executor,
  organizationId: string,
  roles: readonly string[],
): Promise<Set<string>> {
  if (roles.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ role: users.role })
    .from(users)
    .where(
      and(
        eq(users.organization_id, organizationId),
        inArray(users.role, [...roles]),
        isNull(users.deleted_at),
        eq(users.is_locked, false),
      ),
    );
  return new Set(rows.map((row) => row.role));
}
