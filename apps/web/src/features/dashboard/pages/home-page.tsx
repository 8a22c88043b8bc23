import { Alert, Card, Flex } from 'antd';
import { useCurrentUser } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useRequestSummary } from '../api/get-request-summary.ts';
import { RecentRequestsTable } from '../components/recent-requests-table.tsx';
import { SummaryTiles } from '../components/summary-tiles.tsx';

/** Route /dashboard: summary tiles and recent requests (spec §2, Home). */
export function HomePage() {
  const user = useCurrentUser();
  const summary = useRequestSummary(user.id);
  const isMobile = useIsMobile();

  return (
    <Flex vertical gap={24}>
      <SummaryTiles user={user} summary={summary.data} isLoading={summary.isPending} />
      {summary.isError ? (
        <Alert type="warning" showIcon title="The request counts could not be loaded just now." />
      ) : null}
      <Card title="Recent Requests" size={isMobile ? 'small' : 'medium'}>
        <RecentRequestsTable
          requests={summary.data?.requests ?? []}
          isLoading={summary.isPending}
        />
      </Card>
    </Flex>
  );
}
