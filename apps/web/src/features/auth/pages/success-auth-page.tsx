import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
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
  return (
    <AuthLayout title="Password changed">
      <Result
        status="success"
        title="Password changed"
        subTitle="Your new password is set. Sign in with it to continue."
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
