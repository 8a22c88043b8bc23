import type { BudgetResponse } from '@imprest/domain/api/budgets.ts';
import { Table, type TableColumnsType } from 'antd';
import { useNavigate } from 'react-router';
import { RowActionButton, useRowCells } from '../../../components/row-action-button.tsx';
import { RowOpenButton } from '../../../components/row-open-button.tsx';
import { formatAmount } from '../../../lib/format.ts';
import { tablePagination } from '../../../lib/pagination.tsx';
import { useIsMobile, useIsSmallUp } from '../../../lib/use-media-query.ts';
import { listTableScroll } from '../../../components/table-scroll.ts';
import { paths } from '../../../paths.ts';
import { budgetDepartmentLabel } from '@imprest/domain/budgets.ts';
import { BudgetStatusTag } from './budget-status-tag.tsx';

type BudgetTableProps = {
  budgets: BudgetResponse[];
  total: number;
  page: number;
  pageSize: number;
  isLoading: boolean;
  /** The list failed to load: its error says so, and the empty text would claim there is none. */
  isError?: boolean;
  onPageChange: (page: number, pageSize: number) => void;
};

/** The budget list of spec §2: NAME, CODE, AMOUNT, DEPARTMENT, STATUS and 'View Budget'. */
export function BudgetTable({
  budgets,
  total,
  page,
  pageSize,
  isLoading,
  isError = false,
  onPageChange,
}: BudgetTableProps) {
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const isSmallUp = useIsSmallUp();
  const cells = useRowCells<BudgetResponse>();

  function openBudget(budget: BudgetResponse) {
    void navigate(paths.dashboard.budget.getHref(budget.code));
  }

  const columns: TableColumnsType<BudgetResponse> = [
    {
      title: 'NAME',
      dataIndex: 'name',
      key: 'name',
      onCell: cells.cell('name'),
      // Phones wrap long names so that CODE and AMOUNT stay in view, with the department and the
      // status under the name: as columns they lay off the screen's edge, and an archived budget
      // looked like any other.
      render: (name: string, budget) =>
        isMobile ? (
          <>
            <RowOpenButton onOpen={() => openBudget(budget)}>{name}</RowOpenButton>
            {/* From 576 px the department and the status have their columns. */}
            {isSmallUp ? null : (
              <div className="budget-row-facts" data-testid="budget-row-facts">
                {budgetDepartmentLabel(budget.department)}
                {budget.current_status === 'active' ? null : (
                  <div>
                    <BudgetStatusTag status={budget.current_status} />
                  </div>
                )}
              </div>
            )}
          </>
        ) : (
          name
        ),
    },
    { title: 'CODE', dataIndex: 'code', key: 'code', onCell: cells.cell('code') },
    {
      title: 'AMOUNT',
      key: 'amount',
      align: 'right',
      className: 'table-amount',
      render: (_value, budget) => formatAmount(budget.amount, budget.amount_currency),
    },
    {
      title: 'DEPARTMENT',
      dataIndex: 'department',
      key: 'department',
      responsive: ['sm'],
      render: (department: BudgetResponse['department']) => budgetDepartmentLabel(department),
    },
    {
      title: 'STATUS',
      dataIndex: 'current_status',
      key: 'status',
      responsive: ['sm'],
      render: (status: BudgetResponse['current_status']) => <BudgetStatusTag status={status} />,
    },
    {
      title: <span className="sr-only">Action</span>,
      key: 'action',
      // Spec §2: on mobile the row itself is the action.
      responsive: ['md'],
      render: (_value, budget) => (
        <RowActionButton
          describedBy={cells.describedBy(budget, ['name', 'code'])}
          onClick={() => openBudget(budget)}
        >
          View Budget
        </RowActionButton>
      ),
    },
  ];

  return (
    <Table<BudgetResponse>
      rowKey="id"
      columns={columns}
      dataSource={budgets}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      scroll={listTableScroll(isMobile)}
      // While the first page loads the spinner speaks, after a failure the error does; 'No budgets
      // found!' only once the list is known to be empty.
      locale={{ emptyText: isLoading || isError ? ' ' : 'No budgets found!' }}
      pagination={tablePagination(total, {
        current: page,
        pageSize,
        onChange: onPageChange,
        size: isMobile ? 'small' : undefined,
      })}
      onRow={(budget) =>
        isMobile ? { onClick: () => openBudget(budget), style: { cursor: 'pointer' } } : {}
      }
      data-testid="budget-table"
    />
  );
}
