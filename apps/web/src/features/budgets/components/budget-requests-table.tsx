import type { BudgetRequestResponse } from '@imprest/domain/api/budgets.ts';
import { Button, Table, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { StatusTag } from '../../../components/status-tag.tsx';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { purposeLabel } from '../../../lib/request-labels.ts';
import { tablePagination } from '../../../lib/pagination.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';

type BudgetRequestsTableProps = { requests: BudgetRequestResponse[] };

/** The requests charged to a budget (spec §2, Budget detail); a row opens the request view. */
export function BudgetRequestsTable({ requests }: BudgetRequestsTableProps) {
  const navigate = useNavigate();
  const isMobile = useIsMobile();

  function openRequest(request: BudgetRequestResponse) {
    void navigate(paths.dashboard.viewRequest.getHref(request.id));
  }

  const columns: TableColumnsType<BudgetRequestResponse> = [
    { title: 'NAME', dataIndex: 'request_owner_name', key: 'name' },
    {
      title: 'PURPOSE',
      dataIndex: 'purpose',
      key: 'purpose',
      render: (purpose: string) => purposeLabel(purpose),
    },
    {
      title: 'EXPENDITURE DATE',
      dataIndex: 'expenditure_date',
      key: 'expenditure_date',
      render: (value: string) => formatDate(value),
    },
    {
      title: 'AMOUNT',
      key: 'amount',
      align: 'right',
      render: (_value, request) => formatAmount(request.amount_requested, request.amount_currency),
    },
    {
      title: 'STATUS',
      dataIndex: 'current_status',
      key: 'status',
      render: (status: string) => <StatusTag status={status} />,
    },
    {
      title: <span className="sr-only">Action</span>,
      key: 'action',
      responsive: ['md'],
      render: (_value, request) => (
        <Button size="small" onClick={() => openRequest(request)}>
          View
        </Button>
      ),
    },
  ];

  return (
    <Table<BudgetRequestResponse>
      rowKey="id"
      columns={columns}
      dataSource={requests}
      size={isMobile ? 'small' : 'middle'}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: 'No requests found!' }}
      pagination={tablePagination(requests.length, { hideOnSinglePage: true })}
      onRow={(request) =>
        isMobile ? { onClick: () => openRequest(request), style: { cursor: 'pointer' } } : {}
      }
      data-testid="budget-requests-table"
    />
  );
}
