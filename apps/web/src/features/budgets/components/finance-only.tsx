import { isFinance } from '@imprest/domain/permissions.ts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from '../../../lib/session.tsx';
import { paths } from '../../../paths.ts';

type FinanceOnlyProps = { children: ReactNode };

/** Spec §6: adding and editing budgets needs finance permission; others go to the budget list. */
export function FinanceOnly({ children }: FinanceOnlyProps) {
  const user = useCurrentUser();
  if (!isFinance(user.role)) return <Navigate to={paths.dashboard.budgets.getHref()} replace />;
  return children;
}
