import { budgetCode, isCostCode } from '@imprest/domain/budget-code.ts';
import { costCodeMax, costCodeMin } from '@imprest/domain/constants.ts';
import type { Branch, BudgetCategory } from '@imprest/domain/enums.ts';
import { Typography } from 'antd';
import type { CSSProperties } from 'react';
import { branchCode, categoryCode } from '../utils/labels.ts';
import { branchLabels, budgetCategoryLabel } from '@imprest/domain/enums.ts';

const boxStyle: CSSProperties = {
  display: 'flex',
  flexDirection: 'column',
  gap: 4,
  padding: 16,
  borderRadius: 8,
  background: '#eff4ff',
  border: '1px solid #c7d7fe',
};

const codeStyle: CSSProperties = {
  fontSize: 36,
  fontWeight: 700,
  letterSpacing: 4,
  lineHeight: 1.2,
  color: '#1d4ed8',
  fontVariantNumeric: 'tabular-nums',
};

type BudgetCodePreviewProps = {
  category: BudgetCategory | undefined;
  branch: Branch | undefined;
  costCode: number | null | undefined;
};

/**
 * The budget code the server will store, computed live with the domain's `budgetCode` (spec §3:
 * category code + branch code + cost code), and how it is made up.
 */
export function BudgetCodePreview({ category, branch, costCode }: BudgetCodePreviewProps) {
  const hasCostCode = typeof costCode === 'number' && isCostCode(costCode);
  const isComplete = category !== undefined && branch !== undefined && hasCostCode;
  // Until the cost code is valid, show the digits that are already known.
  const code = isComplete
    ? budgetCode({ category, branch, costCode })
    : `${category ? String(categoryCode(category)).charAt(0) : '–'}${branch ? branchCode(branch).charAt(0) : '–'}––`;

  return (
    <div data-testid="budget-code-preview" aria-live="polite" style={boxStyle}>
      <Typography.Text type="secondary">Budget code</Typography.Text>
      <div data-testid="budget-code" style={codeStyle}>
        {code}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {category
          ? `${categoryCode(category)} ${budgetCategoryLabel(category)}`
          : 'Expense category'}
        {' + '}
        {branch ? `${branchCode(branch)} ${branchLabels[branch]}` : 'Branch'}
        {' + '}
        {hasCostCode
          ? `${costCode} cost code`
          : `a cost code from ${costCodeMin} to ${costCodeMax}`}
      </Typography.Text>
    </div>
  );
}
