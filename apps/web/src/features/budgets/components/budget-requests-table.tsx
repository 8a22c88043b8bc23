import type { BudgetRequestResponse } from '@imprest/domain/api/budgets.ts';
import { useNavigate } from 'react-router';
import { RequestsTable } from '../../../components/requests-table.tsx';
import { tablePagination } from '../../../lib/pagination.tsx';
import { paths } from '../../../paths.ts';

type BudgetRequestsTableProps = { requests: BudgetRequestResponse[] };

/** The requests charged to a budget (spec §2, Budget detail); a row opens the request view. */
export function BudgetRequestsTable({ requests }: BudgetRequestsTableProps) {
  const navigate = useNavigate();
  return (
    <RequestsTable
      requests={requests}
      isLoading={false}
      pagination={tablePagination(requests.length, { hideOnSinglePage: true })}
      onOpen={(request) => void navigate(paths.dashboard.viewRequest.getHref(request.id))}
      data-testid="budget-requests-table"
    />
  );
}
