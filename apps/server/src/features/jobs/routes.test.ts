import { messages } from '@imprest/domain/messages.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { retirements, users } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, submit } from '../../../test/factories/requests.ts';
import { buildRetirement, submitRetirement } from '../../../test/factories/retirements.ts';
import {
  buildOverdueOrganization,
  buildStoredRetirement,
} from '../../../test/factories/locking.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

let t: TestApp;
let demo: TestApp;
let org: StaffedOrganization;
let demoOrg: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  demo = await createTestApp({ config: { isDemo: true } });
  org = await buildStaffedOrganization(t.db);
  demoOrg = await buildStaffedOrganization(demo.db);
});

function run(app: TestApp, user: TestUser | null, payload?: unknown) {
  return app.app.inject({
    method: 'POST',
    url: '/api/v1/jobs/lock-overdue',
    headers: user ? auth(user) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

describe('POST /jobs/lock-overdue', () => {
  it('answers 401 without a valid token, whatever the body', async () => {
    for (const payload of [undefined, {}, { as_of: 'yesterday' }, { as_of: 42 }]) {
      const response = await run(t, null, payload);
      expect(response.statusCode).toBe(401);
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/jobs/lock-overdue',
      headers: { 'content-type': 'application/json', authorization: 'Bearer nonsense' },
      payload: '{"as_of":',
    });
    expect(malformed.statusCode).toBe(401);
  });

  it('refuses everyone but a director (403)', async () => {
    for (const user of [org.staff, org.finance, org.secretary, org.admin, org.custodian]) {
      const response = await run(t, user, {});
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('Only a director can run the lock job.');
    }
  });

  it('runs as of today in ORG_TIMEZONE for a director, with or without a body', async () => {
    for (const payload of [undefined, {}]) {
      const response = await run(t, org.director, payload);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        as_of: todayIn(t.context.config.orgTimezone),
        locked: [],
        unlocked: [],
      });
    }
  });

  it('refuses as_of outside demo mode (400) and changes nothing', async () => {
    const late = await buildStoredRetirement(t.db, {
      owner: org.otherStaff,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: '2020-01-01',
    });
    const response = await run(t, org.director, { as_of: '2030-01-01' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('as_of is accepted only in demo mode.');
    const [owner] = await t.db.select().from(users).where(eq(users.id, late.retirement_owner_id));
    expect(owner?.is_locked).toBe(false);
  });

  it.each([
    ['not a date', 'next week'],
    ['an impossible day', '2026-02-30'],
    ['a date-time', '2026-12-01T00:00:00Z'],
    ['a number', 20261201],
  ])('answers 400 for as_of as %s (demo mode)', async (_name, asOf) => {
    const response = await run(demo, demoOrg.director, { as_of: asOf });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid input: as_of/);
  });

  it('in demo mode runs as of as_of for the director’s organisation only; the locked owner still retires', async () => {
    const asOf = '2026-12-01';
    const retirement = await buildRetirement(demo.app, {
      owner: demoOrg.staff,
      finance: demoOrg.finance,
      reviewers: [demoOrg.finance, demoOrg.secretary],
      budgetCode: demoOrg.budget.code,
      amount: 50_000,
    });
    await demo.db
      .update(retirements)
      .set({ due_date: addDays(asOf, -31) })
      .where(eq(retirements.id, retirement.id));
    const elsewhere = await buildOverdueOrganization(demo.db, addDays(asOf, -60));

    const response = await run(demo, demoOrg.director, { as_of: asOf });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      as_of: asOf,
      locked: [{ user_id: demoOrg.staff.id, fullname: 'Asha Staff' }],
      unlocked: [],
    });
    const [outsider] = await demo.db.select().from(users).where(eq(users.id, elsewhere.staff.id));
    expect(outsider?.is_locked).toBe(false);
    expect(demo.events).toContainEqual({
      organizationId: demoOrg.organizationId,
      event: 'update_user',
      payload: { user_id: demoOrg.staff.id },
    });

    // Locked: no new request, but the retirement that unlocks them still goes in (decisions §8).
    const refused = await submit(demo.app, demoOrg.staff, requestBody(demoOrg.budget.code));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(messages.lockedAccount);
    const retired = await submitRetirement(demo.app, demoOrg.staff, {
      id: retirement.id,
      amount_spent: 48_000,
      amount_currency: retirement.amount_currency,
      comments: 'Receipts attached',
      file_paths: [],
    });
    expect(retired.statusCode).toBe(200);
    expect(retired.json().status).toBe('on_progress');

    // Nothing of theirs is overdue any more: the submission lifts the lock at once and says so.
    const [owner] = await demo.db.select().from(users).where(eq(users.id, demoOrg.staff.id));
    expect(owner).toMatchObject({ is_locked: false, locked_by: null, lock_reason: null });
    const ownerEvents = demo.events.filter(
      (event) =>
        event.event === 'update_user' &&
        (event.payload as { user_id: string }).user_id === demoOrg.staff.id,
    );
    // Locked by the run, unlocked by the submission.
    expect(ownerEvents).toHaveLength(2);
    expect(
      (await submit(demo.app, demoOrg.staff, requestBody(demoOrg.budget.code))).statusCode,
    ).toBe(201);
    // The next run leaves them unlocked.
    const again = await run(demo, demoOrg.director, { as_of: asOf });
    expect(again.json()).toMatchObject({ locked: [], unlocked: [] });
  });
});
