import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { paths } from '../../../paths.ts';
import { AuthLayout } from '../components/auth-layout.tsx';

/** Route /success-auth: the password has been changed (spec §2). */
export function SuccessAuthPage() {
  const navigate = useNavigate();
  return (
    <AuthLayout>
      <Result
        status="success"
        title="Password changed"
        subTitle="Your new password is set. Sign in with it to continue."
        extra={
          <Button
            type="primary"
            size="large"
            onClick={() => void navigate(paths.signIn.getHref(), { replace: true })}
          >
            Back to Sign In
          </Button>
        }
      />
    </AuthLayout>
  );
}
