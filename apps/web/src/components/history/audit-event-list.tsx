import type { AuditEventResponse } from '@imprest/domain/api/audit.ts';
import { Tag, Typography } from 'antd';
import {
  auditActionLabel,
  auditChangeLines,
  auditObjectLabel,
} from '@imprest/domain/audit-words.ts';
import { formatDateTime } from '../../lib/format.ts';
import { organisationZone } from '../../lib/organisation-day.ts';

/** What changed, one line a field, long values wrapped (they never push the page sideways). */
export function AuditChanges({ event }: { event: AuditEventResponse }) {
  const lines = auditChangeLines(event, organisationZone());
  if (lines.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <div style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  );
}

/** One event as a compact block: action and time, who, what changed (the phone layout and histories). */
export function AuditEventSummary({
  event,
  showObject = false,
}: {
  event: AuditEventResponse;
  showObject?: boolean;
}) {
  return (
    <div data-testid="audit-event" style={{ minWidth: 0 }}>
      <div>
        <Typography.Text strong>{auditActionLabel(event.action)}</Typography.Text>
        {showObject ? (
          <Tag style={{ marginLeft: 8 }}>{auditObjectLabel(event.object_type)}</Tag>
        ) : null}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {formatDateTime(event.at)} · {event.actor_name}
        {event.ip ? ` · ${event.ip}` : ''}
      </Typography.Text>
      {/* A sign-in changes nothing: the table's "—" would be a line of noise here. */}
      {event.changes && Object.keys(event.changes).length > 0 ? (
        <div style={{ fontSize: 13 }}>
          <AuditChanges event={event} />
        </div>
      ) : null}
    </div>
  );
}
