import { Card, Col, Progress, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatAmount } from '../../../lib/format.ts';
import type { BudgetDetail } from '../api/get-budget.ts';
import { branchLabels, budgetCategoryLabel } from '@imprest/domain/enums.ts';

type PanelProps = { title: string; children: ReactNode; testId: string };

function Panel({ title, children, testId }: PanelProps) {
  return (
    <Card size="small" style={{ height: '100%' }} data-testid={testId}>
      <Typography.Text type="secondary">{title}</Typography.Text>
      <div style={{ marginTop: 8, fontSize: 18, fontWeight: 600, overflowWrap: 'anywhere' }}>
        {children}
      </div>
    </Card>
  );
}

type BudgetPanelsProps = { budget: BudgetDetail };

/**
 * The share of the amount that requests hold, in whole percent, rounded so that it never says
 * more or less than is so: 100 only once nothing is left to request, 0 only while nothing is held.
 */
function committedPercent({ amount, committed, available }: BudgetDetail): number {
  if (amount <= 0 || available <= 0) return amount > 0 || available < 0 ? 100 : 0;
  const percent = Math.round((committed / amount) * 100);
  return Math.min(99, Math.max(committed > 0 ? 1 : 0, percent));
}

/**
 * Budget Amount, Remaining Balance (amount minus what requests hold: `available`), Expense
 * category and Branch (spec §2); two a row on phones, four on desktops.
 */
export function BudgetPanels({ budget }: BudgetPanelsProps) {
  const [category, branch] = budget.meta_data;
  const usedPercent = committedPercent(budget);

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} sm={12} xl={6}>
        <Panel title="Budget Amount" testId="panel-amount">
          {formatAmount(budget.amount, budget.amount_currency)}
        </Panel>
      </Col>
      <Col xs={24} sm={12} xl={6}>
        <Panel title="Remaining Balance" testId="panel-balance">
          <span style={{ color: budget.available > 0 ? undefined : '#cf1322' }}>
            {formatAmount(budget.available, budget.amount_currency)}
          </span>
          <Progress
            percent={usedPercent}
            size="small"
            showInfo={false}
            status={budget.available > 0 ? 'normal' : 'exception'}
            aria-label={`${usedPercent}% committed`}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 400 }}>
            {formatAmount(budget.committed, budget.amount_currency)} committed ({usedPercent}%)
          </Typography.Text>
        </Panel>
      </Col>
      <Col xs={12} xl={6}>
        <Panel title="Expense category" testId="panel-category">
          {budgetCategoryLabel(category)}
        </Panel>
      </Col>
      <Col xs={12} xl={6}>
        <Panel title="Branch" testId="panel-branch">
          {branchLabels[branch]}
        </Panel>
      </Col>
    </Row>
  );
}
