import { setupRequest, type AuthResponse, type SetupRequest } from '@imprest/domain/api/auth.ts';
import { Alert, Button, Form, Input } from 'antd';
import { zodRule } from '../../../lib/zod-rule.ts';
import { useSetUpOrganisation } from '../api/set-up-organisation.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';

type SetupFormProps = {
  onSignedIn: (auth: AuthResponse) => void;
  onCancel: () => void;
};

/** First run: creates the organisation and its director, then signs in (decisions §1). */
export function SetupForm({ onSignedIn, onCancel }: SetupFormProps) {
  const setUp = useSetUpOrganisation();
  const sendSetUp = useOneAtATime(setUp);

  function handleSubmit(values: SetupRequest) {
    const parsed = setupRequest.safeParse(values);
    sendSetUp(parsed.success ? parsed.data : values, { onSuccess: onSignedIn });
  }

  return (
    <Form<SetupRequest>
      layout="vertical"
      requiredMark={false}
      onFinish={handleSubmit}
      disabled={setUp.isPending}
    >
      {setUp.isError ? (
        <Alert type="error" showIcon title={setUp.error.message} style={{ marginBottom: 16 }} />
      ) : null}
      <Form.Item
        label="Organisation name"
        name="organization_name"
        rules={[zodRule(setupRequest.shape.organization_name)]}
      >
        <Input autoComplete="organization" size="large" autoFocus />
      </Form.Item>
      <Form.Item label="Full name" name="fullname" rules={[zodRule(setupRequest.shape.fullname)]}>
        <Input autoComplete="name" size="large" />
      </Form.Item>
      <Form.Item
        label="Email"
        name="email"
        rules={[zodRule(setupRequest.shape.email)]}
        validateTrigger="onBlur"
      >
        <Input type="email" autoComplete="email" size="large" />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={[zodRule(setupRequest.shape.password)]}>
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={setUp.isPending}>
        Create organisation
      </Button>
      <Button type="link" block onClick={onCancel} style={{ marginTop: 8 }}>
        Back to sign in
      </Button>
    </Form>
  );
}
