import { messages } from '@imprest/domain/messages.ts';
import { eq, sql } from 'drizzle-orm';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, sessions } from '../../db/schema.ts';
import { attachRealtime } from '../../realtime/socket.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, submit } from '../../../test/factories/requests.ts';
import {
  auth,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { actorFromToken } from './session.ts';
import { signToken } from './tokens.ts';

// Issue 9: sessions end when they should — the old token gets 401 at once and the user's sockets
// are disconnected (docs/decisions/0010, 0012). A real socket.io server on a real port.
let t: TestApp;
let org: StaffedOrganization;
let url: string;
let closeRealtime: () => Promise<void>;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  const realtime = await attachRealtime(t.app, t.context);
  t.onSessionEnd(realtime.endSessions);
  closeRealtime = realtime.close;
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await closeRealtime();
});

const newUser = () =>
  buildUser(t.db, { organizationId: org.organizationId, fullname: 'Session Holder' });

const me = (user: { token: string }) =>
  t.app.inject({ method: 'GET', url: '/api/v1/users/validate-token', headers: auth(user) });

async function connected(token: string): Promise<Socket> {
  const socket = connectSocket(url, {
    auth: { token },
    reconnection: false,
    transports: ['websocket'],
  });
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', resolve);
    socket.on('connect_error', reject);
  });
  // The room join completes in the server's middleware.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return socket;
}

/** The claims of a token, read without checking it. */
function claimsOf(token: string): { sid: string; exp: number } {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    sid: string;
    exp: number;
  };
}

function disconnection(socket: Socket): Promise<string> {
  return new Promise((resolve) => socket.on('disconnect', (reason) => resolve(reason)));
}

/** Asserts the session of `user` ended: 401 at once, socket closed by the server, no reconnect. */
async function expectEnded(user: TestUser, socket: Socket, ended: Promise<string>) {
  const response = await me(user);
  expect(response.statusCode).toBe(401);
  expect(response.json().error).toBe(
    'Your session has expired or is invalid. Please sign in again.',
  );
  expect(await ended).toBe('io server disconnect');
  const again = connectSocket(url, {
    auth: { token: user.token },
    reconnection: false,
    transports: ['websocket'],
  });
  const error = await new Promise<Error>((resolve) => again.on('connect_error', resolve));
  expect(error.message).toBe('unauthorized');
  again.close();
  socket.close();
}

