import type { UserResponse } from '@imprest/domain/api/users.ts';
import { roleListText } from '@imprest/domain/enums.ts';
import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';
import { CheckCircleFilled, ClockCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../../../paths.ts';
import { useMatrixVacancies } from '../../approval-matrix/api/get-matrix-vacancies.ts';
import { lookUpBudgetCodes } from '../../requests/api/get-budget-codes.ts';

/**
 * Whether the organisation has an active budget code: `GET budget/codes?limit=1`, one code at
 * most whatever the organisation's size (docs/decisions/0025).
 */
function useHasActiveBudget(isEnabled: boolean) {
  return useQuery({
    queryKey: ['budgets', 'codes', 'any active'],
    queryFn: async () => (await lookUpBudgetCodes('', 1)).length > 0,
    enabled: isEnabled,
    staleTime: 0,
  });
}

type Step = {
  key: string;
  title: string;
  isDone: boolean;
  /** What is left while the step is open, and the button that does it. */
  todo: string;
  action: { label: string; href: string };
  /** What stands once it is done. */
  done: string;
};

/**
 * Home's first-run guide for those who can add users (docs/decisions/0041): until someone holds
 * every position of the approval matrix, and (for finance) until a budget code is active, it says
 * what is left and leads there; requests cannot go through before. It is gone once both are done,
 * so an organisation at work does not see it; while it waits for its answers it shows nothing.
 */
export function GettingStarted({
  user,
  cardSize,
}: {
  user: UserResponse;
  cardSize: 'small' | 'medium';
}) {
  const navigate = useNavigate();
  const mayAddUsers = isAdmin(user.role);
  const mayAddBudgets = isFinance(user.role);
  const vacancies = useMatrixVacancies({ isEnabled: mayAddUsers });
  const hasBudget = useHasActiveBudget(mayAddUsers && mayAddBudgets);
  if (!mayAddUsers || vacancies.data === undefined) return null;
  if (mayAddBudgets && hasBudget.data === undefined) return null;

  const vacant = vacancies.data.roles;
  const steps: Step[] = [
    {
      key: 'reviewers',
      title: 'Add the people who review requests',
      isDone: vacant.length === 0,
      todo: `Nobody holds ${roleListText(vacant)} yet, so requests would wait at ${vacant.length > 1 ? 'those steps' : 'that step'} of the approval matrix.`,
      action: { label: 'New User', href: paths.dashboard.newUsers.getHref() },
      done: 'Someone holds every position of the approval matrix.',
    },
  ];
  if (mayAddBudgets) {
    steps.push({
      key: 'budget',
      title: 'Add a budget code',
      isDone: hasBudget.data === true,
      todo: 'Every request is made against a budget code, and none is active yet.',
      action: { label: 'New Budget', href: paths.dashboard.newBudget.getHref() },
      done: 'A budget code is active.',
    });
  }
  if (steps.every((step) => step.isDone)) return null;

  return (
    <Card title="Getting started" size={cardSize} data-testid="getting-started">
      <Flex vertical gap={16}>
        <span className="home-text-secondary">
          A few things to do before your colleagues' requests can go through.
        </span>
        <ol className="getting-started-steps">
          {steps.map((step) => (
            <li key={step.key} data-testid={`getting-started-${step.key}`}>
              <Flex gap={12} align="start">
                {step.isDone ? (
                  <CheckCircleFilled
                    className="getting-started-icon getting-started-done"
                    aria-label="Done"
                  />
                ) : (
                  <ClockCircleOutlined className="getting-started-icon" aria-label="To do" />
                )}
                <Flex vertical gap={4} style={{ minWidth: 0 }}>
                  <strong>{step.title}</strong>
                  <span className="home-text-secondary">{step.isDone ? step.done : step.todo}</span>
                  {step.isDone ? null : (
                    <div>
                      <Button type="primary" onClick={() => void navigate(step.action.href)}>
                        {step.action.label}
                      </Button>
                    </div>
                  )}
                </Flex>
              </Flex>
            </li>
          ))}
        </ol>
      </Flex>
    </Card>
  );
}
