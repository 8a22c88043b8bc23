import type { AuthResponse } from '@imprest/domain/api/auth.ts';
import { Button, Divider, Typography } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { afterSignInHref } from '../../../lib/next-path.ts';
import { useSession } from '../../../lib/session.tsx';
import { useSetupStatus } from '../api/get-setup-status.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SetupForm } from '../components/setup-form.tsx';
import { SignInForm } from '../components/sign-in-form.tsx';

/** Route /: sign in, or set up the organisation on first run (spec §2, decisions §1). */
export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const { signIn } = useSession();
  const setupStatus = useSetupStatus();
  const [isSettingUp, setIsSettingUp] = useState(false);
  const needsSetup = setupStatus.data?.needs_setup === true;

  function handleSignedIn(auth: AuthResponse) {
    signIn(auth);
    void navigate(afterSignInHref(location.search), { replace: true });
  }

  if (isSettingUp && needsSetup) {
    return (
      <AuthLayout>
        <Typography.Title level={2}>Set up your organisation</Typography.Title>
        <Typography.Paragraph type="secondary">
          Create the organisation and the first account, its director.
        </Typography.Paragraph>
        <SetupForm onSignedIn={handleSignedIn} onCancel={() => setIsSettingUp(false)} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <Typography.Title level={2}>Welcome back</Typography.Title>
      <Typography.Paragraph type="secondary">
        Use your organisation account to continue.
      </Typography.Paragraph>
      <SignInForm onSignedIn={handleSignedIn} />
      {needsSetup ? (
        <>
          <Divider plain>New to Imprest?</Divider>
          <Button block size="large" onClick={() => setIsSettingUp(true)}>
            Set up your organisation
          </Button>
        </>
      ) : null}
    </AuthLayout>
  );
}
