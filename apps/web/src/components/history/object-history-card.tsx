import type { AuditHistoryParams } from '@imprest/domain/api/audit.ts';
import { Alert, Button, Card, Collapse, List, Spin, Typography } from 'antd';
import { useState } from 'react';
import { AuditEventSummary } from './audit-event-list.tsx';
import { useObjectHistory } from './api/get-object-history.ts';

/**
 * A request's, budget's or user's own history from the audit trail (issue 15): folded until
 * opened, then fetched; older events on demand.
 */
export function ObjectHistoryCard(props: AuditHistoryParams) {
  const [isOpen, setIsOpen] = useState(false);
  const history = useObjectHistory(props, { enabled: isOpen });
  const events = history.data?.pages.flatMap((page) => page.events) ?? [];

  const body = history.isError ? (
    <Alert type="error" showIcon title={history.error.message} />
  ) : history.isPending ? (
    <div style={{ textAlign: 'center', padding: 16 }}>
      <Spin />
    </div>
  ) : (
    <>
      <List
        size="small"
        dataSource={events}
        locale={{ emptyText: 'No history yet.' }}
        renderItem={(event) => (
          <List.Item key={event.id}>
            <AuditEventSummary event={event} />
          </List.Item>
        )}
      />
      {history.hasNextPage ? (
        <Button
          block
          onClick={() => void history.fetchNextPage()}
          loading={history.isFetchingNextPage}
          style={{ marginTop: 8 }}
        >
          Show older
        </Button>
      ) : null}
    </>
  );

  return (
    <Card size="small" styles={{ body: { padding: 0 } }} data-testid="object-history">
      <Collapse
        ghost
        onChange={(keys) => setIsOpen(keys.length > 0)}
        items={[
          {
            key: 'history',
            label: <Typography.Text strong>History</Typography.Text>,
            children: body,
          },
        ]}
      />
    </Card>
  );
}
