import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { defaultPageSize } from '@imprest/domain/constants.ts';
import { Card, Flex } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ListFilters } from '../../../components/list-filters.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { RequestsTable } from '../../../components/requests-table.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { tablePagination } from '../../../lib/pagination.tsx';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useListFilters } from '../../../lib/use-list-filters.ts';
import { paths } from '../../../paths.ts';
import { useRequests, type RequestListMode } from '../api/get-requests.ts';
import { RequestPreviewDrawer } from '../components/request-preview-drawer.tsx';

/**
 * Route /dashboard/requests (spec §2): search, status filter and a paginated table. Staff mode
 * lists the user's own requests; Admin mode every request the user may see (decisions §8).
 */
export function RequestsPage() {
  const user = useCurrentUser();
  const { mode } = useSession();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const listMode: RequestListMode = mode === 'admin' ? user.role : 'user';
  const filters = useListFilters(listMode, defaultPageSize);
  const [previewed, setPreviewed] = useState<RequestItemResponse | null>(null);

  const requests = useRequests({
    mode: listMode,
    userId: user.id,
    page: filters.page,
    perPage: filters.perPage,
    search: filters.search,
    status: filters.status,
  });
  const rows = requests.data?.data;
  // The open preview shows its row as the list refreshes (a review's event moves its status); a
  // row that has left the page keeps what it last showed.
  const previewedRow = previewed
    ? (rows?.find((row) => row.id === previewed.id) ?? previewed)
    : null;
  const total = requests.data?.total ?? 0;
  // A search stops counting at searchCountLimit matches (docs/decisions/0006).
  const capped = requests.data?.total_capped ?? false;

  function openRequest(request: RequestItemResponse) {
    void navigate(paths.dashboard.request.getHref(request.id));
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'}>
      <Flex vertical gap={16}>
        <ListFilters
          searchLabel="Search requests"
          searchText={filters.searchText}
          onSearchTextChange={filters.setSearchText}
          status={filters.status}
          onStatusChange={filters.setStatus}
        />
        {requests.isError ? (
          <LoadError title={requests.error.message} onRetry={() => requests.refetch()} />
        ) : null}
        <RequestsTable
          requests={rows ?? []}
          isLoading={requests.isPending || (requests.isFetching && requests.isPlaceholderData)}
          isError={requests.isError}
          pagination={tablePagination(total, {
            current: filters.page,
            pageSize: filters.perPage,
            showTotal: capped ? () => `${formatNumber(total)}+ requests match` : undefined,
            onChange: filters.changePage,
          })}
          onPreview={setPreviewed}
          onOpen={openRequest}
          data-testid="requests-table"
        />
      </Flex>
      <RequestPreviewDrawer
        request={previewedRow}
        onClose={() => setPreviewed(null)}
        onOpen={openRequest}
      />
    </Card>
  );
}
