import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { isAdmin } from '@imprest/domain/permissions.ts';
import { Alert, Button, Card, Flex } from 'antd';
import { useNavigate } from 'react-router';
import { RequestsTable } from '../../../components/requests-table.tsx';
import { tablePagination } from '../../../lib/pagination.ts';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import { usePendingRequests } from '../api/get-pending-requests.ts';
import { useRecentRequests } from '../api/get-recent-requests.ts';
import { useRequestSummary } from '../api/get-request-summary.ts';
import { OutstandingRetirements } from '../components/outstanding-retirements.tsx';
import { SummaryTiles } from '../components/summary-tiles.tsx';

/**
 * Route /dashboard (spec §2 Home): summary tiles, the recent requests (the user's own in staff mode,
 * all the user may see in admin mode), the user's outstanding retirements and, for every role but
 * staff, those waiting for the role.
 */
export function HomePage() {
  const user = useCurrentUser();
  const { mode } = useSession();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const summary = useRequestSummary(user.id);
  const recent = useRecentRequests({
    mode: mode === 'admin' ? user.role : 'user',
    userId: user.id,
  });
  const hasPendingList = isAdmin(user.role);
  const pending = usePendingRequests({
    role: user.role,
    userId: user.id,
    isEnabled: hasPendingList,
  });
  const cardSize = isMobile ? 'small' : 'medium';
  const outstanding = summary.data?.outstanding_retirements ?? [];

  function openRequest(request: RequestItemResponse) {
    void navigate(paths.dashboard.viewRequest.getHref(request.id));
  }
  const viewAll = (
    <Button type="link" onClick={() => void navigate(paths.dashboard.requests.getHref())}>
      View all
    </Button>
  );

  return (
    <Flex vertical gap={24}>
      <SummaryTiles user={user} summary={summary.data} isLoading={summary.isPending} />
      {summary.isError ? (
        <Alert type="warning" showIcon title="The request counts could not be loaded just now." />
      ) : null}
      {outstanding.length > 0 ? (
        <OutstandingRetirements retirements={outstanding} cardSize={cardSize} />
      ) : null}
      {hasPendingList ? (
        <Card title="Requests Pending Your Review" size={cardSize} data-testid="pending-requests">
          {pending.isError ? (
            <Alert
              type="error"
              showIcon
              title={pending.error.message}
              style={{ marginBottom: 16 }}
            />
          ) : null}
          <RequestsTable
            requests={pending.data?.data ?? []}
            isLoading={pending.isPending}
            pagination={tablePagination(pending.data?.data.length ?? 0, { hideOnSinglePage: true })}
            emptyText="No pending requests found!"
            onOpen={openRequest}
          />
        </Card>
      ) : null}
      <Card title="Recent Requests" size={cardSize} extra={viewAll} data-testid="recent-requests">
        {recent.isError ? (
          <Alert type="error" showIcon title={recent.error.message} style={{ marginBottom: 16 }} />
        ) : null}
        <RequestsTable
          requests={recent.data?.data ?? []}
          isLoading={recent.isPending}
          pagination={false}
          onOpen={openRequest}
        />
      </Card>
    </Flex>
  );
}
