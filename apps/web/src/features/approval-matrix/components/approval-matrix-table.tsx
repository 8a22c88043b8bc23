import type { ApprovalMatrixRowResponse } from '@imprest/domain/api/approval-matrix.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Table, Tag, type TableColumnsType } from 'antd';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { amountRange, matrixLabels } from './matrix-labels.ts';

type ApprovalMatrixTableProps = { rows: ApprovalMatrixRowResponse[]; isLoading: boolean };

/** Spec §2: REQUESTED AMOUNT, APPROVAL GROUP, FIRST/SECOND/THIRD OFFICER. */
export function ApprovalMatrixTable({ rows, isLoading }: ApprovalMatrixTableProps) {
  const isMobile = useIsMobile();
  const columns: TableColumnsType<ApprovalMatrixRowResponse> = [
    {
      title: matrixLabels.requestedAmount,
      key: 'amount',
      render: (_value, row) => amountRange(row),
    },
    {
      title: matrixLabels.approvalGroup,
      dataIndex: 'description',
      key: 'group',
      render: (description: string, row) => (
        <>
          {description}
          {row.cascading_notification ? (
            <Tag style={{ marginInlineStart: 8 }} color="blue">
              Cascading
            </Tag>
          ) : null}
        </>
      ),
    },
    ...matrixLabels.officers.map((title, index) => ({
      title,
      key: `officer-${index}`,
      render: (_value: unknown, row: ApprovalMatrixRowResponse) => {
        const role = row.user_role[index];
        return role ? roleLabels[role] : '—';
      },
    })),
  ];

  return (
    <Table<ApprovalMatrixRowResponse>
      rowKey={(row) => `${row.start_value}`}
      columns={columns}
      dataSource={rows}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      scroll={{ x: 'max-content' }}
      pagination={false}
      locale={{ emptyText: 'No approval rows found!' }}
    />
  );
}
