import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
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

beforeAll(async () => {
  t = await createTestApp();
  const organizationId = await buildOrganization(t.db);
  staff = await buildUser(t.db, { organizationId });
  otherStaff = await buildUser(t.db, { organizationId });
  admin = await buildUser(t.db, { organizationId, role: 'admin' });
  outsider = await buildUser(t.db, { organizationId: await buildOrganization(t.db, 'Other') });
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
