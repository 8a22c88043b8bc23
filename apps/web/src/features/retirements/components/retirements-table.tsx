import type { RetirementItemResponse } from '@imprest/domain/api/retirements.ts';
import { Table, Typography, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { RowActionButton, useRowCells } from '../../../components/row-action-button.tsx';
import { RowOpenButton } from '../../../components/row-open-button.tsx';
import { formatAmount, formatDate } from '../../../lib/format.ts';
import { purposeLabel } from '../../../lib/request-labels.ts';
import { useIsBelowXl, useIsMobile, useIsSmallUp } from '../../../lib/use-media-query.ts';
import { listTableScroll } from '../../../components/table-scroll.ts';
import { RetirementStatusTag } from './retirement-status-tag.tsx';
import { organisationToday } from '../../../lib/organisation-day.ts';

type RetirementsTableProps = {
  retirements: RetirementItemResponse[];
  isLoading: boolean;
  /** The list failed to load: its error says so, and the empty text would claim there is none. */
  isError?: boolean;
  pagination: TablePaginationConfig | false;
  /** The action button, and a row click on mobile (spec §2 Tables in general). */
  onOpen: (retirement: RetirementItemResponse) => void;
};

/** The retirement date column: when it was submitted, or before that the date it is due by. */
function RetirementDate({ retirement }: { retirement: RetirementItemResponse }) {
  if (retirement.retirement_date) return <>{formatDate(retirement.retirement_date)}</>;
  // YYYY-MM-DD texts compare in calendar order.
  const isPastDue = retirement.due_date < organisationToday();
  return (
    <Typography.Text type={isPastDue ? 'danger' : 'secondary'} data-testid="retirement-due">
      Due {formatDate(retirement.due_date)}
    </Typography.Text>
  );
}

/**
 * The retirements table of spec §2: name, purpose, retirement date, amount requested, amount
 * spent, status and an action. Narrow phones keep name, amount spent and status, with the amount
 * requested and the date under the name; below 1200 px the amount requested is under the name.
 */
export function RetirementsTable({
  retirements,
  isLoading,
  isError = false,
  pagination,
  onOpen,
}: RetirementsTableProps) {
  const isMobile = useIsMobile();
  const isSmallUp = useIsSmallUp();
  // The amount requested's column does not fit beside the side menu below `xl` (1200 px).
  const isBelowXl = useIsBelowXl();
  const cells = useRowCells<RetirementItemResponse>();

  const columns: TableColumnsType<RetirementItemResponse> = [
    {
      title: 'NAME',
      dataIndex: 'name',
      key: 'name',
      // A phone's name cell is cut short with an ellipsis; wider, a long name wraps.
      ellipsis: isMobile,
      onCell: cells.cell('name'),
      render: (name: string, retirement) =>
        isBelowXl ? (
          <>
            {isMobile ? (
              <RowOpenButton onOpen={() => onOpen(retirement)}>{name}</RowOpenButton>
            ) : (
              name
            )}
            {/* The columns this width leaves out, so two retirements of one owner can be told apart. */}
            <div className="retirement-row-facts" data-testid="retirement-row-facts">
              {isSmallUp ? null : <div>{purposeLabel(retirement.purpose)}</div>}
              <div>{formatAmount(retirement.amount_requested, retirement.amount_currency)}</div>
              {isMobile ? (
                <div>
                  <RetirementDate retirement={retirement} />
                </div>
              ) : null}
            </div>
          </>
        ) : (
          name
        ),
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
      title: 'RETIREMENT DATE',
      key: 'retirement_date',
      responsive: ['md'],
      render: (_value, retirement) => <RetirementDate retirement={retirement} />,
    },
    {
      title: 'AMOUNT REQUESTED',
      key: 'amount_requested',
      align: 'right',
      className: 'table-amount',
      onCell: cells.cell('amount_requested'),
      responsive: ['xl'],
      render: (_value, retirement) =>
        formatAmount(retirement.amount_requested, retirement.amount_currency),
    },
    {
      // On phones the title takes two lines, so the status beside it stays in view at 375 px.
      title: isMobile ? <span className="table-title-wrap">AMOUNT SPENT</span> : 'AMOUNT SPENT',
      key: 'amount_spent',
      align: 'right',
      className: 'table-amount',
      render: (_value, retirement) =>
        retirement.amount_spent === null
          ? '—'
          : formatAmount(retirement.amount_spent, retirement.amount_currency),
    },
    {
      title: 'STATUS',
      dataIndex: 'status',
      key: 'status',
      onCell: cells.cell('status'),
      render: (_value, retirement) => <RetirementStatusTag status={retirement.status} />,
    },
    {
      title: <span className="sr-only">Action</span>,
      key: 'action',
      responsive: ['md'],
      render: (_value, retirement) => (
        <RowActionButton
          // Below `xl` the amount requested is in the name's cell, its own column left out.
          describedBy={cells.describedBy(
            retirement,
            isBelowXl
              ? ['name', 'purpose', 'status']
              : ['name', 'purpose', 'amount_requested', 'status'],
          )}
          onClick={() => onOpen(retirement)}
        >
          View
        </RowActionButton>
      ),
    },
  ];

  return (
    <Table<RetirementItemResponse>
      rowKey="id"
      columns={columns}
      dataSource={retirements}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      scroll={listTableScroll(isMobile)}
      // 'No retirements found!' only once the list is known to be empty, not beside its error.
      locale={{ emptyText: isLoading || isError ? ' ' : 'No retirements found!' }}
      pagination={pagination}
      onRow={(retirement) => ({
        onClick: isMobile ? () => onOpen(retirement) : undefined,
        style: isMobile ? { cursor: 'pointer' } : undefined,
        'data-testid': 'retirement-row',
      })}
    />
  );
}
