import type { BudgetStatus } from '@imprest/domain/enums.ts';
import { Tag } from 'antd';
import { budgetStatusLabels } from '@imprest/domain/enums.ts';

type BudgetStatusTagProps = { status: BudgetStatus };

/** Active or Archived (spec §4), as a tag. */
export function BudgetStatusTag({ status }: BudgetStatusTagProps) {
  return (
    <Tag color={status === 'active' ? 'success' : 'default'} style={{ marginInlineEnd: 0 }}>
      {budgetStatusLabels[status]}
    </Tag>
  );
}
