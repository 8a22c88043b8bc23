import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema.ts';
import {
  auth,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { listUsers } from './queries.ts';

let t: TestApp;
let org: StaffedOrganization;
let outsider: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  outsider = (await buildStaffedOrganization(t.db, { name: 'Elsewhere' })).staff;
});

const call = (
  method: 'GET' | 'PUT' | 'DELETE',
  url: string,
  actor: { token: string },
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: auth(actor),
    ...(payload ? { payload } : {}),
  });

describe('GET /users/department/{department}/{role}', () => {
  it('lists the organisation for admins only, paged, filtered and searched', async () => {
    expect((await call('GET', 'users/department/all/all', org.staff)).statusCode).toBe(403);
    const all = await call('GET', 'users/department/all/all?per_page=3', org.admin);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 8, per_page: 3, page: 1 });
    expect(all.json().users).toHaveLength(3);
    expect(all.json().users.map((user: { fullname: string }) => user.fullname)).toEqual([
      'Asha Staff',
      'Baraka Custodian',
      'Chausiku Finance',
    ]);
    const finance = await call('GET', 'users/department/finance/finance_officer', org.admin);
    expect(finance.json().total).toBe(2);
    const search = await call(
      'GET',
      `users/department/all/all?search=${encodeURIComponent('ESHE')}`,
      org.admin,
    );
    expect(search.json().users.map((user: { fullname: string }) => user.fullname)).toEqual([
      'Eshe Director',
    ]);
    const byEmail = await call(
      'GET',
      `users/department/all/all?search=${org.staff.email.slice(0, 12)}`,
      org.admin,
    );
    expect(byEmail.json().users.map((user: { id: string }) => user.id)).toContain(org.staff.id);
    expect((await call('GET', 'users/department/space/all', org.admin)).statusCode).toBe(400);
    expect((await call('GET', 'users/department/all/boss', org.admin)).statusCode).toBe(400);
    expect((await call('GET', 'users/department/all/all?per_page=101', org.admin)).statusCode).toBe(
      400,
    );
  });

  it("reads each user without the password's hash", async () => {
    const { rows } = await listUsers(t.db, {
      organizationId: org.organizationId,
      department: null,
      role: null,
      search: undefined,
      page: 1,
      perPage: 50,
    });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).not.toHaveProperty('password_hash');
  });

  it('shows last_logged_in to the director only', async () => {
    const asDirector = await call('GET', 'users/department/all/all', org.director);
    expect(asDirector.json().users[0]).toHaveProperty('last_logged_in');
    const asAdmin = await call('GET', 'users/department/all/all', org.admin);
    expect(asAdmin.json().users[0]).not.toHaveProperty('last_logged_in');
  });
});

describe('GET /users/{id}', () => {
  it.each([
    ['staff', 'self', 200],
    ['staff', 'same organisation', 403],
    ['staff', 'other organisation', 404],
    ['admin', 'self', 200],
    ['admin', 'same organisation', 200],
    ['admin', 'other organisation', 404],
    ['director', 'same organisation', 200],
  ] as const)('%s reading %s → %s', async (who, target, status) => {
    const actor = who === 'staff' ? org.staff : who === 'admin' ? org.admin : org.director;
    const id =
      target === 'self' ? actor.id : target === 'other organisation' ? outsider.id : org.finance.id;
    const response = await call('GET', `users/${id}`, actor);
    expect(response.statusCode).toBe(status);
    if (status === 200) {
      expect(response.json().user).toMatchObject({ id, is_locked: false, locked_by: null });
      expect(response.json().user.created_at).toMatch(/^\d{4}-/);
    }
  });
});

