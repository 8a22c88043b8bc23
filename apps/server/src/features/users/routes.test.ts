import { messages } from '@imprest/domain/messages.ts';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, emailOutbox, users } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { lockStateOf } from '../../../test/factories/locking.ts';
import { requestBody, submit } from '../../../test/factories/requests.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let staff: TestUser;
let otherStaff: TestUser;
let admin: TestUser;
let outsider: TestUser;
let finance: TestUser;
let director: TestUser;
let budgetCode: string;

beforeAll(async () => {
  t = await createTestApp();
  const organizationId = await buildOrganization(t.db);
  staff = await buildUser(t.db, { organizationId });
  otherStaff = await buildUser(t.db, { organizationId });
  admin = await buildUser(t.db, { organizationId, role: 'admin' });
  outsider = await buildUser(t.db, { organizationId: await buildOrganization(t.db, 'Other') });
  finance = await buildUser(t.db, {
    organizationId,
    role: 'finance_officer',
    fullname: 'Chausiku Finance',
  });
  director = await buildUser(t.db, { organizationId, role: 'director', fullname: 'Eshe Director' });
  budgetCode = (await buildBudget(t.db, { organizationId })).code;
});

function put(actor: TestUser, body: unknown) {
  return t.app.inject({
    method: 'PUT',
    url: '/api/v1/users/settings',
    headers: auth(actor),
    payload: body as object,
  });
}

async function storedSettings(user: TestUser): Promise<string | undefined> {
  const [row] = await t.db
    .select({ settings: users.settings })
    .from(users)
    .where(eq(users.id, user.id));
  return row?.settings;
}

describe('PUT /users/settings', () => {
  it('lets the account holder mute notifications and tells their sessions', async () => {
    const response = await put(staff, {
      user_id: staff.id,
      settings: '{"mute_notification":true}',
    });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.json().user.settings)).toEqual({ mute_notification: true });
    expect(await storedSettings(staff)).toBe('{"mute_notification":true}');
    expect(t.events).toContainEqual({
      organizationId: staff.organization_id,
      event: 'update_user',
      payload: { user_id: staff.id },
    });
  });

  it('lets an admin change another user of the organisation', async () => {
    const response = await put(admin, {
      user_id: otherStaff.id,
      settings: '{"mute_notification":true}',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses staff changing someone else (403) and hides other organisations (404), changing nothing', async () => {
    const before = await storedSettings(admin);
    expect(
      (await put(staff, { user_id: admin.id, settings: '{"mute_notification":true}' })).statusCode,
    ).toBe(403);
    expect(await storedSettings(admin)).toBe(before);
    expect(
      (await put(admin, { user_id: outsider.id, settings: '{"mute_notification":true}' }))
        .statusCode,
    ).toBe(404);
  });

  it.each([
    ['text that is not JSON', { settings: 'mute' }],
    ['an unknown setting', { settings: '{"volume":11}' }],
    ['a wrong type', { settings: '{"mute_notification":"yes"}' }],
    ['a missing user id', { user_id: undefined, settings: '{"mute_notification":true}' }],
  ])('answers 400 for %s', async (_name, body) => {
    const response = await put(staff, { user_id: staff.id, ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid input/);
  });
});

function restrict(actor: TestUser | null, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/users/restrict',
    headers: actor ? auth(actor) : {},
    payload: body as object,
  });
}

const lockOf = (user: TestUser) => lockStateOf(t.db, user);

