import type { BudgetResponse, CreateBudgetRequest } from '@imprest/domain/api/budgets.ts';
import { messages } from '@imprest/domain/messages.ts';
import { Alert, App, Button, Card, Flex, Result, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { formatTypedAmount } from '../../../components/amount-input.tsx';
import { FocusedTitle } from '../../../components/focused-title.tsx';
import { useIsMobile } from '../../../lib/use-media-query.ts';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { paths } from '../../../paths.ts';
import { useBudgetById } from '../api/get-budget-by-id.ts';
import type { BudgetDetail } from '../api/get-budget.ts';
import { useRemoveBudget } from '../api/remove-budget.ts';
import { useUpdateBudget } from '../api/update-budget.ts';
import { BudgetForm, type BudgetFormValues } from '../components/budget-form.tsx';
import { BudgetLoadError } from '../components/budget-load-error.tsx';
import { BudgetStatusTag } from '../components/budget-status-tag.tsx';
import { FinanceOnly } from '../components/finance-only.tsx';
import { PageLoader } from '../components/page-loader.tsx';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { isLoadLost } from '../../../lib/query-client.ts';

/** The form prefilled from the loaded budget (spec §2). */
function formValuesOf(budget: BudgetDetail): BudgetFormValues {
  return {
    name: budget.name,
    amount: formatTypedAmount(String(budget.amount)),
    department: budget.department,
    currency: budget.amount_currency,
    categories: budget.meta_data[0],
    branch: budget.meta_data[1],
    description: budget.description ?? '',
    code: budget.cost_code,
  };
}

type StatusPanelProps = { budget: BudgetDetail };

/** The budget code with its Archive or Re-activate button and what that does (spec §2, §4). */
function StatusPanel({ budget }: StatusPanelProps) {
  const { message } = App.useApp();
  const isMobile = useIsMobile();
  const setStatus = useUpdateBudget();
  const sendSetStatus = useOneAtATime(setStatus);
  const isActive = budget.current_status === 'active';

  function handleToggle() {
    sendSetStatus(
      { body: { id: budget.id, current_status: isActive ? 'archived' : 'active' } },
      {
        onSuccess: (saved) =>
          void message.success(
            saved.current_status === 'archived'
              ? `Budget ${saved.code} archived.`
              : `Budget ${saved.code} re-activated.`,
          ),
      },
    );
  }

  return (
    <Card size={isMobile ? 'small' : 'medium'} title="Edit budget">
      <Flex vertical gap={12}>
        <Flex gap={12} wrap justify="space-between" align="center">
          <div>
            <Typography.Text type="secondary">Budget code</Typography.Text>
            <Flex gap={8} align="center">
              <Typography.Text
                strong
                style={{ fontSize: 28, letterSpacing: 2 }}
                data-testid="edit-budget-code"
              >
                {budget.code}
              </Typography.Text>
              <BudgetStatusTag status={budget.current_status} />
            </Flex>
          </div>
          <Button
            danger={isActive}
            loading={setStatus.isPending}
            onClick={handleToggle}
            style={isMobile ? { width: '100%' } : undefined}
          >
            {isActive ? 'Archive' : 'Re-activate'}
          </Button>
        </Flex>
        {setStatus.isError ? <Alert type="error" showIcon title={setStatus.error.message} /> : null}
        <Alert
          type="info"
          showIcon
          title={
            isActive
              ? 'Archiving makes this budget code unavailable to new requests.'
              : 'Re-activating makes this budget code accessible to new requests again.'
          }
        />
      </Flex>
    </Card>
  );
}

type EditBudgetFormProps = {
  budget: BudgetDetail;
  /** The version of the budget the form shows; a save made on an older one is refused (0036). */
  version: string | null;
  onSaved: (budget: BudgetResponse) => void;
};

/** The prefilled form with Cancel, Delete (only without requests) and Save. */
function EditBudgetForm({ budget, version, onSaved }: EditBudgetFormProps) {
  const navigate = useNavigate();
  const goBack = useGoBack(paths.dashboard.budgets.getHref());
  const { modal, message } = App.useApp();
  const update = useUpdateBudget();
  const sendUpdate = useOneAtATime(update);
  const remove = useRemoveBudget();
  const hasPriorRequests = budget.has_prior_requests;
  const failure = update.error ?? remove.error;

  function handleSubmit(payload: CreateBudgetRequest) {
    remove.reset();
    sendUpdate({ body: { id: budget.id, ...payload }, version }, { onSuccess: onSaved });
  }

  function handleDelete() {
    void modal.confirm({
      title: `Are you sure you want to delete the budget ${budget.code} from the system?`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => {
        update.reset();
        // The promise, not mutate's onSuccess: a socket's budgets refresh can answer 404 for the
        // deleted budget and unmount this page first, and mutate's callbacks die with it.
        void remove.mutateAsync({ id: budget.id }).then(
          (removed) => {
            void message.success(`Budget ${removed.code} deleted.`);
            void navigate(paths.dashboard.budgets.getHref(), { replace: true });
          },
          () => undefined, // shown by the form as its failure (remove.error)
        );
      },
    });
  }

  return (
    <BudgetForm
      initialValues={formValuesOf(budget)}
      isFrozen={hasPriorRequests}
      minimumAmount={budget.amount}
      isSaving={update.isPending || remove.isPending}
      alert={
        <>
          {hasPriorRequests ? (
            <Alert type="warning" showIcon title={messages.priorRequestsBlockChange} />
          ) : null}
          {failure ? (
            <Alert type="error" showIcon title={failure.message} data-testid="form-error" />
          ) : null}
        </>
      }
      extraActions={
        hasPriorRequests ? null : (
          <Button danger onClick={handleDelete} loading={remove.isPending}>
            Delete
          </Button>
        )
      }
      onSubmit={handleSubmit}
      onCancel={goBack}
    />
  );
}

function EditBudget() {
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const budget = useBudgetById(id, searchParams.get('code'));
  const [saved, setSaved] = useState<BudgetResponse | null>(null);

  if (saved) {
    return (
      <Result
        status="success"
        title={<FocusedTitle>Budget Edited Successful!</FocusedTitle>}
        subTitle="You have succesfully edited the budget code."
        extra={
          <Button
            type="primary"
            onClick={() =>
              void navigate(paths.dashboard.budget.getHref(saved.code), { replace: true })
            }
          >
            Go Back
          </Button>
        }
      />
    );
  }
  if (budget.isPending) return <PageLoader label="Loading budget…" />;
  // A refresh that failed keeps the form (and what was typed in it) on the budget already loaded.
  if (!budget.data || isLoadLost(budget)) {
    return <BudgetLoadError error={budget.error} onRetry={() => budget.refetch()} />;
  }
  const { data, version } = budget.data;

  return (
    <Flex vertical gap={16}>
      <StatusPanel budget={data} />
      <EditBudgetForm key={data.id} budget={data} version={version} onSaved={setSaved} />
    </Flex>
  );
}

/** Route /dashboard/edit-budget/{id} (spec §2, Edit budget); finance only. */
export function EditBudgetPage() {
  return (
    <FinanceOnly>
      <EditBudget />
    </FinanceOnly>
  );
}
