import type { AuditEventResponse } from '@imprest/domain/api/audit.ts';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  auditActionLabel,
  auditChangeLines,
  auditObjectLabel,
} from '@imprest/domain/audit-words.ts';
import { formatDateTime } from '../../lib/format.ts';
import { organisationZone } from '../../lib/organisation-day.ts';
import { paths } from '../../paths.ts';

/**
 * The page of an event's object where there is one to open: a request's, a user's, a retirement's
 * (on its request's page) and a budget's (by its code); the server names the last two's keys.
 */
function objectHref(event: AuditEventResponse): string | null {
  if (!event.object_id) return null;
  if (event.object_type === 'request') return paths.dashboard.request.getHref(event.object_id);
  if (event.object_type === 'user') return paths.dashboard.viewUser.getHref(event.object_id);
  if (!event.object_key) return null;
  if (event.object_type === 'retirement')
    return paths.dashboard.retirement.getHref(event.object_key);
  if (event.object_type === 'budget') return paths.dashboard.budget.getHref(event.object_key);
  return null;
}

/** The event's object as a link to its page where it has one, else the children as they are. */
export function AuditObjectLink({
  event,
  children,
}: {
  event: AuditEventResponse;
  children: ReactNode;
}) {
  const href = objectHref(event);
  if (!href) return <>{children}</>;
  return (
    <Link to={href} title={`Open this ${auditObjectLabel(event.object_type).toLowerCase()}`}>
      {children}
    </Link>
  );
}

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
          <>
            <Tag style={{ marginLeft: 8 }}>{auditObjectLabel(event.object_type)}</Tag>
            {event.object_id && objectHref(event) ? (
              <span style={{ fontSize: 12 }}>
                <AuditObjectLink event={event}>{event.object_id.slice(0, 8)}</AuditObjectLink>
              </span>
            ) : null}
          </>
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