describe('sessions end when they should', () => {
  it('deactivation: the old token gets 401 and the socket is disconnected', async () => {
    const user = await newUser();
    const socket = await connected(user.token);
    const ended = disconnection(socket);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${user.id}`,
      headers: auth(org.director),
    });
    expect(response.statusCode).toBe(200);
    await expectEnded(user, socket, ended);
  });

  it('a new position: 401 at once and the socket is disconnected', async () => {
    const user = await newUser();
    const socket = await connected(user.token);
    const ended = disconnection(socket);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users',
      headers: auth(org.director),
      payload: { user_id: user.id, role: 'petty_cash_custodian' },
    });
    expect(response.statusCode).toBe(200);
    await expectEnded(user, socket, ended);
  });

  it('a password change: other sessions end, the answer carries a working token', async () => {
    const user = await newUser();
    const socket = await connected(user.token);
    const ended = disconnection(socket);
    const change = (body: object) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/v1/users/password',
        headers: auth(user),
        payload: body,
      });
    const wrong = await change({
      current_password: 'not it',
      new_password: 'a brand new password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Your current password is not correct.');
    const common = await change({ current_password: user.password, new_password: 'Sunshine1' });
    expect(common.statusCode).toBe(400);
    expect(common.json().error).toBe(
      'This password is among the 10,000 most common passwords; choose another.',
    );
    const short = await change({ current_password: user.password, new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect((await me(user)).statusCode).toBe(200);

    const changed = await change({
      current_password: user.password,
      new_password: 'a brand new password',
    });
    expect(changed.statusCode).toBe(200);
    await expectEnded(user, socket, ended);
    expect((await me({ token: changed.json().token as string })).statusCode).toBe(200);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: user.email, password: 'a brand new password' },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it("reads the caller on every call without the password's hash", async () => {
    const user = await newUser();
    const actor = await actorFromToken(t.context, user.token);
    expect(actor?.id).toBe(user.id);
    expect(actor).not.toHaveProperty('password_hash');
  });

  it('a password reset: 401 at once and the socket is disconnected; the link works once', async () => {
    const user = await newUser();
    const socket = await connected(user.token);
    const ended = disconnection(socket);
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const [email] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to_address, user.email));
    const link = new URL(/https?:\/\/\S+/.exec(email?.body ?? '')?.[0] ?? 'http://x');
    const payload = {
      token: link.searchParams.get('token'),
      email: user.email,
      password: 'reset and renewed',
    };
    const reset = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/forgot-password/validate', payload });
    const done = await reset();
    expect(done.statusCode, `${done.body} ${JSON.stringify(payload)} ${email?.body}`).toBe(200);
    await expectEnded(user, socket, ended);
    expect((await reset()).statusCode).toBe(400);
  });

  it('a finance lock ends the session; the user may sign in again, locked (decisions §9)', async () => {
    const user = await newUser();
    const socket = await connected(user.token);
    const ended = disconnection(socket);
    const lock = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/restrict',
      headers: auth(org.finance),
      payload: { user_id: user.id, lock_status: true },
    });
    expect(lock.statusCode).toBe(200);
    await expectEnded(user, socket, ended);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: user.email, password: user.password },
    });
    expect(signIn.statusCode).toBe(200);
    const again = { token: signIn.json().token as string };
    const still = await me(again);
    expect(still.json().user.is_locked).toBe(true);
    const refused = await submit(t.app, again, requestBody(org.budget.code));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(messages.lockedAccount);
    // Lifting the lock does not end the new session.
    const unlock = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/restrict',
      headers: auth(org.finance),
      payload: { user_id: user.id, lock_status: false },
    });
    expect(unlock.statusCode).toBe(200);
    expect((await me(again)).statusCode).toBe(200);
  });

  it('sign-out ends that session on the server, and only that one', async () => {
    const user = await newUser();
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: user.email, password: user.password },
    });
    const other = { token: signIn.json().token as string };
    const socket = await connected(user.token);
    const otherSocket = await connected(other.token);
    const ended = disconnection(socket);
    let isOtherDisconnected = false;
    otherSocket.on('disconnect', () => {
      isOtherDisconnected = true;
    });
    const renewed = await me(user);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/logout',
      headers: auth(user),
    });
    expect(logout.statusCode).toBe(204);
    await expectEnded(user, socket, ended);
    // A token renewed from the same session ends with it.
    expect((await me({ token: renewed.json().token as string })).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isOtherDisconnected).toBe(false);
    otherSocket.close();
  });

  it('validate-token renews within the session; never past 7 days from sign-in', async () => {
    const user = await newUser();
    const renewed = await me(user);
    expect(renewed.statusCode).toBe(200);
    const first = claimsOf(user.token);
    const second = claimsOf(renewed.json().token as string);
    expect(second.sid).toBe(first.sid);
    // The session began six days and 23 hours ago: a renewed token ends with it, in an hour.
    await t.db
      .update(sessions)
      .set({
        created_at: sql`now() - interval '6 days 23 hours'`,
        expires_at: sql`now() + interval '1 hour'`,
      })
      .where(eq(sessions.id, first.sid));
    const late = await me(user);
    expect(late.statusCode).toBe(200);
    const lateExp = claimsOf(late.json().token as string).exp;
    expect(lateExp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect(lateExp).toBeGreaterThan(Math.floor(Date.now() / 1000) + 3500);
    // Past its end, no token of the session works, however fresh.
    await t.db
      .update(sessions)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, first.sid));
    expect((await me({ token: late.json().token as string })).statusCode).toBe(401);
    expect((await me(user)).statusCode).toBe(401);
  });

  it('a token naming another organisation, an unknown session or none is refused', async () => {
    const user = await newUser();
    const key = t.context.jwtKey;
    const sid = claimsOf(user.token).sid;
    const otherOrg = signToken(key, {
      sub: user.id,
      org: '00000000-0000-4000-8000-0000000000ff',
      sid,
    });
    expect((await me({ token: otherOrg })).statusCode).toBe(401);
    const unknown = signToken(key, {
      sub: user.id,
      org: user.organization_id,
      sid: '00000000-0000-4000-8000-0000000000aa',
    });
    expect((await me({ token: unknown })).statusCode).toBe(401);
    const colleague = await newUser();
    const borrowed = signToken(key, {
      sub: colleague.id,
      org: user.organization_id,
      sid,
    });
    expect((await me({ token: borrowed })).statusCode).toBe(401);
    const notUuid = signToken(key, { sub: user.id, org: user.organization_id, sid: 'x' });
    expect((await me({ token: notUuid })).statusCode).toBe(401);
  });
});
