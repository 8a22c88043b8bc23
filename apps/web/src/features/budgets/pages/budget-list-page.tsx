import { SearchOutlined } from '@ant-design/icons';
import { defaultPageSize, searchDebounceMs } from '@imprest/domain/constants.ts';
import { Card, Flex, Input } from 'antd';
import type { ChangeEvent } from 'react';
import { LoadError } from '../../../components/load-error.tsx';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useEntryState } from '../../../lib/use-entry-state.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { pagingAfterChange } from '../../../lib/use-server-paging.ts';
import { useBudgets } from '../api/get-budgets.ts';
import { BudgetTable } from '../components/budget-table.tsx';

/** Route /dashboard/budget: search (debounced 1 s) and the paginated budget list (spec §2). */
export function BudgetListPage() {
  const isMobile = useIsMobile();
  // Kept with the page's history entry: Back from a budget finds the list as it was left.
  const [searchText, setSearchText] = useEntryState('budgets-search', '');
  const search = useDebouncedValue(searchText.trim(), searchDebounceMs);
  const [pagination, setPagination] = useEntryState('budgets-paging', {
    page: 1,
    perPage: defaultPageSize,
    search,
  });
  // A new search starts again on page 1 (spec §9: pages count from 1).
  const params =
    pagination.search === search ? pagination : { page: 1, perPage: pagination.perPage, search };
  const budgets = useBudgets(params);

  function handleSearchChange(event: ChangeEvent<HTMLInputElement>) {
    setSearchText(event.target.value);
  }

  function handlePageChange(page: number, perPage: number) {
    setPagination({ ...pagingAfterChange(params, page, perPage), search });
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'}>
      <Flex vertical gap={16}>
        <Flex gap={12} wrap align="center">
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search by name or code"
            aria-label="Search budgets"
            value={searchText}
            onChange={handleSearchChange}
            style={{ width: isMobile ? '100%' : 320 }}
          />
        </Flex>
        {budgets.isError ? (
          <LoadError title={budgets.error.message} onRetry={() => budgets.refetch()} />
        ) : null}
        <BudgetTable
          budgets={budgets.data?.budget_codes ?? []}
          total={budgets.data?.total ?? 0}
          page={params.page}
          pageSize={params.perPage}
          isLoading={budgets.isFetching}
          isError={budgets.isError}
          onPageChange={handlePageChange}
        />
      </Flex>
    </Card>
  );
}
