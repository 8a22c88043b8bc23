import type { BudgetResponse } from '@imprest/domain/api/budgets.ts';
import { budgetFormDefaults } from '@imprest/domain/budgets.ts';
import { Alert, Button, Result } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FocusedTitle } from '../../../components/focused-title.tsx';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { paths } from '../../../paths.ts';
import { useCreateBudget } from '../api/create-budget.ts';
import { BudgetForm, type BudgetFormValues } from '../components/budget-form.tsx';
import { FinanceOnly } from '../components/finance-only.tsx';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

const initialValues: BudgetFormValues = { ...budgetFormDefaults, code: null };

function NewBudget() {
  const navigate = useNavigate();
  const goBack = useGoBack(paths.dashboard.budgets.getHref());
  const create = useCreateBudget();
  const sendCreate = useOneAtATime(create);
  const [created, setCreated] = useState<BudgetResponse | null>(null);

  if (created) {
    return (
      <Result
        status="success"
        title={<FocusedTitle>Budget Added Successful!</FocusedTitle>}
        subTitle="You have succesfully added a budget code."
        extra={
          <Button
            type="primary"
            onClick={() => void navigate(paths.dashboard.budgets.getHref(), { replace: true })}
          >
            Go Back
          </Button>
        }
      >
        <div style={{ textAlign: 'center' }} data-testid="created-code">
          Budget code <strong>{created.code}</strong> · {created.name}
        </div>
      </Result>
    );
  }

  return (
    <BudgetForm
      initialValues={initialValues}
      isSaving={create.isPending}
      alert={
        create.isError ? (
          <Alert
            type="error"
            showIcon
            title={`Error! Failed to add budget ${create.error.message}`}
            data-testid="form-error"
          />
        ) : null
      }
      onSubmit={(payload) => sendCreate(payload, { onSuccess: setCreated })}
      onCancel={goBack}
    />
  );
}

/** Route /dashboard/new-budget (spec §2, Add budget); finance only. */
export function NewBudgetPage() {
  return (
    <FinanceOnly>
      <NewBudget />
    </FinanceOnly>
  );
}
