import { Button, Result } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../../lib/session.tsx';
import { paths } from '../../../paths.ts';
import { AuthLayout } from '../components/auth-layout.tsx';

/**
 * Route /success-auth: the password has been changed (spec §2). Back to Sign In leads to the
 * sign-in page even where someone is signed in in this browser (a shared computer, the link opened
 * in another tab): that session ends, rather than its dashboard showing to whoever set a password.
 */
export function SuccessAuthPage() {
  const navigate = useNavigate();
  const { user, signOut } = useSession();
  // A newcomer's first password (an invitation) is set, not changed.
  const isWelcome = (useLocation().state as { isWelcome?: boolean } | null)?.isWelcome === true;
  const title = isWelcome ? 'Password set' : 'Password changed';
  return (
    <AuthLayout title={title}>
      <Result
        status="success"
        title={title}
        subTitle={
          isWelcome
            ? 'Your password is set. Sign in with it to start using Imprest.'
            : 'Your new password is set. Sign in with it to continue.'
        }
        extra={
          <Button
            type="primary"
            size="large"
            onClick={() => {
              if (user) signOut();
              else void navigate(paths.signIn.getHref(), { replace: true });
            }}
          >
            Back to Sign In
          </Button>
        }
      />
    </AuthLayout>
  );
}
