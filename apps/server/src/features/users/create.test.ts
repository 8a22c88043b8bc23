import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, passwordResetTokens, users } from '../../db/schema.ts';
import { auth, createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});

const person = (n: number, extra: object = {}) => ({
  fullname: `Person ${n}`,
  email: `person${n}@import.test`,
  department: 'engineering',
  role: 'staff',
  system_role: 'staff',
  phone_number: '255700000000',
  ...extra,
});

function send(method: 'POST' | 'PUT') {
  return (actor: { token: string }, payload: unknown) =>
    t.app.inject({
      method,
      url: '/api/v1/users',
      headers: auth(actor),
      payload: payload as object,
    });
}
const post = send('POST');
const put = send('PUT');

const countUsers = async () => t.db.$count(users);
const outboxTo = (address: string) =>
  t.db.select().from(emailOutbox).where(eq(emailOutbox.to_address, address));

/** The token of an invitation e-mail's link. */
function linkOf(body: string): URL {
  const match = /https?:\/\/\S+/.exec(body);
  if (!match) throw new Error(`no link in ${body}`);
  return new URL(match[0]);
}

describe('POST /users: permissions', () => {
  it('refuses staff (403) and lets every admin add a user', async () => {
    const refused = await post(org.staff, person(1));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only an admin can add users.');
    for (const [index, actor] of [org.admin, org.finance, org.custodian].entries()) {
      const response = await post(actor, person(100 + index));
      expect(response.statusCode).toBe(201);
    }
  });

  it('refuses the director position from an admin, allows it from the director', async () => {
    const refused = await post(org.admin, [person(2), person(3, { role: 'director' })]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([
      { path: '2.role', message: 'Row 2: only the director can give the director position.' },
    ]);
    const allowed = await post(org.director, person(3, { role: 'director', system_role: 'admin' }));
    expect(allowed.statusCode).toBe(201);
    // The account type follows the position (decisions §3).
    expect(allowed.json().users[0]).toMatchObject({ role: 'director', system_role: 'director' });
  });
});

describe('POST /users: all or nothing', () => {
  it('adds one object or an array and answers the users', async () => {
    const response = await post(org.admin, [person(10), person(11, { role: 'finance_officer' })]);
    expect(response.statusCode).toBe(201);
    expect(response.json().users).toEqual([
      expect.objectContaining({
        email: 'person10@import.test',
        system_role: 'staff',
        is_locked: false,
      }),
      expect.objectContaining({ email: 'person11@import.test', system_role: 'admin' }),
    ]);
    expect(response.json().users[0]).not.toHaveProperty('last_logged_in');
  });

  it('a 3-row batch with a bad third row writes nothing and names row 3', async () => {
    const before = await countUsers();
    const response = await post(org.admin, [person(20), person(21), person(22, { email: 'nope' })]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'No users were added: the batch has a problem. Row 3: enter a valid e-mail address.',
      details: [{ path: '3.email', message: 'Row 3: enter a valid e-mail address.' }],
    });
    expect(await countUsers()).toBe(before);
    expect(await outboxTo('person20@import.test')).toEqual([]);
  });

  it('finds duplicates inside the batch and against existing users, in any case', async () => {
    const before = await countUsers();
    const response = await post(org.admin, [
      person(30),
      person(31, { email: 'PERSON30@Import.Test' }),
      person(32, { email: org.staff.email.toUpperCase() }),
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: '2.email', message: 'Row 2: e-mail person30@import.test is also on row 1.' },
      { path: '3.email', message: `Row 3: e-mail ${org.staff.email} is already taken.` },
    ]);
    expect(await countUsers()).toBe(before);
  });

  it('names unknown roles and departments, missing fields and bad phones by row', async () => {
    const response = await post(org.admin, [
      person(40, { role: 'boss' }),
      person(41, { department: 'space' }),
      { email: 'person42@import.test', department: 'it', role: 'staff' },
      person(43, { phone_number: '+255 700' }),
      'not an object',
    ]);
    expect(response.statusCode).toBe(400);
    const details = response.json().details as { path: string; message: string }[];
    expect(details.map((detail) => detail.path)).toEqual([
      '1.role',
      '2.department',
      '3.fullname',
      '4.phone_number',
      '5',
    ]);
    expect(details[0]?.message).toMatch(/^Row 1: unknown role "boss"; choose one of: staff, admin/);
    expect(details[1]?.message).toMatch(/^Row 2: unknown department "space"/);
    expect(details[2]?.message).toBe('Row 3: fullname is required.');
    expect(details[3]?.message).toBe('Row 4: phone number must be digits only (at most 20).');
  });

  it('refuses short and common passwords by row', async () => {
    const response = await post(org.admin, [
      person(50, { password: 'short' }),
      person(51, { password: 'Password1' }),
      person(52, { password: 'a sound passphrase' }),
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: '1.password', message: 'Row 1: the password must be at least 8 characters.' },
      {
        path: '2.password',
        message: 'Row 2: this password is among the 10,000 most common passwords; choose another.',
      },
    ]);
  });

  it('refuses 10,001 rows with 400 and an empty array', async () => {
    const rows = Array.from({ length: 10_001 }, (_, n) => person(100_000 + n));
    const response = await post(org.admin, rows);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(
      'No users were added: the batch has a problem. At most 10,000 users can be added at once; this batch has 10,001.',
    );
    expect((await post(org.admin, [])).statusCode).toBe(400);
  });
});

