import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { LoadError } from '../../../components/load-error.tsx';
import { downloadFailed } from '../../../lib/api-download.ts';
import { firstClickOnly } from '../../../lib/first-click.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { useDownloadAudit } from '../api/download-audit.ts';
import { useAuditEvents, type AuditFilters } from '../api/get-audit-events.ts';
import { AuditFiltersBar } from '../components/audit-filters.tsx';
import { AuditTable } from '../components/audit-table.tsx';
import { DirectorOnly } from '../components/director-only.tsx';

/**
 * The director's Audit page (issue 15): who did what, when, from where — filtered by person,
 * action, object and dates, newest first, older events on demand, and the same as a spreadsheet.
 */
export function AuditPage() {
  return (
    <DirectorOnly>
      <AuditTrail />
    </DirectorOnly>
  );
}

function AuditTrail() {
  const { message } = App.useApp();
  const [filters, setFilters] = useState<AuditFilters>({});
  const events = useAuditEvents(filters);
  const download = useDownloadAudit();
  // A double click saves one file.
  const sendDownload = useOneAtATime(download);
  const loaded = events.data?.pages.flatMap((page) => page.events) ?? [];

  function handleDownload() {
    sendDownload(filters, {
      // Spec §8, with the reason beside it.
      onError: (error) => void message.error(`${downloadFailed}: ${error.message}`),
    });
  }

  return (
    <Flex vertical gap="middle" data-testid="audit-page">
      <Card
        size="small"
        title={<Typography.Text strong>Audit trail</Typography.Text>}
        extra={
          <Button
            icon={<DownloadOutlined />}
            onClick={firstClickOnly(handleDownload)}
            loading={download.isPending}
          >
            Download
          </Button>
        }
      >
        <AuditFiltersBar value={filters} onChange={setFilters} />
      </Card>
      {events.isError ? (
        <LoadError title={events.error.message} onRetry={() => events.refetch()} />
      ) : null}
      <Card size="small" styles={{ body: { padding: 0 } }}>
        <AuditTable events={loaded} isLoading={events.isPending} isError={events.isError} />
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
    </Flex>
  );
}
