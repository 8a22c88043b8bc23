import { Navigate, Outlet, useLocation } from 'react-router';
import { afterSignInHref, signInHref } from '../lib/next-path.ts';
import { useSession } from '../lib/session.tsx';
import { paths } from '../paths.ts';

/**
 * Signed-out visitors of /dashboard* go to / (spec §2), which remembers the page they asked for
 * (an e-mail link) and sends them there once signed in. Someone who just signed out is not sent
 * back to where they were.
 */
export function RequireSignedIn() {
  const { user, hasSignedOut } = useSession();
  const location = useLocation();
  if (!user) {
    const next = hasSignedOut ? null : `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={signInHref(next)} replace />;
  }
  return <Outlet />;
}

/** Signed-in visitors of / go to /dashboard (spec §2), or to the page they followed a link to. */
export function RedirectIfSignedIn() {
  const { user } = useSession();
  const location = useLocation();
  if (user) return <Navigate to={afterSignInHref(location.search)} replace />;
  return <Outlet />;
}

/** Spec §2: the new-request page sends a locked account back to the requests list. */
export function RedirectIfLocked() {
  const { user } = useSession();
  if (user?.is_locked) return <Navigate to={paths.dashboard.requests.getHref()} replace />;
  return <Outlet />;
}