describe('POST /users: invitations', () => {
  it('a user without a password gets a 7-day single-use link; accepting it sets the password and signs in', async () => {
    const response = await post(org.admin, person(60));
    expect(response.statusCode).toBe(201);
    const [email] = await outboxTo('person60@import.test');
    expect(email?.subject).toBe('You are invited to Test Org on Imprest');
    expect(email?.body).toContain('Gimbi Admin invited you to Test Org');
    const link = linkOf(email?.body ?? '');
    expect(link.pathname).toBe('/reset-link');
    expect(link.searchParams.get('email')).toBe('person60@import.test');
    // The page greets a newcomer rather than offer a reset.
    expect(link.searchParams.get('welcome')).toBe('1');
    const token = link.searchParams.get('token') ?? '';
    const [stored] = await t.db
      .select({
        purpose: passwordResetTokens.purpose,
        hash: passwordResetTokens.token_hash,
        days: sql<number>`round(extract(epoch from ${passwordResetTokens.expires_at} - now()) / 86400)::int`,
      })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.user_id))
      .where(eq(users.email, 'person60@import.test'));
    expect(stored).toMatchObject({ purpose: 'invitation', days: 7 });
    expect(stored?.hash).not.toContain(token);

    const accept = (password: string, withToken = token) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/forgot-password/validate',
        payload: { token: withToken, email: 'person60@import.test', password },
      });
    expect((await accept('password1')).statusCode).toBe(400); // common: the token stays
    expect((await accept('my own good password')).statusCode).toBe(200);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: 'person60@import.test', password: 'my own good password' },
    });
    expect(signIn.statusCode).toBe(200);
    // Reused.
    const reused = await accept('another good password');
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe(
      'This reset link is invalid or has expired. Ask for a new one.',
    );
  });

  it('correcting an invited user’s e-mail revokes the first link and invites the new address', async () => {
    const created = await post(org.admin, person(63, { email: 'person63@imprt.test' }));
    expect(created.statusCode).toBe(201);
    const userId = created.json().users[0].id as string;
    const [misaddressed] = await outboxTo('person63@imprt.test');
    const oldToken = linkOf(misaddressed?.body ?? '').searchParams.get('token') ?? '';
    const corrected = await put(org.admin, { user_id: userId, email: 'person63@import.test' });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const accept = (token: string, email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/forgot-password/validate',
        payload: { token, email, password: 'a fine password' },
      });
    // Whoever got the misaddressed e-mail cannot use it, not even with the corrected address.
    for (const email of ['person63@import.test', 'person63@imprt.test']) {
      const refused = await accept(oldToken, email);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe(
        'This reset link is invalid or has expired. Ask for a new one.',
      );
    }
    const [invitation] = await outboxTo('person63@import.test');
    expect(invitation).toMatchObject({
      kind: 'invitation',
      subject: 'You are invited to Test Org on Imprest',
    });
    const link = linkOf(invitation?.body ?? '');
    expect(link.searchParams.get('email')).toBe('person63@import.test');
    expect(
      (await accept(link.searchParams.get('token') ?? '', 'person63@import.test')).statusCode,
    ).toBe(200);
  });

  it('a new e-mail revokes a reset link sent to the old one and invites nobody who has a password', async () => {
    const created = await post(org.admin, person(64, { password: 'a chosen password' }));
    const userId = created.json().users[0].id as string;
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password',
      payload: { email: 'person64@import.test' },
    });
    expect(forgot.statusCode).toBe(200);
    const [reset] = await outboxTo('person64@import.test');
    const token = linkOf(reset?.body ?? '').searchParams.get('token') ?? '';
    const changed = await put(org.admin, { user_id: userId, email: 'person64@moved.test' });
    expect(changed.statusCode, changed.body).toBe(200);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/forgot-password/validate',
      payload: { token, email: 'person64@moved.test', password: 'a taken-over password' },
    });
    expect(refused.statusCode).toBe(400);
    expect(await outboxTo('person64@moved.test')).toEqual([]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: 'person64@moved.test', password: 'a chosen password' },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('refuses expired and forged invitations and changes nothing', async () => {
    await post(org.admin, person(61));
    const [email] = await outboxTo('person61@import.test');
    const token = linkOf(email?.body ?? '').searchParams.get('token') ?? '';
    const accept = (withToken: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/forgot-password/validate',
        payload: { token: withToken, email: 'person61@import.test', password: 'a fine password' },
      });
    expect((await accept(`${token.slice(0, -2)}xx`)).statusCode).toBe(400);
    await t.db
      .update(passwordResetTokens)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(passwordResetTokens.purpose, 'invitation'));
    expect((await accept(token)).statusCode).toBe(400);
    const [row] = await t.db
      .select({ hash: users.password_hash })
      .from(users)
      .where(eq(users.email, 'person61@import.test'));
    expect(row?.hash).toBeNull();
  });

  it('a user given a password is not invited and signs in with it', async () => {
    expect((await post(org.admin, person(62, { password: 'a chosen password' }))).statusCode).toBe(
      201,
    );
    expect(await outboxTo('person62@import.test')).toEqual([]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: 'person62@import.test', password: 'a chosen password' },
    });
    expect(signIn.statusCode).toBe(200);
  });
});
