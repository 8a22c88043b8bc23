import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signInFailures, users } from '../../db/schema.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  testJwtSecret,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { throttleLimits } from './throttle.ts';

let t: TestApp;
let staff: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const organizationId = await buildOrganization(t.db);
  staff = await buildUser(t.db, {
    organizationId,
    role: 'staff',
    email: 'asha@example.test',
    fullname: 'Asha Staff',
  });
});

function signIn(body: unknown, address = '10.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/users/authenticate',
    payload: body as object,
    remoteAddress: address,
  });
}

describe('POST /users/authenticate', () => {
  it('signs in with the right password, any letter case of the e-mail, and records last_logged_in', async () => {
    const response = await signIn({ email: '  ASHA@example.test ', password: staff.password });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({
      email: 'asha@example.test',
      fullname: 'Asha Staff',
      role: 'staff',
      system_role: 'staff',
    });
    expect(body.user.password_hash).toBeUndefined();
    expect(typeof body.token).toBe('string');
    const [row] = await t.db.select().from(users).where(eq(users.id, staff.id));
    expect(row?.last_logged_in).toBeInstanceOf(Date);
  });

  it('answers 401 Invalid credentials for a wrong password or an unknown account, the same way', async () => {
    const wrong = await signIn({ email: 'asha@example.test', password: 'nope nope' }, '10.0.0.2');
    const unknown = await signIn(
      { email: 'nobody@example.test', password: 'nope nope' },
      '10.0.0.2',
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid credentials' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'Invalid credentials' });
  });

  it.each([
    ['missing fields', {}],
    ['a number for the e-mail', { email: 5, password: 'x' }],
    ['a malformed e-mail', { email: 'not-an-email', password: 'x' }],
    ['an empty password', { email: 'asha@example.test', password: '' }],
  ])('answers 400 for %s', async (_name, body) => {
    const response = await signIn(body, '10.0.0.3');
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid input/);
    expect(Array.isArray(response.json().details)).toBe(true);
  });

  it('answers 400 for malformed JSON and for an oversized body, writing nothing', async () => {
    const before = await t.db.$count(signInFailures);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "asha@example.test", ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'The request body is not valid JSON.' });
    const oversized = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        email: 'asha@example.test',
        password: 'x'.repeat(2 * 1024 * 1024),
      }),
    });
    expect(oversized.statusCode).toBe(400);
    expect(oversized.json()).toEqual({ error: 'The request body is too large.' });
    expect(await t.db.$count(signInFailures)).toBe(before);
  });

  it('slows repeated failures of one account at one address with a growing delay, but not the owner elsewhere', async () => {
    const victim = await buildUser(t.db, {
      organizationId: staff.organization_id,
      email: 'victim@example.test',
    });
    const guess = () => signIn({ email: victim.email, password: 'guess guess' }, '10.9.9.9');
    for (let i = 0; i < throttleLimits.freeAttempts; i += 1) {
      expect((await guess()).statusCode).toBe(401);
    }
    const blocked = await signIn({ email: victim.email, password: victim.password }, '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe(
      'Too many sign-in attempts. Please wait 1 second and try again.',
    );
    expect(blocked.headers['retry-after']).toBe('1');
    // The real owner, from their own address, is not slowed by the attacker at all.
    expect(
      (await signIn({ email: victim.email, password: victim.password }, '10.1.1.1')).statusCode,
    ).toBe(200);
    // Each further failure doubles the wait: 1 s, 2 s, 4 s…
    const ageFailures = (seconds: number) =>
      t.db
        .update(signInFailures)
        .set({ created_at: sql`${signInFailures.created_at} - make_interval(secs => ${seconds})` })
        .where(eq(signInFailures.address, '10.9.9.9'));
    await ageFailures(1);
    expect((await guess()).statusCode).toBe(401);
    const second = await guess();
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('2');
    await ageFailures(2);
    expect((await guess()).statusCode).toBe(401);
    expect((await guess()).headers['retry-after']).toBe('4');
  });

  it('an attacker failing 100 times from many addresses does not lock the owner out', async () => {
    const victim = await buildUser(t.db, {
      organizationId: staff.organization_id,
      email: 'many-guesses@example.test',
    });
    for (let i = 0; i < 100; i += 1) {
      // Written straight to the table, as 50 addresses failing twice each would leave it.
      await t.db
        .insert(signInFailures)
        .values({ email: victim.email, address: `10.50.0.${i % 50}` });
    }
    const owner = await signIn({ email: victim.email, password: victim.password }, '10.2.2.2');
    expect(owner.statusCode).toBe(200);
  });

  it('takes the client address from the socket: X-Forwarded-For does not escape the limits', async () => {
    for (let i = 0; i < throttleLimits.address; i += 1) {
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/users/authenticate',
        payload: { email: `rotate${i}@example.test`, password: 'guess guess' },
        remoteAddress: '10.8.8.8',
        headers: { 'x-forwarded-for': `203.0.113.${i}` },
      });
    }
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: 'asha@example.test', password: staff.password },
      remoteAddress: '10.8.8.8',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(response.statusCode).toBe(429);
  });

  it('holds the limits against tries sent at once: each try counts the ones beside it', async () => {
    const victim = await buildUser(t.db, {
      organizationId: staff.organization_id,
      email: 'burst@example.test',
    });
    const tries = await Promise.all(
      Array.from({ length: 30 }, () =>
        signIn({ email: victim.email, password: 'guess guess' }, '10.8.8.1'),
      ),
    );
    // A burst may even be refused whole (each try sees the others): it is withdrawn, never kept.
    const checked = tries.filter((response) => response.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(throttleLimits.freeAttempts);
    expect(tries.every((response) => [401, 429].includes(response.statusCode))).toBe(true);
    // A refused try is not a failure: only the checked ones are kept.
    expect(await t.db.$count(signInFailures, eq(signInFailures.address, '10.8.8.1'))).toBe(checked);

    const sprayed = await Promise.all(
      Array.from({ length: 2 * throttleLimits.address }, (_, i) =>
        signIn({ email: `burst${i}@example.test`, password: 'guess guess' }, '10.8.8.2'),
      ),
    );
    expect(sprayed.filter((response) => response.statusCode === 401).length).toBeLessThanOrEqual(
      throttleLimits.address,
    );
  });

  it('throttles one address trying many accounts', async () => {
    for (let i = 0; i < throttleLimits.address; i += 1) {
      await signIn({ email: `spray${i}@example.test`, password: 'guess guess' }, '10.7.7.7');
    }
    const response = await signIn(
      { email: 'asha@example.test', password: staff.password },
      '10.7.7.7',
    );
    expect(response.statusCode).toBe(429);
  });
});

