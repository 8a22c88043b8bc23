import type { ApprovalMatrixRowResponse } from '@imprest/domain/api/approval-matrix.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { amountRange } from '@imprest/domain/approval-matrix.ts';
import { matrixLabels } from './matrix-labels.ts';

type ApprovalMatrixTableProps = {
  rows: ApprovalMatrixRowResponse[];
  isLoading: boolean;
  /** The matrix failed to load: its error says so, and the empty text would claim there is none. */
  isError?: boolean;
};

function group(row: ApprovalMatrixRowResponse) {
  return (
    <>
      {row.description}
      {row.cascading_notification ? (
        <Tag style={{ marginInlineStart: 8 }} color="blue">
          Cascading
        </Tag>
      ) : null}
    </>
  );
}

function officer(row: ApprovalMatrixRowResponse, index: number): string {
  const role = row.user_role[index];
  return role ? roleLabels[role] : '—';
}

const desktopColumns: TableColumnsType<ApprovalMatrixRowResponse> = [
  {
    title: matrixLabels.requestedAmount,
    key: 'amount',
    render: (_value, row) => amountRange(row),
  },
  {
    title: matrixLabels.approvalGroup,
    key: 'group',
    render: (_value, row) => group(row),
  },
  ...matrixLabels.officers.map((title, index) => ({
    title,
    key: `officer-${index}`,
    render: (_value: unknown, row: ApprovalMatrixRowResponse) => officer(row, index),
  })),
];

/**
 * On a phone the five columns did not fit: the officers, who review the amounts, lay off the
 * screen's edge. Two columns hold the same: the amounts with their group, and the officers in order,
 * each under its column's name.
 */
const phoneColumns: TableColumnsType<ApprovalMatrixRowResponse> = [
  {
    title: matrixLabels.requestedAmount,
    key: 'amount',
    render: (_value, row) => (
      <Flex vertical gap={2}>
        <Typography.Text strong>{amountRange(row)}</Typography.Text>
        <span aria-label={matrixLabels.approvalGroup}>{group(row)}</span>
      </Flex>
    ),
  },
  {
    // Spec §2 names the three columns so.
    title: 'FIRST/SECOND/THIRD OFFICER',
    key: 'officers',
    render: (_value, row) => (
      <Flex vertical gap={2}>
        {matrixLabels.officers.map((title, index) =>
          row.user_role[index] ? (
            <div key={title}>
              <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                {title}
              </Typography.Text>
              <div>{officer(row, index)}</div>
            </div>
          ) : null,
        )}
      </Flex>
    ),
  },
];

/** Spec §2: REQUESTED AMOUNT, APPROVAL GROUP, FIRST/SECOND/THIRD OFFICER. */
export function ApprovalMatrixTable({
  rows,
  isLoading,
  isError = false,
}: ApprovalMatrixTableProps) {
  const isMobile = useIsMobile();
  return (
    <Table<ApprovalMatrixRowResponse>
      rowKey={(row) => `${row.start_value}`}
      columns={isMobile ? phoneColumns : desktopColumns}
      dataSource={rows}
      loading={isLoading}
      size={isMobile ? 'small' : 'middle'}
      // Wider than a phone the five columns keep to the card, a long group's name taking two lines
      // (as wide as their content they overflowed it beside the side menu at 768–1,024 px).
      scroll={isMobile ? undefined : { x: true }}
      pagination={false}
      // 'No approval rows found!' only once the matrix is known to be empty, not beside its error.
      locale={{ emptyText: isLoading || isError ? ' ' : 'No approval rows found!' }}
      data-testid="approval-matrix-table"
    />
  );
}
