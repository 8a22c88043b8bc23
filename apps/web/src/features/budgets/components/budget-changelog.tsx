import type { BudgetChangeResponse, BudgetSnapshot } from '@imprest/domain/api/budgets.ts';
import type { BudgetChangeAction } from '@imprest/domain/budgets.ts';
import { Empty, Timeline, Typography } from 'antd';
import { currencyLabel } from '../../../lib/request-labels.ts';
import { formatAmount, formatDateTime } from '../../../lib/format.ts';
import { branchLabels, budgetCategoryLabel, budgetStatusLabels } from '@imprest/domain/enums.ts';
import { budgetDepartmentLabel } from '@imprest/domain/budgets.ts';

const actionWords: Record<BudgetChangeAction, string> = {
  create: 'created the budget',
  edit: 'edited the budget',
  archive: 'archived the budget',
  reactivate: 're-activated the budget',
  delete: 'deleted the budget',
};

const actionColours: Record<BudgetChangeAction, string> = {
  create: 'green',
  edit: 'blue',
  archive: 'gray',
  reactivate: 'green',
  delete: 'red',
};

type Change = { label: string; before: string; after: string };

function quoted(text: string | null): string {
  return text ? `“${text}”` : 'none';
}

/** What an edit changed, field by field, in words: before → after. */
export function describeChanges(before: BudgetSnapshot, after: BudgetSnapshot): Change[] {
  const fields: Change[] = [
    { label: 'Name', before: quoted(before.name), after: quoted(after.name) },
    {
      label: 'Amount',
      before: formatAmount(before.amount, before.amount_currency),
      after: formatAmount(after.amount, after.amount_currency),
    },
    {
      label: 'Currency',
      before: currencyLabel(before.amount_currency),
      after: currencyLabel(after.amount_currency),
    },
    { label: 'Code', before: before.code, after: after.code },
    {
      label: 'Expense category',
      before: budgetCategoryLabel(before.meta_data[0]),
      after: budgetCategoryLabel(after.meta_data[0]),
    },
    {
      label: 'Branch',
      before: branchLabels[before.meta_data[1]],
      after: branchLabels[after.meta_data[1]],
    },
    {
      label: 'Department',
      before: budgetDepartmentLabel(before.department),
      after: budgetDepartmentLabel(after.department),
    },
    { label: 'Description', before: quoted(before.description), after: quoted(after.description) },
    {
      label: 'Status',
      before: budgetStatusLabels[before.current_status],
      after: budgetStatusLabels[after.current_status],
    },
  ];
  return fields.filter((field) => field.before !== field.after);
}

function ChangeDetails({ change }: { change: BudgetChangeResponse }) {
  if (change.action === 'create' && change.after) {
    const { after } = change;
    return (
      <div>
        <Typography.Text type="secondary">
          Code {after.code} with {formatAmount(after.amount, after.amount_currency)}.
        </Typography.Text>
      </div>
    );
  }
  if (change.action !== 'edit' || !change.before || !change.after) return null;
  const changes = describeChanges(change.before, change.after);
  return (
    <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
      {changes.map((item) => (
        <li key={item.label} style={{ overflowWrap: 'anywhere' }}>
          <Typography.Text type="secondary">{item.label}: </Typography.Text>
          <Typography.Text delete type="secondary">
            {item.before}
          </Typography.Text>
          {' → '}
          <Typography.Text>{item.after}</Typography.Text>
        </li>
      ))}
    </ul>
  );
}

type BudgetChangelogProps = { changes: BudgetChangeResponse[] };

/** The budget's changelog, newest first (spec §3: every modification): who, when, what. */
export function BudgetChangelog({ changes }: BudgetChangelogProps) {
  if (changes.length === 0) {
    return <Empty description="No changes recorded" image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  }
  return (
    <Timeline
      data-testid="budget-changelog"
      items={changes.map((change) => ({
        key: change.id,
        color: actionColours[change.action],
        content: (
          <div>
            <div>
              <Typography.Text strong>{change.actor_name}</Typography.Text>{' '}
              {actionWords[change.action]}
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatDateTime(change.created_at)}
            </Typography.Text>
            <ChangeDetails change={change} />
          </div>
        ),
      }))}
    />
  );
}
