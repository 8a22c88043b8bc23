import { Button, Table, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { StatusTag } from '../../../components/status-tag.tsx';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { tablePagination } from '../../../lib/pagination.ts';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { paths } from '../../../paths.ts';
import type { SummaryRequest } from '../api/get-request-summary.ts';

type RecentRequestsTableProps = { requests: SummaryRequest[]; isLoading: boolean };

/** Home's 'Recent Requests' table (spec §2); on mobile a row click opens the request. */
export function RecentRequestsTable({ requests, isLoading }: RecentRequestsTableProps) {
  const navigate = useNavigate();
  const isMobile = useIsMobile();

  function openRequest(request: SummaryRequest) {
    void navigate(paths.dashboard.viewRequest.getHref(request.id));
  }

  const columns: TableColumnsType<SummaryRequest> = [
    // Narrow phones keep purpose, amount and status; the row opens the full request.
    {
      title: 'NAME',
      dataIndex: 'request_owner_name',
      key: 'name',
      ellipsis: true,
      responsive: ['sm'],
    },
    { title: 'PURPOSE', dataIndex: 'purpose', key: 'purpose', ellipsis: true },
    {
      title: 'EXPENDITURE DATE',
      dataIndex: 'expenditure_date',
      key: 'expenditure_date',
      responsive: ['md'],
      render: (value: string | null) => formatDate(value),
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
    <Table<SummaryRequest>
      rowKey="id"
      columns={columns}
      dataSource={requests}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: 'No requests found!' }}
      pagination={tablePagination(requests.length, { hideOnSinglePage: true })}
      onRow={(request) =>
        isMobile ? { onClick: () => openRequest(request), style: { cursor: 'pointer' } } : {}
      }
    />
  );
}
