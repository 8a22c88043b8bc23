import type { AuditAction, AuditChanges, AuditObjectType } from '@imprest/domain/audit.ts';
import { systemActorName } from '@imprest/domain/audit.ts';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { DrawnValue } from '../../db/drawn.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import { auditEvents } from '../../db/schema.ts';
import { currentOrigin } from '../../lib/request-origin.ts';

/** One change for the audit trail (issue 15; docs/decisions/0019). */
export type AuditEvent = {
  /** Null only for a failed sign-in with an e-mail no organisation knows. */
  organizationId: string | null;
  /**
   * The person who made the change; null for the system (the lock job). A failed sign-in has no
   * id: its name is the e-mail that was tried.
   */
  actor: { id: string | null; fullname: string } | null;
  action: AuditAction;
  objectType: AuditObjectType;
  objectId: string | null;
  /** Before → after of the fields that changed (`changesBetween`); null when there is nothing to show. */
  changes?: AuditChanges | null;
  /** A value drawn in the transaction whose marker the changes hold (docs/decisions/0054). */
  carries?: DrawnValue;
};

/** Changes as the trail gets them, with the drawn value in place of its marker. */
function carried(changes: AuditChanges, drawn: DrawnValue): SQL<AuditChanges> {
  return sql<AuditChanges>`${drawn.into(JSON.stringify(changes))}::jsonb`;
}

const insertAuditRows = preparedInsert<typeof auditEvents.$inferInsert>(
  auditEvents,
  'insert_audit_events',
);

/** Rows a single INSERT carries: 10 parameters a row stay far below PostgreSQL's 65,535. */
const rowsPerInsert = 1000;

/**
 * Appends events to the audit trail in the caller's transaction, so they commit or roll back with
 * the change they describe. The request id and client address come from the API call being
 * served (lib/request-origin.ts), none for the system.
 */
export async function recordAudit(tx: Executor, ...events: AuditEvent[]): Promise<void> {
  const origin = currentOrigin();
  const rows = events.map((event) => ({
    organization_id: event.organizationId,
    actor_id: event.actor?.id ?? null,
    actor_name: event.actor?.fullname ?? systemActorName,
    action: event.action,
    object_type: event.objectType,
    object_id: event.objectId,
    changes:
      event.changes && event.carries
        ? carried(event.changes, event.carries)
        : (event.changes ?? null),
    request_id: origin?.requestId ?? null,
    ip: origin?.ip ?? null,
  }));
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    await insertAuditRows(tx, rows.slice(start, start + rowsPerInsert));
  }
}
