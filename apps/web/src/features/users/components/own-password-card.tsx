import { newPassword } from '@imprest/domain/api/common.ts';
import { Alert, Button, Card, Flex, Form, Input } from 'antd';
import { useState } from 'react';
import { useSession } from '../../../lib/session.tsx';
import { useChangePassword } from '../api/change-password.ts';
import { passwordsDiffer } from './user-messages.ts';

type PasswordValues = { current_password: string; new_password: string; confirmation: string };

/** My profile: one's own password, the current one required (spec §5: both new ones must match). */
export function OwnPasswordCard() {
  const { signIn } = useSession();
  const change = useChangePassword();
  const [form] = Form.useForm<PasswordValues>();
  const [isMismatch, setIsMismatch] = useState(false);

  function handleFinish(values: PasswordValues) {
    if (values.new_password !== values.confirmation) {
      setIsMismatch(true);
      return;
    }
    setIsMismatch(false);
    const checked = newPassword.safeParse(values.new_password);
    if (!checked.success) {
      form.setFields([{ name: 'new_password', errors: [checked.error.issues[0]?.message ?? ''] }]);
      return;
    }
    change.mutate(
      { current_password: values.current_password, new_password: values.new_password },
      {
        // Other sessions end; this one carries on with the fresh token.
        onSuccess: (auth) => {
          signIn(auth);
          form.resetFields();
        },
      },
    );
  }

  return (
    <Card title="Password" size="small">
      <Form<PasswordValues>
        form={form}
        name="own-password"
        layout="vertical"
        requiredMark={false}
        onFinish={handleFinish}
        onValuesChange={() => change.reset()}
        disabled={change.isPending}
        style={{ maxWidth: 420 }}
      >
        <Flex vertical gap={12}>
          {isMismatch ? (
            <Alert type="error" showIcon title={passwordsDiffer} data-testid="password-mismatch" />
          ) : null}
          {change.isError ? (
            <Alert
              type="error"
              showIcon
              title={change.error.message}
              data-testid="password-error"
            />
          ) : null}
          {change.isSuccess ? (
            <Alert
              type="success"
              showIcon
              title="Your password has been changed. Other devices have been signed out."
              data-testid="password-changed"
            />
          ) : null}
          <div>
            <Form.Item
              label="Current password"
              name="current_password"
              rules={[{ required: true, message: 'Enter your current password' }]}
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item
              label="New password"
              name="new_password"
              rules={[{ required: true, message: 'Enter a new password' }]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              label="Confirm new password"
              name="confirmation"
              rules={[{ required: true, message: 'Confirm the new password' }]}
              style={{ marginBottom: 0 }}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </div>
          <div>
            <Button type="primary" htmlType="submit" loading={change.isPending}>
              Change password
            </Button>
          </div>
        </Flex>
      </Form>
    </Card>
  );
}