describe('PUT /users (decisions §9)', () => {
  it('lets everyone change their own phone, not their name or e-mail', async () => {
    const own = await call('PUT', 'users', org.otherStaff, {
      user_id: org.otherStaff.id,
      phone_number: '255711111111',
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().user.phone_number).toBe('255711111111');
    // Unchanged director-only fields are fine.
    const unchanged = await call('PUT', 'users', org.otherStaff, {
      user_id: org.otherStaff.id,
      fullname: 'Juma Other',
      role: 'staff',
      system_role: 'staff',
      department: 'marketing',
    });
    expect(unchanged.statusCode).toBe(200);
    const name = await call('PUT', 'users', org.otherStaff, {
      user_id: org.otherStaff.id,
      fullname: 'Juma Renamed',
    });
    expect(name.statusCode).toBe(403);
    expect(name.json()).toEqual({
      error: 'Only the director can change the full name of a user.',
      details: [{ path: 'fullname', message: 'only the director can change it' }],
    });
    const email = await call('PUT', 'users', org.otherStaff, {
      user_id: org.otherStaff.id,
      email: 'juma@new.test',
    });
    expect(email.statusCode).toBe(403);
    expect(email.json().error).toBe('Only an admin can change the e-mail of a user.');
    expect(
      (await call('PUT', 'users', org.staff, { user_id: org.otherStaff.id, phone_number: '1' }))
        .statusCode,
    ).toBe(403);
  });

  it('lets an admin change phone and e-mail of others, not position or department; 404 elsewhere; 409 on a taken e-mail', async () => {
    const ok = await call('PUT', 'users', org.admin, {
      user_id: org.staff.id,
      email: 'Asha@New.Test',
      phone_number: '255722222222',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ email: 'asha@new.test', phone_number: '255722222222' });
    for (const [field, value] of [
      ['role', 'admin'],
      ['department', 'it'],
      ['system_role', 'admin'],
    ] as const) {
      const refused = await call('PUT', 'users', org.admin, {
        user_id: org.staff.id,
        [field]: value,
      });
      expect(refused.statusCode, field).toBe(403);
    }
    expect(
      (await call('PUT', 'users', org.admin, { user_id: outsider.id, phone_number: '1' }))
        .statusCode,
    ).toBe(404);
    const taken = await call('PUT', 'users', org.admin, {
      user_id: org.staff.id,
      email: org.finance.email.toUpperCase(),
    });
    expect(taken.statusCode).toBe(409);
    expect(
      (await call('PUT', 'users', org.admin, { user_id: org.staff.id, phone_number: '+255' }))
        .statusCode,
    ).toBe(400);
  });

  it('refuses an admin the e-mail of a user holding a permission the admin lacks: a new address would take the account over through a reset (docs/decisions/0033)', async () => {
    // An organisation of its own: a second director here would change the last-director tests.
    const own = await buildStaffedOrganization(t.db, { name: 'Takeover Attempt' });
    for (const [actor, target] of [
      [own.custodian, own.director],
      [own.custodian, own.finance],
      [own.finance, own.director],
    ] as const) {
      const refused = await call('PUT', 'users', actor, {
        user_id: target.id,
        email: 'takeover@attacker.test',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        error: 'Only someone holding every permission of this user can change their e-mail.',
        details: [{ path: 'email', message: 'the user holds a permission you lack' }],
      });
      const [stored] = await t.db.select().from(users).where(eq(users.id, target.id));
      expect(stored?.email).toBe(target.email);
    }
    // Their phone is still an admin's to change, and the director changes any e-mail.
    const phone = await call('PUT', 'users', own.custodian, {
      user_id: own.director.id,
      phone_number: '255733333333',
    });
    expect(phone.statusCode).toBe(200);
    const byDirector = await call('PUT', 'users', own.director, {
      user_id: own.finance.id,
      email: 'finance.officer@new.test',
    });
    expect(byDirector.statusCode).toBe(200);
    expect(byDirector.json().user.email).toBe('finance.officer@new.test');
  });

  it('keeps the stored phone number when a change leaves it out, and clears it when sent empty', async () => {
    const target = await buildUser(t.db, {
      organizationId: org.organizationId,
      fullname: 'Phone Keeper',
    });
    const set = await call('PUT', 'users', org.director, {
      user_id: target.id,
      phone_number: '255700000001',
    });
    expect(set.json().user.phone_number).toBe('255700000001');
    const renamed = await call('PUT', 'users', org.director, {
      user_id: target.id,
      fullname: 'Phone Keeper Renamed',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().user).toMatchObject({
      fullname: 'Phone Keeper Renamed',
      phone_number: '255700000001',
    });
    const cleared = await call('PUT', 'users', org.admin, { user_id: target.id, phone_number: '' });
    expect(cleared.json().user.phone_number).toBeNull();
  });

  it('lets the director change name, department and position; system_role follows; update_user is published', async () => {
    const before = t.events.length;
    const response = await call('PUT', 'users', org.director, {
      user_id: org.custodian.id,
      fullname: 'Baraka Promoted',
      department: 'it',
      role: 'staff',
      system_role: 'staff',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      fullname: 'Baraka Promoted',
      role: 'staff',
      system_role: 'staff',
      department: 'it',
    });
    expect(t.events.slice(before)).toContainEqual({
      organizationId: org.organizationId,
      event: 'update_user',
      payload: { user_id: org.custodian.id },
    });
    // system_role is accepted but follows the position (decisions §3).
    const mismatch = await call('PUT', 'users', org.director, {
      user_id: org.custodian.id,
      role: 'admin',
      system_role: 'staff',
    });
    expect(mismatch.statusCode).toBe(200);
    expect(mismatch.json().user).toMatchObject({ role: 'admin', system_role: 'admin' });
    // The last director keeps the position.
    const last = await call('PUT', 'users', org.director, {
      user_id: org.director.id,
      role: 'admin',
    });
    expect(last.statusCode).toBe(409);
  });
});

describe('PUT /users at once (decision 0019: the event says what changed)', () => {
  it('judges each save on the row as it is under its lock: the same rename twice records one event, two renames a chain', async () => {
    const person = await buildUser(t.db, {
      organizationId: org.organizationId,
      fullname: 'Neema Before',
    });
    const rename = (fullname: string) =>
      call('PUT', 'users', org.director, { user_id: person.id, fullname });
    // Another transaction holds the row for a moment, so the saves read it before either writes.
    const hold = async (saves: () => Promise<unknown>[]) => {
      const holder = new pg.Client({ connectionString: t.databaseUrl });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [person.id]);
      const pending = saves();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await holder.query('COMMIT');
      await holder.end();
      return Promise.all(pending);
    };
    const eventsOf = async () =>
      (
        await t.db
          .select()
          .from(auditEvents)
          .where(and(eq(auditEvents.action, 'user.updated'), eq(auditEvents.object_id, person.id)))
          .orderBy(auditEvents.id)
      ).map((event) => event.changes);

    await hold(() => [rename('Neema After'), rename('Neema After')]);
    expect(await eventsOf()).toEqual([{ fullname: { from: 'Neema Before', to: 'Neema After' } }]);

    await hold(() => [rename('Neema One'), rename('Neema Two')]);
    const [, second, third] = (await eventsOf()) as { fullname: { from: string; to: string } }[];
    expect(second?.fullname.from).toBe('Neema After');
    // The later save starts from what the earlier one wrote, not from the name both first read.
    expect(third?.fullname.from).toBe(second?.fullname.to);
    const [stored] = await t.db.select().from(users).where(eq(users.id, person.id));
    expect(stored?.fullname).toBe(third?.fullname.to);
  });
});

describe('DELETE /users/{userId}', () => {
  it('is the director’s, never oneself nor the last director; deactivates and hides the user', async () => {
    const target = await buildUser(t.db, {
      organizationId: org.organizationId,
      fullname: 'Leaving Soon',
    });
    for (const actor of [org.admin, org.finance, org.staff]) {
      const refused = await call('DELETE', `users/${target.id}`, actor);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('Only the director can delete users.');
    }
    expect((await call('DELETE', `users/${outsider.id}`, org.director)).statusCode).toBe(404);
    const self = await call('DELETE', `users/${org.director.id}`, org.director);
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toBe('You cannot delete your own account.');

    const deleted = await call('DELETE', `users/${target.id}`, org.director);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ user_id: target.id, deactivated: true });
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row?.deleted_at).toBeInstanceOf(Date);
    expect((await call('GET', `users/${target.id}`, org.director)).statusCode).toBe(404);
    const list = await call('GET', 'users/department/all/all?search=leaving', org.director);
    expect(list.json().total).toBe(0);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/authenticate',
      payload: { email: target.email, password: target.password },
    });
    expect(signIn.statusCode).toBe(401);
    expect((await call('DELETE', `users/${target.id}`, org.director)).statusCode).toBe(404);
  });

  it('lets the director delete another director (one always remains: the caller)', async () => {
    const second = await buildUser(t.db, { organizationId: org.organizationId, role: 'director' });
    expect((await call('DELETE', `users/${second.id}`, org.director)).statusCode).toBe(200);
  });
});
