import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, passwordResetTokens } from '../../db/schema.ts';
import {
  auth,
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
    expect(link.searchParams.has('welcome')).toBe(false);
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

/** The tokens of the links e-mailed to an address, oldest first. */
async function linksSentTo(address: string): Promise<string[]> {
  const sent = await t.db
    .select({ body: emailOutbox.body })
    .from(emailOutbox)
    .where(eq(emailOutbox.to_address, address))
    .orderBy(emailOutbox.created_at, emailOutbox.id);
  return sent.map((email) => linkFrom(email.body).searchParams.get('token') ?? '');
}

let calls = 0;
/** Each call from an address of its own, clear of the per-address limits. */
const fromNewAddress = () => `10.66.0.${(calls += 1)}`;

async function askForReset(email: string): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/forgot-password',
    payload: { email },
    remoteAddress: fromNewAddress(),
  });
  expect(response.statusCode, response.body).toBe(200);
}

function setPassword(token: string, email: string, password: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/forgot-password/validate',
    payload: { token, email, password },
    remoteAddress: fromNewAddress(),
  });
}

describe("a password once set ends the user's other links", () => {
  it('a reset ends the older reset link and the invitation still unused', async () => {
    const organizationId = await buildOrganization(t.db, 'Links Org');
    const director = await buildUser(t.db, { organizationId, role: 'director' });
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: auth(director),
      payload: {
        fullname: 'Ama Invitee',
        email: 'ama@example.test',
        department: 'it',
        role: 'staff',
      },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    await askForReset('ama@example.test');
    await askForReset('ama@example.test');
    const [invitation, olderReset, newerReset] = await linksSentTo('ama@example.test');
    expect([invitation, olderReset, newerReset].every(Boolean)).toBe(true);

    const set = await setPassword(newerReset ?? '', 'ama@example.test', 'the passphrase ama chose');
    expect(set.statusCode, set.body).toBe(200);
    // A forwarded e-mail's link, in someone else's hands, sets nothing.
    for (const token of [olderReset, invitation]) {
      const other = await setPassword(token ?? '', 'ama@example.test', 'someone else chose this');
      expect(other.statusCode).toBe(400);
    }
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: 'ama@example.test', password: 'the passphrase ama chose' },
      remoteAddress: fromNewAddress(),
    });
    expect(signIn.statusCode).toBe(200);
  });

  it("changing one's own password ends the reset links asked for before", async () => {
    const owner = await buildUser(t.db, {
      organizationId: await buildOrganization(t.db, 'Change Org'),
      email: 'kofi@example.test',
    });
    await askForReset(owner.email);
    const [link] = await linksSentTo(owner.email);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/password',
      headers: auth(owner),
      payload: { current_password: owner.password, new_password: 'the passphrase kofi chose' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await setPassword(link ?? '', owner.email, 'someone else chose this');
    expect(stale.statusCode).toBe(400);
    // And the session the change answered with goes on.
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/validate-token',
      headers: { authorization: `Bearer ${changed.json<{ token: string }>().token}` },
    });
    expect(session.statusCode).toBe(200);
  });
});
