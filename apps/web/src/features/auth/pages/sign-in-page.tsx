import type { AuthResponse } from '@imprest/domain/api/auth.ts';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { routeModules } from '../../../app/route-modules.ts';
import { startHomePrefetch } from '../../dashboard/api/start-home-prefetch.ts';
import { afterSignInHref } from '../../../lib/next-path.ts';
import { useSession } from '../../../lib/session.tsx';
import { paths } from '../../../paths.ts';
import { useSetupStatus } from '../api/get-setup-status.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SignInForm } from '../components/sign-in-form.tsx';

/** The first-run form uses antd: fetched with antd's theme once someone starts setting up. */
const SetupForm = lazy(async () => {
  const [{ SetupForm: Form }, { AntdProvider }] = await Promise.all([
    import('../components/setup-form.tsx'),
    routeModules.antd(),
  ]);
  return {
    default: (props: Parameters<typeof Form>[0]) => (
      <AntdProvider>
        <Form {...props} />
      </AntdProvider>
    ),
  };
});

/**
 * Route /: sign in, or set up the organisation on first run (spec §2, decisions §1). Plain HTML
 * and CSS without antd, the first page most visitors load (issue 13: its JavaScript budget).
 */
export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { signIn, status } = useSession();
  const setupStatus = useSetupStatus();
  const [isSettingUp, setIsSettingUp] = useState(false);
  const needsSetup = setupStatus.data?.needs_setup === true;

  function handleSignedIn(auth: AuthResponse) {
    signIn(auth);
    const next = afterSignInHref(location.search);
    // Home's data is asked for now, while Home's files download, rather than once they have come
    // and Home has rendered (issue 13).
    if (next === paths.dashboard.home.getHref()) startHomePrefetch(queryClient, auth.user);
    void navigate(next, { replace: true });
  }

  if (isSettingUp && needsSetup) {
    return (
      <AuthLayout title="Set up your organisation">
        <h1 className="auth-title">Set up your organisation</h1>
        <p className="auth-subtitle">
          Create the organisation and the first account, its director.
        </p>
        <Suspense fallback={null}>
          <SetupForm onSignedIn={handleSignedIn} onCancel={() => setIsSettingUp(false)} />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in">
      <h1 className="auth-title">Welcome back</h1>
      <p className="auth-subtitle">Use your organisation account to continue.</p>
      {status === 'rejected' ? (
        // Sent here because the server ended the session (it ran out, a password change, a sign-out
        // elsewhere): said, rather than the page changing under the person without a word.
        <p className="sign-in-notice" role="status" data-testid="session-ended">
          Your session has ended. Please sign in again.
        </p>
      ) : null}
      <SignInForm onSignedIn={handleSignedIn} />
      {needsSetup ? (
        <>
          <div className="auth-divider" role="separator">
            New to Imprest?
          </div>
          <button
            type="button"
            className="sign-in-button sign-in-button-default"
            onClick={() => setIsSettingUp(true)}
          >
            Set up your organisation
          </button>
        </>
      ) : null}
    </AuthLayout>
  );
}
