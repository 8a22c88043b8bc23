import type { usePendingRetirements } from '../api/get-pending-retirements.ts';
import { Card } from 'antd';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/load-error.tsx';
import { lazyReady } from '../../../lib/lazy-ready.tsx';
import { tablePagination } from '../../../lib/pagination.tsx';
import type { useServerPaging } from '../../../lib/use-server-paging.ts';
import { paths } from '../../../paths.ts';

/**
 * The retirements list's table, drawn once Home's lists have come; its file downloads beside Home's
 * (app/route-modules.ts), as the requests table's does, so a network drop meanwhile fails no page,
 * and it draws at once if it has arrived by then (lib/lazy-ready.tsx).
 */
const RetirementsTable = lazyReady(async () => {
  const { RetirementsTable: Table } =
    await import('../../retirements/components/retirements-table.tsx');
  return Table;
});

type PendingRetirementsProps = {
  list: ReturnType<typeof usePendingRetirements>;
  paging: ReturnType<typeof useServerPaging>;
  cardSize: 'small' | 'medium';
};

/**
 * Home: the retirements whose next review step is the user's, oldest submission first, each opening
 * its retirement form where the user answers it. A retirement comes back only for the reviewers'
 * answer, so nobody had to look for it in the retirements list or wait for the e-mail.
 */
export function PendingRetirements({ list, paging, cardSize }: PendingRetirementsProps) {
  const navigate = useNavigate();
  return (
    <Card title="Retirements Pending Your Review" size={cardSize} data-testid="pending-retirements">
      {list.isError ? (
        <LoadError
          title={list.error.message}
          onRetry={() => list.refetch()}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <RetirementsTable
        retirements={list.data?.data ?? []}
        isLoading={list.isPending || list.isPlaceholderData}
        isError={list.isError}
        pagination={tablePagination(list.data?.total ?? 0, {
          current: paging.page,
          pageSize: paging.perPage,
          onChange: paging.onChange,
          hideOnSinglePage: true,
        })}
        onOpen={(retirement) =>
          void navigate(paths.dashboard.retirement.getHref(retirement.request_id))
        }
      />
    </Card>
  );
}
