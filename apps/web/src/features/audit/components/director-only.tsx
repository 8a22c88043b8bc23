import { isSuperAdmin } from '@imprest/domain/permissions.ts';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useCurrentUser } from '../../../lib/session.tsx';
import { paths } from '../../../paths.ts';

type DirectorOnlyProps = { children: ReactNode };

/**
 * Issue 15: the audit trail is the director's; others who open its address go to Home, as the
 * Users pages send non-admins, rather than to filters and a Download they may not use.
 */
export function DirectorOnly({ children }: DirectorOnlyProps) {
  const user = useCurrentUser();
  if (!isSuperAdmin(user.role)) return <Navigate to={paths.dashboard.home.getHref()} replace />;
  return children;
}
