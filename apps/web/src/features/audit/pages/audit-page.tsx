import { DownloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { useDownloadAudit } from '../api/download-audit.ts';
import { useAuditEvents, type AuditFilters } from '../api/get-audit-events.ts';
import { AuditFiltersBar } from '../components/audit-filters.tsx';
import { AuditTable } from '../components/audit-table.tsx';

/**
 * The director's Audit page (issue 15): who did what, when, from where — filtered by person,
 * action, object and dates, newest first, older events on demand, and the same as a spreadsheet.
 */
export function AuditPage() {
  const { message } = App.useApp();
  const [filters, setFilters] = useState<AuditFilters>({});
  const events = useAuditEvents(filters);
  const download = useDownloadAudit();
  const loaded = events.data?.pages.flatMap((page) => page.events) ?? [];

  function handleDownload() {
    download.mutate(filters, {
      onError: (error) => void message.error(error.message),
    });
  }

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="audit-page">
      <Card
        size="small"
        title={<Typography.Text strong>Audit trail</Typography.Text>}
        extra={
          <Button icon={<DownloadOutlined />} onClick={handleDownload} loading={download.isPending}>
            Download
          </Button>
        }
      >
        <AuditFiltersBar value={filters} onChange={setFilters} />
      </Card>
      {events.isError ? <Alert type="error" showIcon title={events.error.message} /> : null}
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <AuditTable events={loaded} isLoading={events.isPending} />
      </Card>
      {events.hasNextPage ? (
        <Button
          block
          onClick={() => void events.fetchNextPage()}
          loading={events.isFetchingNextPage}
          data-testid="audit-older"
        >
          Show older
        </Button>
      ) : null}
    </Space>
  );
}
