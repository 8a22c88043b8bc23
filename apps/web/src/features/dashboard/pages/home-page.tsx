import type { PendingItemResponse, RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { Button, Card, Flex } from 'antd';
import { Suspense, useDeferredValue } from 'react';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error.tsx';
import { lazyReady } from '../../../lib/lazy-ready.tsx';
import { tablePagination } from '../../../lib/pagination.tsx';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useLastPageInRange, useServerPaging } from '../../../lib/use-server-paging.ts';
import { paths } from '../../../paths.ts';
import { hasPendingList, usePendingRequests } from '../api/get-pending-requests.ts';
import { usePendingRetirements } from '../api/get-pending-retirements.ts';
import { recentRequestsOf, useRecentRequests } from '../api/get-recent-requests.ts';
import { useRequestSummary } from '../api/get-request-summary.ts';
import { GettingStarted } from '../components/getting-started.tsx';
import { ListsLoader } from '../components/lists-loader.tsx';
import { OutstandingRetirements } from '../components/outstanding-retirements.tsx';
import { PendingRetirements } from '../components/pending-retirements.tsx';
import { SummaryTiles } from '../components/summary-tiles.tsx';

/**
 * antd's Table (with the pagination, select and filter tree it brings, ~90 KB gzipped) is fetched
 * beside the lists' data rather than before Home shows (issue 13: Home's JavaScript budget); the
 * router starts its download together with this page's (app/router.tsx), and the lists draw it
 * at once if it has arrived with their data (lib/lazy-ready.tsx).
 */
const RequestsTable = lazyReady(async () => {
  const { RequestsTable: Table } = await import('../../../components/requests-table.tsx');
  return Table<RequestItemResponse>;
});

/** The same table for the pending list, whose rows may be a delegator's steps (issue 15). */
const PendingRequestsTable = lazyReady(async () => {
  const { RequestsTable: Table } = await import('../../../components/requests-table.tsx');
  return Table<PendingItemResponse>;
});

/** A step the user answers only as someone's delegate (docs/decisions/0019), marked as such. */
function delegatedMark(request: PendingItemResponse) {
  return request.delegated_from
    ? { tag: 'Delegated', text: `on behalf of ${request.delegated_from.name}` }
    : null;
}

/**
 * Route /dashboard (spec §2 Home): summary tiles, the recent requests (the user's own in staff mode,
 * all the user may see in admin mode), the user's outstanding retirements and, for every role but
 * staff, the requests waiting for the role and the retirements waiting for the user's review; in a
 * new organisation, what is left to set up.
 */
export function HomePage() {
  const user = useCurrentUser();
  const { mode } = useSession();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const summary = useRequestSummary(user.id);
  const recent = useRecentRequests(recentRequestsOf(user, mode));
  const isPendingListShown = hasPendingList(user.role);
  const pendingPage = useServerPaging();
  const pending = usePendingRequests({
    role: user.role,
    userId: user.id,
    isEnabled: isPendingListShown,
    page: pendingPage.page,
    perPage: pendingPage.perPage,
  });
  // Requests leave the queue as they are answered (here, elsewhere, live).
  useLastPageInRange(pendingPage, pending.isPlaceholderData ? undefined : pending.data?.total);
  // The retirements waiting for the same reviewers' answer: a card only while there are some.
  const retirementsPage = useServerPaging();
  const pendingRetirements = usePendingRetirements({
    userId: user.id,
    isEnabled: isPendingListShown,
    page: retirementsPage.page,
    perPage: retirementsPage.perPage,
  });
  useLastPageInRange(
    retirementsPage,
    pendingRetirements.isPlaceholderData ? undefined : pendingRetirements.data?.total,
  );
  const isPendingRetirementsShown =
    isPendingListShown && (pendingRetirements.isError || (pendingRetirements.data?.total ?? 0) > 0);
  const cardSize = isMobile ? 'small' : 'medium';
  const outstanding = summary.data?.outstanding_retirements ?? [];
  // The outstanding retirements come with the summary; every list waits for all its data.
  const areListsLoaded =
    !summary.isPending &&
    !recent.isPending &&
    (!isPendingListShown || (!pending.isPending && !pendingRetirements.isPending));
  // The lists (antd's table and cards) are the page's heaviest part: drawn in a deferred render,
  // which React slices, rather than in the task that brings their data (issue 13: Total Blocking
  // Time). Their loader stands in their place until then, as while the data loads.
  const areListsShown = useDeferredValue(areListsLoaded);

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
        <LoadError
          type="warning"
          title="The request counts could not be loaded just now."
          onRetry={() => summary.refetch()}
        />
      ) : null}
      <GettingStarted user={user} cardSize={cardSize} />
      {areListsShown ? (
        <Suspense fallback={<ListsLoader />}>
          {outstanding.length > 0 ? (
            <OutstandingRetirements retirements={outstanding} cardSize={cardSize} />
          ) : null}
          {isPendingListShown ? (
            <Card
              title="Requests Pending Your Review"
              size={cardSize}
              data-testid="pending-requests"
            >
              {pending.isError ? (
                <LoadError
                  title={pending.error.message}
                  onRetry={() => pending.refetch()}
                  style={{ marginBottom: 16 }}
                />
              ) : null}
              <PendingRequestsTable
                requests={pending.data?.data ?? []}
                // The page on screen stays, marked as loading, while the next one comes.
                isLoading={pending.isPending || pending.isPlaceholderData}
                isError={pending.isError}
                pagination={tablePagination(pending.data?.total ?? 0, {
                  current: pendingPage.page,
                  pageSize: pendingPage.perPage,
                  onChange: pendingPage.onChange,
                  hideOnSinglePage: true,
                })}
                emptyText="No pending requests found!"
                onOpen={openRequest}
                nameMark={delegatedMark}
              />
            </Card>
          ) : null}
          {isPendingRetirementsShown ? (
            <PendingRetirements
              list={pendingRetirements}
              paging={retirementsPage}
              cardSize={cardSize}
            />
          ) : null}
          <Card
            title="Recent Requests"
            size={cardSize}
            extra={viewAll}
            data-testid="recent-requests"
          >
            {recent.isError ? (
              <LoadError
                title={recent.error.message}
                onRetry={() => recent.refetch()}
                style={{ marginBottom: 16 }}
              />
            ) : null}
            <RequestsTable
              requests={recent.data?.data ?? []}
              isLoading={recent.isPending}
              isError={recent.isError}
              pagination={false}
              onOpen={openRequest}
            />
          </Card>
        </Suspense>
      ) : (
        <ListsLoader />
      )}
    </Flex>
  );
}
