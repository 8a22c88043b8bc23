import type { RetirementItemResponse } from '@imprest/domain/api/retirements.ts';
import { pageSizeOptions, retirementPageSize } from '@imprest/domain/constants.ts';
import { Card, Flex } from 'antd';
import { LoadError } from '../../../components/load-error.tsx';
import { useNavigate } from 'react-router';
import { ListFilters } from '../../../components/list-filters.tsx';
import { tablePagination } from '../../../lib/pagination.tsx';
import { useCurrentUser, useSession } from '../../../lib/session.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useListFilters } from '../../../lib/use-list-filters.ts';
import { paths } from '../../../paths.ts';
import { useRetirements, type RetirementListMode } from '../api/get-retirements.ts';
import { RetirementsTable } from '../components/retirements-table.tsx';

/** The list's page sizes: its own 15 (spec §9) among the usual options. */
const retirementPageSizes = [...new Set([retirementPageSize, ...pageSizeOptions])]
  .sort((a, b) => a - b)
  .map(String);

/**
 * Route /dashboard/retirements (spec §2 Retirements list): search, status filter and a paginated
 * table. Staff mode lists the user's own retirements; Admin mode all the user may see.
 */
export function RetirementsPage() {
  const user = useCurrentUser();
  const { mode } = useSession();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const listMode: RetirementListMode = mode === 'admin' ? user.role : 'user';
  const filters = useListFilters(listMode, retirementPageSize);

  const retirements = useRetirements({
    mode: listMode,
    page: filters.page,
    perPage: filters.perPage,
    search: filters.search,
    status: filters.status,
  });

  function openRetirement(retirement: RetirementItemResponse) {
    void navigate(paths.dashboard.retirement.getHref(retirement.request_id));
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'} data-testid="retirements-page">
      <Flex vertical gap={16}>
        <ListFilters
          searchLabel="Search retirements"
          searchText={filters.searchText}
          onSearchTextChange={filters.setSearchText}
          status={filters.status}
          onStatusChange={filters.setStatus}
        />
        {retirements.isError ? (
          <LoadError title={retirements.error.message} onRetry={() => retirements.refetch()} />
        ) : null}
        <RetirementsTable
          retirements={retirements.data?.data ?? []}
          isLoading={
            retirements.isPending || (retirements.isFetching && retirements.isPlaceholderData)
          }
          pagination={tablePagination(retirements.data?.total ?? 0, {
            current: filters.page,
            pageSize: filters.perPage,
            pageSizeOptions: retirementPageSizes,
            onChange: filters.changePage,
          })}
          isError={retirements.isError}
          onOpen={openRetirement}
        />
      </Flex>
    </Card>
  );
}
