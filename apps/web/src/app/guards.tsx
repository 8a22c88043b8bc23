import { Navigate, Outlet } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { paths } from '../paths.ts';

/** Signed-out visitors of /dashboard* go to / (spec §2). */
export function RequireSignedIn() {
  const { user } = useSession();
  if (!user) return <Navigate to={paths.signIn.getHref()} replace />;
  return <Outlet />;
}

/** Signed-in visitors of / go to /dashboard (spec §2). */
export function RedirectIfSignedIn() {
  const { user } = useSession();
  if (user) return <Navigate to={paths.dashboard.home.getHref()} replace />;
  return <Outlet />;
}

/** Spec §2: the new-request page sends a locked account back to the requests list. */
export function RedirectIfLocked() {
  const { user } = useSession();
  if (user?.is_locked) return <Navigate to={paths.dashboard.requests.getHref()} replace />;
  return <Outlet />;
}
