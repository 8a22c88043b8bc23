import type { AuditEventResponse } from '@imprest/domain/api/audit.ts';
import type { AuditCursor, AuditRow } from './queries.ts';

/**
 * One event as the API answers it (issue 15); without `showsOrigin` (objectHistoryView in
 * policy.ts) its client address and request id are null.
 */
export function presentAuditEvent(
  row: AuditRow,
  options: { showsOrigin: boolean },
): AuditEventResponse {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    action: row.action,
    object_type: row.object_type,
    object_id: row.object_id,
    object_key: row.page_key,
    changes: (row.changes as AuditEventResponse['changes']) ?? null,
    request_id: options.showsOrigin ? row.request_id : null,
    ip: options.showsOrigin ? row.ip : null,
  };
}

/** The opaque `next_cursor`: the last event's exact time and id, base64url. */
export function encodeAuditCursor(row: AuditRow): string {
  return Buffer.from(`${row.at_text}|${row.id}`).toString('base64url');
}

/** A cursor this server made, or null for anything else. */
export function decodeAuditCursor(cursor: string): AuditCursor | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(\d{1,15})$/.exec(text);
  if (!match?.[1] || !match[2] || Number.isNaN(Date.parse(match[1]))) return null;
  return { at: match[1], id: Number(match[2]) };
}
