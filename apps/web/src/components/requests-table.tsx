import type { RequestItemResponse } from '@imprest/domain/api/requests.ts';
import { Table, Tag, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { formatAmount, formatDate } from '../lib/format.ts';
import { purposeLabel } from '../lib/request-labels.ts';
import { RowActionButton, useRowCells } from './row-action-button.tsx';
import { RowOpenButton } from './row-open-button.tsx';
import { useIsMobile, useIsNarrow, useIsSmallUp } from '../lib/use-media-query.ts';
import { listTableScroll } from './table-scroll.ts';
import { StatusTag } from './status-tag.tsx';

/** What a row shows: a request list's item, or a budget's request (spec §2 Budget detail). */
export type RequestsTableRow = Pick<
  RequestItemResponse,
  'id' | 'request_owner_name' | 'expenditure_date' | 'amount_requested' | 'amount_currency'
> & { purpose: string; current_status: string };

type RequestsTableProps<Row extends RequestsTableRow> = {
  requests: Row[];
  isLoading: boolean;
  /** The list failed to load: its error says so, and the empty text would claim there is none. */
  isError?: boolean;
  pagination: TablePaginationConfig | false;
  /** Spec §2 Tables in general: 'No <type> found!'. */
  emptyText?: string;
  /** A row click on larger screens, e.g. the requests list's preview panel. */
  onPreview?: (request: Row) => void;
  /** The action button, and a row click on mobile (spec §2 Tables in general). */
  onOpen: (request: Row) => void;
  /**
   * A mark under a row's name, e.g. Home's 'Delegated' with 'on behalf of <name>' (issue 15); null
   * for a row without one.
   */
  nameMark?: (request: Row) => { tag: string; text: string } | null;
  'data-testid'?: string;
};

/**
 * The requests table of spec §2 (Home's 'Recent Requests' and the requests list): name, purpose,
 * expenditure date, amount, status and an action. Below 992 px the expenditure date is under the
 * name, below 576 px the purpose too; a phone (below 768 px) leaves out the action, its row opening
 * the request.
 */
export function RequestsTable<Row extends RequestsTableRow>({
  requests,
  isLoading,
  isError = false,
  pagination,
  emptyText = 'No requests found!',
  onPreview,
  onOpen,
  nameMark,
  'data-testid': testId,
}: RequestsTableProps<Row>) {
  const isMobile = useIsMobile();
  const isSmallUp = useIsSmallUp();
  const isNarrow = useIsNarrow();
  const cells = useRowCells<Row>();

  const columns: TableColumnsType<Row> = [
    {
      title: 'NAME',
      dataIndex: 'request_owner_name',
      key: 'name',
      // A phone's name cell is cut short with an ellipsis; wider, a long name wraps.
      ellipsis: isMobile,
      onCell: cells.cell('name'),
      render: (name: string, request) => {
        const label = isNarrow ? (
          <>
            {isMobile ? <RowOpenButton onOpen={() => onOpen(request)}>{name}</RowOpenButton> : name}
            {/* The columns this width leaves out, so one owner's requests can be told apart. */}
            <div className="request-row-facts" data-testid="request-row-facts">
              {isSmallUp ? null : <div>{purposeLabel(request.purpose)}</div>}
              <div>{formatDate(request.expenditure_date)}</div>
            </div>
          </>
        ) : (
          name
        );
        const mark = nameMark?.(request);
        if (!mark) return label;
        return (
          <>
            {label}
            <div
              style={{
                marginTop: 2,
                fontSize: 12,
                color: 'var(--text-secondary)',
                // On phones the mark wraps under the name, so amount and status stay in view.
                ...(isMobile ? { maxWidth: '6rem', whiteSpace: 'normal' } : {}),
              }}
              data-testid="name-mark"
            >
              <Tag color="purple">{mark.tag}</Tag>
              {mark.text}
            </div>
          </>
        );
      },
    },
    {
      title: 'PURPOSE',
      dataIndex: 'purpose',
      key: 'purpose',
      responsive: ['sm'],
      onCell: cells.cell('purpose'),
      render: (purpose: string) => purposeLabel(purpose),
    },
    {
      title: 'EXPENDITURE DATE',
      dataIndex: 'expenditure_date',
      key: 'expenditure_date',
      // Beside the side menu a tablet has no room for it (a budget's requests overflowed their
      // card at 768 px): below 992 px the date is under the name.
      responsive: ['lg'],
      render: (value: string) => formatDate(value),
    },
    {
      title: 'AMOUNT',
      key: 'amount',
      align: 'right',
      className: 'table-amount',
      onCell: cells.cell('amount'),
      render: (_value, request) => formatAmount(request.amount_requested, request.amount_currency),
    },
    {
      title: 'STATUS',
      dataIndex: 'current_status',
      key: 'status',
      onCell: cells.cell('status'),
      render: (status: string) => <StatusTag status={status} />,
    },
    {
      title: <span className="sr-only">Action</span>,
      key: 'action',
      responsive: ['md'],
      render: (_value, request) => (
        <RowActionButton
          describedBy={cells.describedBy(request, ['name', 'purpose', 'amount', 'status'])}
          onClick={() => onOpen(request)}
        >
          View
        </RowActionButton>
      ),
    },
  ];

  return (
    <Table<Row>
      rowKey="id"
      columns={columns}
      dataSource={requests}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      scroll={listTableScroll(isMobile)}
      // The empty text only once the list is known to be empty: not while it loads, nor beside its
      // error.
      locale={{ emptyText: isLoading || isError ? ' ' : emptyText }}
      pagination={pagination}
      data-testid={testId}
      onRow={(request) => {
        const handleClick = isMobile ? onOpen : onPreview;
        return {
          onClick: handleClick ? () => handleClick(request) : undefined,
          style: handleClick ? { cursor: 'pointer' } : undefined,
          'data-testid': 'request-row',
        };
      }}
    />
  );
}
