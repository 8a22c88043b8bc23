import type { AuditEventResponse } from '@imprest/domain/api/audit.ts';
import { Table, Tag, Typography, type TableColumnsType } from 'antd';
import {
  AuditChanges,
  AuditEventSummary,
  AuditObjectLink,
} from '../../../components/history/audit-event-list.tsx';
import { auditActionLabel, auditObjectLabel } from '@imprest/domain/audit-words.ts';
import { contentPadding, sideMenuWidth } from '../../../components/layout/sizes.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useMediaQuery } from '../../../lib/use-media-query.ts';

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

/** The columns of a set width, together. */
const fixedColumnsWidth = columns.reduce(
  (total, column) => total + (typeof column.width === 'number' ? column.width : 0),
  0,
);
/** What changed: the one column that takes the rest of the table's width. */
const changesMinWidth = 220;
/** The narrowest screen whose page holds every column beside the whole side menu (1,260 px). */
const columnsFitFrom =
  fixedColumnsWidth + changesMinWidth + sideMenuWidth.whole + 2 * contentPadding;

/** Where the columns do not fit, each event folds into one block. */
const foldedColumns: TableColumnsType<AuditEventResponse> = [
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
  // Narrower, what changed would be too narrow to read (one letter a line on a tablet).
  const isFolded = useMediaQuery(`(max-width: ${columnsFitFrom - 0.02}px)`);
  return (
    <Table<AuditEventResponse>
      rowKey="id"
      columns={isFolded ? foldedColumns : columns}
      dataSource={events}
      loading={isLoading}
      size="small"
      tableLayout="fixed"
      // The other columns take 760 px; what changed keeps at least 220 px beside them, the table
      // scrolling sideways in its card should they not fit.
      scroll={isFolded ? undefined : { x: changesMinWidth + fixedColumnsWidth }}
      pagination={false}
      // 'No events found!' only once the list is known to be empty, not beside its error.
      locale={{ emptyText: isLoading || isError ? ' ' : 'No events found!' }}
      data-testid="audit-table"
    />
  );
}
