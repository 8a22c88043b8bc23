import { authenticateRequest, type AuthResponse } from '@imprest/domain/api/auth.ts';
import { messages } from '@imprest/domain/messages.ts';
import { Alert, Button, Form, Input } from 'antd';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-client.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { paths } from '../../../paths.ts';
import { useAuthenticate } from '../api/authenticate.ts';

type SignInValues = { email: string; password: string };

type SignInFormProps = { onSignedIn: (auth: AuthResponse) => void };

/** Spec §8: a failed sign-in says 'Invalid credentials'; throttling shows the server's words. */
function signInError(error: unknown): string {
  if (isApiError(error, 429)) return error.message;
  return messages.invalidCredentials;
}

/** E-mail and password sign-in (spec §2, route /). */
export function SignInForm({ onSignedIn }: SignInFormProps) {
  const authenticate = useAuthenticate();

  function handleSubmit(values: SignInValues) {
    const parsed = authenticateRequest.safeParse(values);
    authenticate.mutate(parsed.success ? parsed.data : values, { onSuccess: onSignedIn });
  }

  return (
    <Form<SignInValues>
      layout="vertical"
      requiredMark={false}
      onFinish={handleSubmit}
      disabled={authenticate.isPending}
    >
      {authenticate.isError ? (
        <Alert
          type="error"
          showIcon
          title={signInError(authenticate.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Form.Item
        label="Email"
        name="email"
        rules={[zodRule(authenticateRequest.shape.email)]}
        validateTrigger="onBlur"
      >
        <Input type="email" autoComplete="username" size="large" autoFocus />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[zodRule(authenticateRequest.shape.password)]}
        style={{ marginBottom: 8 }}
      >
        <Input.Password autoComplete="current-password" size="large" />
      </Form.Item>
      <div style={{ textAlign: 'right', marginBottom: 24 }}>
        <Link to={paths.resetPassword.getHref()}>Forgot password?</Link>
      </div>
      <Button type="primary" htmlType="submit" size="large" block loading={authenticate.isPending}>
        Sign In
      </Button>
    </Form>
  );
}
