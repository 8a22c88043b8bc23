import { isAdmin } from '@imprest/domain/permissions.ts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from '../../../lib/session.tsx';
import { paths } from '../../../paths.ts';

type AdminOnlyProps = { children: ReactNode };

/** Spec §6: the Users section needs admin permission; others go to the dashboard. */
export function AdminOnly({ children }: AdminOnlyProps) {
  const user = useCurrentUser();
  if (!isAdmin(user.role)) return <Navigate to={paths.dashboard.home.getHref()} replace />;
  return children;
}
