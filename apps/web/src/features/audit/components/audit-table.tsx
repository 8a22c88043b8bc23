import type { AuditEventResponse } from '@imprest/domain/api/audit.ts';
import { Table, Tag, Typography, type TableColumnsType } from 'antd';
import {
  AuditChanges,
  AuditEventSummary,
  AuditObjectLink,
} from '../../../components/history/audit-event-list.tsx';
import { auditActionLabel, auditObjectLabel } from '@imprest/domain/audit-words.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';

const columns: TableColumnsType<AuditEventResponse> = [
  {
    title: 'WHEN',
    key: 'at',
    width: 170,
    render: (_value, event) => (
      <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at)}</span>
    ),
  },
  { title: 'WHO', key: 'actor', width: 150, render: (_value, event) => event.actor_name },
  {
    title: 'ACTION',
    key: 'action',
    width: 170,
    render: (_value, event) => auditActionLabel(event.action),
  },
  {
    title: 'OBJECT',
    key: 'object',
    width: 160,
    render: (_value, event) => (
      <div style={{ minWidth: 0 }}>
        <Tag>{auditObjectLabel(event.object_type)}</Tag>
        {event.object_id ? (
          <Typography.Text
            type="secondary"
            style={{ fontSize: 12 }}
            copyable={{ text: event.object_id }}
          >
            <AuditObjectLink event={event}>{event.object_id.slice(0, 8)}</AuditObjectLink>
          </Typography.Text>
        ) : null}
      </div>
    ),
  },
  { title: 'CHANGES', key: 'changes', render: (_value, event) => <AuditChanges event={event} /> },
  {
    title: 'ADDRESS',
    key: 'ip',
    width: 110,
    render: (_value, event) => event.ip ?? '—',
  },
];

/** At 375 px the columns fold into one block an event. */
const mobileColumns: TableColumnsType<AuditEventResponse> = [
  {
    title: 'EVENT',
    key: 'event',
    render: (_value, event) => <AuditEventSummary event={event} showObject />,
  },
];

/** The events loaded so far, newest first. */
export function AuditTable({
  events,
  isLoading,
  isError = false,
}: {
  events: AuditEventResponse[];
  isLoading: boolean;
  /** The list failed to load: its error says so, and the empty text would claim there is none. */
  isError?: boolean;
}) {
  const isMobile = useIsMobile();
  return (
    <Table<AuditEventResponse>
      rowKey="id"
      columns={isMobile ? mobileColumns : columns}
      dataSource={events}
      loading={isLoading}
      size="small"
      tableLayout="fixed"
      pagination={false}
      // 'No events found!' only once the list is known to be empty, not beside its error.
      locale={{ emptyText: isLoading || isError ? ' ' : 'No events found!' }}
      data-testid="audit-table"
    />
  );
}
