import { email } from '@imprest/domain/api/common.ts';
import { Alert, Button, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useGoBack } from '../../../lib/use-go-back.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { paths } from '../../../paths.ts';
import { useSendResetLink } from '../api/send-reset-link.ts';
import { AuthLayout } from '../components/auth-layout.tsx';

type ResetValues = { email: string };

/** Routes /reset-password and /reset: ask for a reset link (spec §2, texts of spec §8). */
export function ResetPasswordPage() {
  // Back one page when the app has history, else to sign in.
  const handleBack = useGoBack(paths.signIn.getHref());
  const sendResetLink = useSendResetLink();
  // Spec §8: a forgot-password that fails says 'Invalid Email address', whether the server refused
  // the address or the form did before sending it.
  const [isMistyped, setIsMistyped] = useState(false);

  function handleSubmit(values: ResetValues) {
    setIsMistyped(false);
    const parsed = email.safeParse(values.email);
    sendResetLink.mutate({ email: parsed.success ? parsed.data : values.email });
  }

  return (
    <AuthLayout title="Forgot password">
      <Typography.Title level={2}>Forgot your password?</Typography.Title>
      <Typography.Paragraph type="secondary">
        Enter the e-mail address of your account and we will send you a link to choose a new one.
      </Typography.Paragraph>
      {sendResetLink.isSuccess ? (
        <Alert
          type="success"
          showIcon
          title="Reset password code has been sent to your email"
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {sendResetLink.isError || isMistyped ? (
        <Alert type="error" showIcon title="Invalid Email address" style={{ marginBottom: 16 }} />
      ) : null}
      <Form<ResetValues>
        layout="vertical"
        requiredMark={false}
        onFinish={handleSubmit}
        // The form's own check, not the browser's bubble, judges the address (and says so).
        noValidate
        onFinishFailed={() => {
          sendResetLink.reset();
          setIsMistyped(true);
        }}
        disabled={sendResetLink.isPending}
      >
        <Form.Item label="Email" name="email" rules={[zodRule(email)]} validateTrigger="onBlur">
          <Input type="email" autoComplete="email" size="large" autoFocus />
        </Form.Item>
        <Flex vertical gap={8}>
          <Button
            type="primary"
            htmlType="submit"
            size="large"
            block
            loading={sendResetLink.isPending}
          >
            Send Reset Link
          </Button>
          <Button size="large" block onClick={handleBack} disabled={false}>
            Back
          </Button>
        </Flex>
      </Form>
    </AuthLayout>
  );
}
