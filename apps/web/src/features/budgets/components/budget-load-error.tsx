import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { TryAgainButton } from '../../../components/load-error.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { paths } from '../../../paths.ts';

type BudgetLoadErrorProps = { error: Error | null; onRetry: () => Promise<unknown> };

/** A budget that could not be loaded: not found (or not visible), or a failure to retry. */
export function BudgetLoadError({ error, onRetry }: BudgetLoadErrorProps) {
  const navigate = useNavigate();
  const isMissing = isApiError(error, 404);
  return (
    <Result
      status={isMissing ? '404' : 'error'}
      title={isMissing ? 'Budget not found' : 'The budget could not be loaded'}
      subTitle={error?.message}
      extra={[
        isMissing ? null : <TryAgainButton key="retry" onRetry={onRetry} />,
        <Button
          key="list"
          type="primary"
          onClick={() => void navigate(paths.dashboard.budgets.getHref())}
        >
          Back to budgets
        </Button>,
      ]}
    />
  );
}