describe('GET /users/validate-token', () => {
  const url = '/api/v1/users/validate-token';

  it('accepts the token as a Bearer header and answers a fresh token with the user', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${staff.token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(staff.id);
    expect(response.json().token).toEqual(expect.any(String));
  });

  it("answers the organisation's time zone, ORG_TIMEZONE, whose day the web takes as today", async () => {
    const response = await t.app.inject({ method: 'GET', url, headers: auth(staff) });
    expect(response.json().time_zone).toBe('Africa/Dar_es_Salaam');
    const auckland = await createTestApp({ config: { orgTimezone: 'Pacific/Auckland' } });
    const organizationId = await buildOrganization(auckland.db);
    const kiwi = await buildUser(auckland.db, { organizationId, email: 'kiwi@example.test' });
    for (const answer of [
      await auckland.app.inject({ method: 'GET', url, headers: auth(kiwi) }),
      await auckland.app.inject({
        method: 'POST',
        url: '/api/v1/users/authenticate',
        payload: { email: 'kiwi@example.test', password: kiwi.password },
      }),
    ]) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json().time_zone).toBe('Pacific/Auckland');
    }
  });

  it('accepts the token in a token header', async () => {
    const response = await t.app.inject({ method: 'GET', url, headers: { token: staff.token } });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe('asha@example.test');
  });

  it('refuses no token, garbage, an expired token, an unsigned token, another algorithm and another key', async () => {
    const key = new TextEncoder().encode(testJwtSecret);
    // The caller's own claims (live session included), so each token differs from a valid one
    // in one respect only; jose signs them, independently of the server's own signer.
    const { sid } = JSON.parse(
      Buffer.from(staff.token.split('.')[1] ?? '', 'base64url').toString(),
    ) as { sid: string };
    const now = Math.floor(Date.now() / 1000);
    const token = (alg: string, expires: number, secret = key) =>
      new SignJWT({ org: staff.organization_id, sid })
        .setProtectedHeader({ alg, typ: 'JWT' })
        .setSubject(staff.id)
        .setIssuedAt(now - 60)
        .setExpirationTime(expires)
        .sign(secret);
    const valid = await token('HS256', now + 3600);
    const control = await t.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${valid}` },
    });
    expect(control.statusCode).toBe(200);
    const expired = await token('HS256', now - 1);
    const otherAlgorithm = await token('HS512', now + 3600);
    const otherKey = await token(
      'HS256',
      now + 3600,
      new TextEncoder().encode('another-secret-another-secret-another-secret'),
    );
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${encode({ alg: 'none', typ: 'JWT' })}.${valid.split('.')[1]}.`;
    const noExpiry = await new SignJWT({ org: staff.organization_id, sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(staff.id)
      .sign(key);
    for (const headers of [
      {},
      { authorization: 'Bearer garbage' },
      { token: 'a.b.c' },
      { authorization: `Bearer ${expired}` },
      { authorization: `Bearer ${otherAlgorithm}` },
      { authorization: `Bearer ${otherKey}` },
      { authorization: `Bearer ${unsigned}` },
      { authorization: `Bearer ${noExpiry}` },
    ]) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.json().error).toBe(
        'Your session has expired or is invalid. Please sign in again.',
      );
    }
  });

  it('refuses the token of a deleted user', async () => {
    const gone = await buildUser(t.db, { organizationId: staff.organization_id });
    await t.db.update(users).set({ deleted_at: new Date() }).where(eq(users.id, gone.id));
    const response = await t.app.inject({ method: 'GET', url, headers: { token: gone.token } });
    expect(response.statusCode).toBe(401);
  });
});

describe('unknown routes', () => {
  it('answers 404 JSON under /api', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/does-not-exist' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No such endpoint: GET /api/v1/does-not-exist' });
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toContain('/api/v1/users/authenticate');
  });
});
