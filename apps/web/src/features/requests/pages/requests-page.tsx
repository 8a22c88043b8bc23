import { SearchOutlined } from '@ant-design/icons';
import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { defaultPageSize, searchDebounceMs } from '@imprest/domain/constants.ts';
import { statusFilters, type StatusFilter } from '@imprest/domain/enums.ts';
import { Alert, Card, Flex, Input, Select } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { RequestsTable } from '../../../components/requests-table.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { tablePagination } from '../../../lib/pagination.ts';
import { statusFilterLabels } from '../../../lib/request-labels.ts';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
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
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), searchDebounceMs);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(defaultPageSize);
  const [previewed, setPreviewed] = useState<RequestItemResponse | null>(null);
  const listMode: RequestListMode = mode === 'admin' ? user.role : 'user';

  // A new search, filter or mode starts again from page 1.
  const [filterKey, setFilterKey] = useState(`${search}|${status}|${listMode}`);
  const currentKey = `${search}|${status}|${listMode}`;
  if (filterKey !== currentKey) {
    setFilterKey(currentKey);
    setPage(1);
  }

  const requests = useRequests({
    mode: listMode,
    userId: user.id,
    page,
    perPage,
    search,
    status,
  });
  const total = requests.data?.total ?? 0;
  // A search stops counting at searchCountLimit matches (docs/decisions/0006).
  const capped = requests.data?.total_capped ?? false;

  function openRequest(request: RequestItemResponse) {
    void navigate(paths.dashboard.request.getHref(request.id));
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'}>
      <Flex vertical gap={16}>
        <Flex gap={12} wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search requests"
            aria-label="Search requests"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            style={{ flex: '1 1 220px', maxWidth: 420 }}
          />
          <Select<StatusFilter>
            aria-label="Status"
            value={status}
            onChange={setStatus}
            style={{ flex: '0 1 180px', minWidth: 140 }}
            options={statusFilters.map((value) => ({ value, label: statusFilterLabels[value] }))}
            data-testid="status-filter"
          />
        </Flex>
        {requests.isError ? <Alert type="error" showIcon title={requests.error.message} /> : null}
        <RequestsTable
          requests={requests.data?.data ?? []}
          isLoading={requests.isPending || (requests.isFetching && requests.isPlaceholderData)}
          pagination={tablePagination(total, {
            current: page,
            pageSize: perPage,
            showTotal: capped ? () => `${formatNumber(total)}+ requests match` : undefined,
            onChange: (nextPage, nextSize) => {
              setPage(nextSize === perPage ? nextPage : 1);
              setPerPage(nextSize);
            },
          })}
          onPreview={setPreviewed}
          onOpen={openRequest}
        />
      </Flex>
      <RequestPreviewDrawer
        request={previewed}
        onClose={() => setPreviewed(null)}
        onOpen={openRequest}
      />
    </Card>
  );
}