describe('POST /users/restrict', () => {
  it('answers 401 without a token, whatever the body', async () => {
    for (const body of [{ user_id: staff.id, lock_status: true }, { lock_status: 'yes' }, {}]) {
      expect((await restrict(null, body)).statusCode).toBe(401);
    }
  });

  it('refuses anyone without finance permission (403), changing nothing', async () => {
    for (const actor of [staff, admin]) {
      const response = await restrict(actor, { user_id: otherStaff.id, lock_status: true });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('Only finance can restrict or unrestrict users.');
    }
    expect((await lockOf(otherStaff))?.is_locked).toBe(false);
  });

  it('hides users of other organisations and unknown ids (404)', async () => {
    for (const userId of [outsider.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await restrict(finance, { user_id: userId, lock_status: true });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('User not found.');
    }
    expect((await lockOf(outsider))?.is_locked).toBe(false);
  });

  it('refuses restricting oneself (400)', async () => {
    const response = await restrict(finance, { user_id: finance.id, lock_status: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('You cannot restrict or unrestrict your own account.');
    expect((await lockOf(finance))?.is_locked).toBe(false);
  });

  it.each([
    ['a missing lock_status', { lock_status: undefined }],
    ['a lock_status that is not a boolean', { lock_status: 'true' }],
    ['a user_id that is not a UUID', { user_id: 'abc' }],
  ])('answers 400 for %s', async (_name, body) => {
    const response = await restrict(finance, {
      user_id: otherStaff.id,
      lock_status: true,
      ...body,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid input/);
  });

  it('locks a user with a reason and tells their sessions; the user may no longer submit requests, then unlocks', async () => {
    const before = t.events.length;
    const locked = await restrict(finance, { user_id: staff.id, lock_status: true });
    expect(locked.statusCode).toBe(200);
    expect(locked.json().user).toMatchObject({
      id: staff.id,
      is_locked: true,
      lock_reason: 'Restricted by Chausiku Finance.',
    });
    expect(await lockOf(staff)).toMatchObject({ is_locked: true, locked_by: 'finance' });
    expect((await lockOf(staff))?.locked_at).toBeInstanceOf(Date);
    expect(t.events.slice(before)).toEqual([
      {
        organizationId: staff.organization_id,
        event: 'update_user',
        payload: { user_id: staff.id },
      },
    ]);

    // The lock ended the session (docs/decisions/0012); a locked user still signs in and reads
    // (decisions §9).
    const ended = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/validate-token',
      headers: auth(staff),
    });
    expect(ended.statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: staff.email, password: staff.password },
    });
    expect(signIn.statusCode).toBe(200);
    staff = { ...staff, token: signIn.json().token as string };
    const refused = await submit(t.app, staff, requestBody(budgetCode));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(messages.lockedAccount);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/validate-token',
      headers: auth(staff),
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.is_locked).toBe(true);

    const unlocked = await restrict(director, { user_id: staff.id, lock_status: false });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().user).toMatchObject({ is_locked: false, lock_reason: null });
    expect(await lockOf(staff)).toEqual({
      is_locked: false,
      locked_by: null,
      lock_reason: null,
      locked_at: null,
    });
    expect((await submit(t.app, staff, requestBody(budgetCode))).statusCode).toBe(201);

    // Both changes were told to the user by e-mail, queued with the change itself.
    const mail = await t.db
      .select({ kind: emailOutbox.kind, subject: emailOutbox.subject })
      .from(emailOutbox)
      .where(eq(emailOutbox.to_address, staff.email))
      .orderBy(asc(emailOutbox.created_at));
    expect(mail.map((row) => row.kind)).toEqual(['account_locked', 'account_unlocked']);
  });

  it('writes, tells and ends nothing when the call changes nothing; a lock the system set becomes finance’s', async () => {
    const target = await buildUser(t.db, {
      organizationId: finance.organization_id,
      fullname: 'Never Locked',
    });
    const auditOf = () => t.db.$count(auditEvents, eq(auditEvents.object_id, target.id));
    const mailOf = () => t.db.$count(emailOutbox, eq(emailOutbox.to_address, target.email));
    const before = t.events.length;
    const unlocked = await restrict(finance, { user_id: target.id, lock_status: false });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().user).toMatchObject({ is_locked: false });
    expect([await auditOf(), await mailOf(), t.events.length - before]).toEqual([0, 0, 0]);

    expect((await restrict(finance, { user_id: target.id, lock_status: true })).statusCode).toBe(
      200,
    );
    expect([await auditOf(), await mailOf()]).toEqual([1, 1]);
    // Restricted again, by someone else: already finance's lock, so nothing happens.
    const again = await restrict(director, { user_id: target.id, lock_status: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().user).toMatchObject({
      is_locked: true,
      lock_reason: 'Restricted by Chausiku Finance.',
    });
    expect([await auditOf(), await mailOf()]).toEqual([1, 1]);

    // A lock the midnight job set is a change to take over: it no longer lifts by itself.
    await t.db
      .update(users)
      .set({ locked_by: 'system', lock_reason: 'Retirement overdue.' })
      .where(eq(users.id, target.id));
    const takenOver = await restrict(director, { user_id: target.id, lock_status: true });
    expect(takenOver.json().user.lock_reason).toBe('Restricted by Eshe Director.');
    expect(await lockOf(target)).toMatchObject({ is_locked: true, locked_by: 'finance' });
    expect(await auditOf()).toBe(2);
  });

  it('restricts once when two finance users restrict the same user at the same moment', async () => {
    const target = await buildUser(t.db, {
      organizationId: finance.organization_id,
      fullname: 'Twice Restricted',
    });
    const answers = await Promise.all([
      restrict(finance, { user_id: target.id, lock_status: true }),
      restrict(director, { user_id: target.id, lock_status: true }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(await t.db.$count(auditEvents, eq(auditEvents.object_id, target.id))).toBe(1);
    expect(await t.db.$count(emailOutbox, eq(emailOutbox.to_address, target.email))).toBe(1);
  });

  it('lets finance lift a lock the system set', async () => {
    await t.db
      .update(users)
      .set({
        is_locked: true,
        locked_by: 'system',
        lock_reason:
          'Retirement of Travel (AP-2026-00001) is more than 30 days past its due date of 01/10/2026.',
        locked_at: new Date(),
      })
      .where(eq(users.id, otherStaff.id));
    const response = await restrict(finance, { user_id: otherStaff.id, lock_status: false });
    expect(response.statusCode).toBe(200);
    expect(await lockOf(otherStaff)).toEqual({
      is_locked: false,
      locked_by: null,
      lock_reason: null,
      locked_at: null,
    });
  });
});
