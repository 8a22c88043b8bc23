import { newPassword } from '@imprest/domain/api/auth.ts';
import { minPasswordLength } from '@imprest/domain/constants.ts';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { paths } from '../../../paths.ts';
import { useResetPassword } from '../api/reset-password.ts';
import { AuthLayout } from '../components/auth-layout.tsx';

type NewPasswordValues = { password: string; confirmation: string };

/**
 * Route /new-password: choose a new password with the token of the reset link (spec §2). Reached
 * from an invitation (`welcome=1`), it greets a newcomer who has no password yet.
 */
export function NewPasswordPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const resetPassword = useResetPassword();
  const sendNewPassword = useOneAtATime(resetPassword);
  const [form] = Form.useForm<NewPasswordValues>();
  const [isMismatch, setIsMismatch] = useState(false);
  const token = searchParams.get('token') ?? '';
  const email = searchParams.get('email') ?? '';
  const isWelcome = searchParams.get('welcome') === '1';

  if (!token) return <Navigate to={paths.signIn.getHref()} replace />;

  function handleSubmit(values: NewPasswordValues) {
    // Spec §5: a mismatch is reported by the alert, not sent.
    if (values.password !== values.confirmation) {
      setIsMismatch(true);
      return;
    }
    setIsMismatch(false);
    const checked = newPassword.safeParse(values.password);
    if (!checked.success) {
      form.setFields([{ name: 'password', errors: [checked.error.issues[0]?.message ?? ''] }]);
      return;
    }
    sendNewPassword(
      { token, email, password: values.password },
      {
        onSuccess: () =>
          void navigate(paths.successAuth.getHref(), { replace: true, state: { isWelcome } }),
      },
    );
  }

  return (
    <AuthLayout title={isWelcome ? 'Choose your password' : 'New password'}>
      <Typography.Title level={2}>
        {isWelcome ? 'Welcome to Imprest' : 'Choose a new password'}
      </Typography.Title>
      {isWelcome ? (
        <Typography.Paragraph type="secondary">
          Choose the password you will sign in with{email ? ` as ${email}` : ''}.
        </Typography.Paragraph>
      ) : email ? (
        <Typography.Paragraph type="secondary">For {email}</Typography.Paragraph>
      ) : null}
      {isMismatch ? (
        <Alert
          type="error"
          showIcon
          title="Error! Password have to match"
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {resetPassword.isError ? (
        <Alert
          type="error"
          showIcon
          title="Error. Couldn't reset password"
          description={resetPassword.error.message}
          style={{ marginBottom: 16 }}
          data-testid="new-password-error"
        />
      ) : null}
      <Form<NewPasswordValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={handleSubmit}
        disabled={resetPassword.isPending}
      >
        <Form.Item
          label="New Password"
          name="password"
          rules={[{ required: true, message: 'Enter a new password' }]}
          extra={`At least ${minPasswordLength} characters, and not a common password.`}
        >
          <Input.Password autoComplete="new-password" size="large" autoFocus />
        </Form.Item>
        <Form.Item
          label="Confirm Password"
          name="confirmation"
          rules={[{ required: true, message: 'Confirm the new password' }]}
        >
          <Input.Password autoComplete="new-password" size="large" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={resetPassword.isPending}
        >
          {isWelcome ? 'Set Password' : 'Reset Password'}
        </Button>
      </Form>
    </AuthLayout>
  );
}
