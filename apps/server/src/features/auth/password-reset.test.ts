import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, passwordResetTokens } from '../../db/schema.ts';
import {
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await buildUser(t.db, {
    organizationId: await buildOrganization(t.db),
    email: 'reset@example.test',
  });
});

function linkFrom(body: string): URL {
  const match = body.match(/https?:\/\/\S+/);
  if (!match) throw new Error('no link in e-mail');
  return new URL(match[0]);
}

describe('password reset', () => {
  it('refuses an unknown address with Invalid Email address', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password',
      payload: { email: 'nobody@example.test' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Invalid Email address' });
  });

  it('e-mails a one-time link that sets a new password', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password',
      payload: { email: 'RESET@example.test' },
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: 'Reset password code has been sent to your email' });
    const [email] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to_address, 'reset@example.test'));
    // Queued with its sending job in the reset's transaction; the e-mail worker sends it.
    expect(email).toMatchObject({ status: 'queued', kind: 'password_reset' });
    const link = linkFrom(email?.body ?? '');
    expect(link.pathname).toBe('/reset-link');
    const token = link.searchParams.get('token') ?? '';
    // Only a digest is stored.
    const [stored] = await t.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.user_id, user.id));
    expect(stored?.token_hash).not.toBe(token);

    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password/validate',
      payload: { token, email: user.email, password: 'short' },
    });
    expect(weak.statusCode).toBe(400);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password/validate',
      payload: { token, email: user.email, password: 'a brand new passphrase' },
    });
    expect(reset.statusCode).toBe(200);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: user.email, password: 'a brand new passphrase' },
    });
    expect(signIn.statusCode).toBe(200);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password/validate',
      payload: { token, email: user.email, password: 'another new passphrase' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(
      'This reset link is invalid or has expired. Ask for a new one.',
    );
  });

  it('refuses a made-up token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password/validate',
      payload: { token: 'made-up', email: user.email, password: 'a brand new passphrase' },
    });
    expect(response.statusCode).toBe(400);
  });
});
