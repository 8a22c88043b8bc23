import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, delegations, users } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

const orgTimezone = 'Africa/Dar_es_Salaam';
let t: TestApp;
let org: StaffedOrganization;
let elsewhere: { director: TestUser; finance: TestUser };

beforeAll(async () => {
  t = await createTestApp({ config: { orgTimezone } });
  org = await buildStaffedOrganization(t.db);
  const otherId = await buildOrganization(t.db, 'Elsewhere');
  elsewhere = {
    director: await buildUser(t.db, { organizationId: otherId, role: 'director' }),
    finance: await buildUser(t.db, { organizationId: otherId, role: 'finance_officer' }),
  };
});

/** A day relative to today in the organisation's time zone. */
const day = (offset: number) => addDays(todayIn(orgTimezone), offset);

/** A fresh user of the organisation, so each test owns its delegators' periods. */
const person = (role: Role, fullname: string, options: { isLocked?: boolean } = {}) =>
  buildUser(t.db, { organizationId: org.organizationId, role, fullname, ...options });

const create = (user: TestUser, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/delegations', headers: auth(user), payload: body });
const end = (user: TestUser, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/delegations/${id}/end`, headers: auth(user) });
const list = (user: TestUser, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/delegations?per_page=100${query}`,
    headers: auth(user),
  });

/** A delegation that must be created, as the API answers it. */
async function created(user: TestUser, body: Record<string, unknown>) {
  const response = await create(user, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; status: string; [key: string]: unknown }>();
}

const auditOf = (objectId: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.object_type, 'delegation'), eq(auditEvents.object_id, objectId)))
    .orderBy(auditEvents.id);
const counts = async () => ({
  delegations: await t.db.$count(delegations),
  audit: await t.db.$count(auditEvents),
});

/** A delegation written straight into the table: periods in the past cannot be created. */
async function stored(delegator: TestUser, delegate: TestUser, startsOn: string, endsOn: string) {
  const [row] = await t.db
    .insert(delegations)
    .values({
      organization_id: delegator.organization_id,
      delegator_id: delegator.id,
      delegate_id: delegate.id,
      starts_on: startsOn,
      ends_on: endsOn,
      created_by: delegator.id,
    })
    .returning();
  if (!row) throw new Error('no delegation');
  return row;
}

describe('POST /delegations', () => {
  it('a reviewer names a delegate from today: 201, active, and one audit row', async () => {
    const secretary = await person('executive_secretary', 'Daudi Away');
    const body = await created(secretary, {
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(3),
      note: '  Annual leave  ',
    });
    expect(body).toEqual({
      id: expect.any(String),
      delegator: { id: secretary.id, fullname: 'Daudi Away', role: 'executive_secretary' },
      delegate: {
        id: org.custodian.id,
        fullname: 'Baraka Custodian',
        role: 'petty_cash_custodian',
      },
      starts_on: day(0),
      ends_on: day(3),
      note: 'Annual leave',
      status: 'active',
      created_by: { id: secretary.id, fullname: 'Daudi Away' },
      created_at: expect.any(String),
      ended_at: null,
      ended_by: null,
    });
    const audit = await auditOf(body.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      organization_id: org.organizationId,
      actor_id: secretary.id,
      actor_name: 'Daudi Away',
      action: 'delegation.created',
      changes: {
        delegator: { to: { id: secretary.id, name: 'Daudi Away' } },
        delegate: { to: { id: org.custodian.id, name: 'Baraka Custodian' } },
        starts_on: { to: day(0) },
        ends_on: { to: day(3) },
        note: { to: 'Annual leave' },
      },
    });
  });

  it('starting tomorrow is scheduled; a one-day delegation is allowed; the note is optional', async () => {
    const officer = await person('finance_officer', 'Fatma Officer');
    const body = await created(officer, {
      delegate_id: org.finance2.id,
      starts_on: day(1),
      ends_on: day(1),
    });
    expect(body).toMatchObject({ status: 'scheduled', note: null });
  });

  it('the director sets one on someone’s behalf; created_by names the director', async () => {
    const secretary = await person('executive_secretary', 'Sara Secretary');
    const body = await created(org.director, {
      delegator_id: secretary.id,
      delegate_id: org.custodian.id,
      starts_on: day(2),
      ends_on: day(9),
    });
    expect(body).toMatchObject({
      delegator: { id: secretary.id },
      delegate: { id: org.custodian.id },
      created_by: { id: org.director.id, fullname: 'Eshe Director' },
    });
    expect(await auditOf(body.id)).toMatchObject([
      { actor_id: org.director.id, action: 'delegation.created' },
    ]);
  });

  it('anyone else naming a delegator gets 403; naming themselves is their own delegation', async () => {
    const secretary = await person('executive_secretary', 'Sefu Secretary');
    const before = await counts();
    const refused = await create(org.finance, {
      delegator_id: secretary.id,
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(1),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only the director can set a delegation for someone else.');
    expect(await counts()).toEqual(before);
    const own = await created(secretary, {
      delegator_id: secretary.id,
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(1),
    });
    expect(own).toMatchObject({ delegator: { id: secretary.id } });
  });

  describe('refuses and writes nothing', () => {
    let delegator: TestUser;
    beforeAll(async () => {
      delegator = await person('director', 'Refused Director');
    });

    const cases: [
      string,
      () => Promise<{ user: TestUser; body: Record<string, unknown> }>,
      number,
      string | RegExp,
    ][] = [
      [
        'a caller who reviews no requests',
        async () => ({
          user: org.staff,
          body: { delegate_id: org.custodian.id, starts_on: day(0), ends_on: day(1) },
        }),
        403,
        'Only someone who reviews requests can name a delegate.',
      ],
      [
        'an admin who reviews no requests',
        async () => ({
          user: org.admin,
          body: { delegate_id: org.custodian.id, starts_on: day(0), ends_on: day(1) },
        }),
        403,
        'Only someone who reviews requests can name a delegate.',
      ],
      [
        'plain staff as the delegate',
        async () => ({
          user: delegator,
          body: { delegate_id: org.staff.id, starts_on: day(0), ends_on: day(1) },
        }),
        400,
        'Asha Staff reviews no requests; choose a delegate who does.',
      ],
      [
        'a locked delegate',
        async () => ({
          user: delegator,
          body: {
            delegate_id: (await person('finance_officer', 'Locked Lulu', { isLocked: true })).id,
            starts_on: day(0),
            ends_on: day(1),
          },
        }),
        400,
        "Locked Lulu's account is locked, so they cannot act for someone else.",
      ],
      [
        'a deactivated delegate',
        async () => {
          const gone = await person('finance_officer', 'Gone Gift');
          await t.db.update(users).set({ deleted_at: new Date() }).where(eq(users.id, gone.id));
          return {
            user: delegator,
            body: { delegate_id: gone.id, starts_on: day(0), ends_on: day(1) },
          };
        },
        400,
        'Gone Gift has been deactivated.',
      ],
      [
        'oneself as the delegate',
        async () => ({
          user: delegator,
          body: { delegate_id: delegator.id, starts_on: day(0), ends_on: day(1) },
        }),
        400,
        'A delegate must be someone else.',
      ],
      [
        'a delegate of another organisation',
        async () => ({
          user: delegator,
          body: { delegate_id: elsewhere.finance.id, starts_on: day(0), ends_on: day(1) },
        }),
        404,
        'User not found.',
      ],
      [
        'the director naming a delegator of another organisation',
        async () => ({
          user: org.director,
          body: {
            delegator_id: elsewhere.director.id,
            delegate_id: org.custodian.id,
            starts_on: day(0),
            ends_on: day(1),
          },
        }),
        404,
        'User not found.',
      ],
      [
        'the director naming a delegator who reviews nothing',
        async () => ({
          user: org.director,
          body: {
            delegator_id: org.staff.id,
            delegate_id: org.custodian.id,
            starts_on: day(0),
            ends_on: day(1),
          },
        }),
        400,
        'Asha Staff reviews no requests, so has no steps to delegate.',
      ],
      [
        'a start before today (in the organisation’s time zone)',
        async () => ({
          user: delegator,
          body: { delegate_id: org.custodian.id, starts_on: day(-1), ends_on: day(1) },
        }),
        400,
        'A delegation cannot start before today.',
      ],
      [
        'an end before the start',
        async () => ({
          user: delegator,
          body: { delegate_id: org.custodian.id, starts_on: day(3), ends_on: day(2) },
        }),
        400,
        'The last day of a delegation cannot be before its first day.',
      ],
      [
        'more than 90 days',
        async () => ({
          user: delegator,
          body: { delegate_id: org.custodian.id, starts_on: day(0), ends_on: day(90) },
        }),
        400,
        'A delegation lasts at most 90 days; name it again when it ends.',
      ],
      [
        'a date that is not YYYY-MM-DD',
        async () => ({
          user: delegator,
          body: { delegate_id: org.custodian.id, starts_on: '2026-02-30', ends_on: day(1) },
        }),
        400,
        /starts_on must be a date as YYYY-MM-DD/,
      ],
    ];

    it.each(cases)('%s → %s', async (_name, build, status, message) => {
      const { user, body } = await build();
      const before = await counts();
      const response = await create(user, body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error).toMatch(message);
      expect(await counts()).toEqual(before);
    });
  });

  it('refuses an overlap with a live delegation of the same delegator (409), not a period next to it', async () => {
    const director = await person('director', 'Overlap Director');
    const first = await created(director, {
      delegate_id: org.custodian.id,
      starts_on: day(2),
      ends_on: day(5),
    });
    const before = await counts();
    const overlap = await create(director, {
      delegate_id: org.finance.id,
      starts_on: day(5),
      ends_on: day(8),
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().error).toBe(
      `Overlap Director already has a delegation from ${day(2)} to ${day(5)}. End it or choose days that do not overlap.`,
    );
    expect(await counts()).toEqual(before);
    // The next day is free; so is the same period once the first has ended.
    await created(director, { delegate_id: org.finance.id, starts_on: day(6), ends_on: day(8) });
    expect((await end(director, first.id)).statusCode).toBe(200);
    await created(director, { delegate_id: org.finance.id, starts_on: day(2), ends_on: day(5) });
  });

  it('a lapsed delegation does not block a new one', async () => {
    const director = await person('director', 'Lapsed Director');
    await stored(director, org.custodian, day(-10), day(-1));
    await created(director, { delegate_id: org.custodian.id, starts_on: day(0), ends_on: day(2) });
  });

  it('two overlapping creations at once: exactly one 201 and one 409', async () => {
    const director = await person('director', 'Racing Director');
    const responses = await Promise.all(
      [org.custodian, org.finance2].map((delegate) =>
        create(director, { delegate_id: delegate.id, starts_on: day(1), ends_on: day(4) }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
    const rows = await t.db
      .select()
      .from(delegations)
      .where(eq(delegations.delegator_id, director.id));
    expect(rows).toHaveLength(1);
  });

  it('replays a repeat with the same Idempotency-Key instead of answering 409', async () => {
    const director = await person('director', 'Keyed Director');
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/delegations',
        headers: { ...auth(director), 'idempotency-key': 'delegation-key-1' },
        payload: { delegate_id: org.custodian.id, starts_on: day(0), ends_on: day(1) },
      });
    const first = await send();
    const repeat = await send();
    expect(first.statusCode).toBe(201);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json().id).toBe(first.json().id);
    expect(await auditOf(first.json().id)).toHaveLength(1);
  });
});

describe('GET /delegations', () => {
  let delegator: TestUser;
  let delegate: TestUser;
  let bystander: TestUser;
  let active: string;
  let scheduled: string;
  let lapsed: string;
  let foreign: string;

  beforeAll(async () => {
    delegator = await person('executive_secretary', 'Listed Delegator');
    delegate = await person('board_chairman', 'Listed Delegate');
    bystander = await person('finance_officer', 'Bystander Officer');
    active = (
      await created(delegator, { delegate_id: delegate.id, starts_on: day(0), ends_on: day(2) })
    ).id;
    scheduled = (
      await created(delegator, { delegate_id: delegate.id, starts_on: day(10), ends_on: day(12) })
    ).id;
    lapsed = (await stored(delegator, delegate, day(-9), day(-3))).id;
    const [otherOrgDelegation] = await t.db
      .insert(delegations)
      .values({
        organization_id: elsewhere.director.organization_id,
        delegator_id: elsewhere.director.id,
        delegate_id: elsewhere.finance.id,
        starts_on: day(0),
        ends_on: day(1),
        created_by: elsewhere.director.id,
      })
      .returning();
    foreign = otherOrgDelegation?.id ?? '';
  });

  const idsOf = async (user: TestUser, query = '') => {
    const response = await list(user, query);
    expect(response.statusCode).toBe(200);
    return response.json<{ data: { id: string }[] }>().data.map((item) => item.id);
  };

  it('shows a user their own, as delegator and as delegate, latest first day first', async () => {
    expect(await idsOf(delegator)).toEqual([scheduled, active, lapsed]);
    expect(await idsOf(delegate)).toEqual([scheduled, active, lapsed]);
    expect(await idsOf(bystander)).toEqual([]);
  });

  it('shows the director every delegation of the organisation, never another’s', async () => {
    const ids = await idsOf(org.director);
    expect(ids).toEqual(expect.arrayContaining([active, scheduled, lapsed]));
    expect(ids).not.toContain(foreign);
    expect(await idsOf(elsewhere.director)).toEqual([foreign]);
  });

  it('filters by status on today', async () => {
    expect(await idsOf(delegator, '&status=active')).toEqual([active]);
    expect(await idsOf(delegator, '&status=scheduled')).toEqual([scheduled]);
    expect(await idsOf(delegator, '&status=ended')).toEqual([lapsed]);
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/v1/delegations?status=all&page=2&per_page=1',
      headers: auth(delegator),
    });
    expect(page.json()).toMatchObject({ total: 3, page: 2, per_page: 1 });
    expect(page.json().data.map((item: { id: string }) => item.id)).toEqual([active]);
  });
});

describe('POST /delegations/{id}/end', () => {
  it('the delegator ends it now: 200, ended, one audit row; ending it again is a 409', async () => {
    const secretary = await person('executive_secretary', 'Ending Secretary');
    const { id } = await created(secretary, {
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(5),
    });
    const response = await end(secretary, id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      status: 'ended',
      ends_on: day(5),
      ended_at: expect.any(String),
      ended_by: { id: secretary.id, fullname: 'Ending Secretary' },
    });
    const audit = await auditOf(id);
    expect(audit.map((row) => row.action)).toEqual(['delegation.created', 'delegation.ended']);
    expect(audit[1]?.changes).toEqual({
      status: { from: 'active', to: 'ended' },
      ended_at: { from: null, to: response.json().ended_at },
    });
    const again = await end(secretary, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This delegation has already ended.');
    expect(await auditOf(id)).toHaveLength(2);
  });

  it('a scheduled one can be called off; a lapsed one has already ended (409)', async () => {
    const officer = await person('finance_officer', 'Calling Off');
    const { id } = await created(officer, {
      delegate_id: org.finance.id,
      starts_on: day(3),
      ends_on: day(4),
    });
    const ended = await end(officer, id);
    expect(ended.json()).toMatchObject({ status: 'ended' });
    expect((await auditOf(id))[1]?.changes).toMatchObject({
      status: { from: 'scheduled', to: 'ended' },
    });
    const lapsed = await stored(officer, org.finance, day(-5), day(-1));
    expect((await end(officer, lapsed.id)).statusCode).toBe(409);
    expect(await auditOf(lapsed.id)).toEqual([]);
  });

  it('the director ends anyone’s; the delegate may not (403); others do not see it (404)', async () => {
    const secretary = await person('executive_secretary', 'Guarded Secretary');
    const { id } = await created(secretary, {
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(5),
    });
    const byDelegate = await end(org.custodian, id);
    expect(byDelegate.statusCode).toBe(403);
    expect(byDelegate.json().error).toBe(
      'Only the delegator or the director can end a delegation.',
    );
    for (const outsider of [org.finance, org.staff, elsewhere.director]) {
      const response = await end(outsider, id);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('Delegation not found.');
    }
    expect(await auditOf(id)).toHaveLength(1);
    const byDirector = await end(org.director, id);
    expect(byDirector.statusCode).toBe(200);
    expect(byDirector.json()).toMatchObject({ ended_by: { id: org.director.id } });
    expect(await auditOf(id)).toMatchObject([
      { action: 'delegation.created' },
      { action: 'delegation.ended', actor_id: org.director.id },
    ]);
  });

  it('an unknown id is 404 and a malformed one 400', async () => {
    const unknown = await end(org.director, '00000000-0000-4000-8000-00000000abcd');
    expect(unknown.statusCode).toBe(404);
    const malformed = await end(org.director, 'not-a-uuid');
    expect(malformed.statusCode).toBe(400);
  });
});

describe('a new position or a deactivation ends the person’s live delegations', () => {
  const putUser = (user: TestUser, body: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/users', headers: auth(user), payload: body });
  const statusOf = async (user: TestUser, id: string) => {
    const response = await list(user, '&status=all');
    return response
      .json<{ data: { id: string; status: string }[] }>()
      .data.find((item) => item.id === id);
  };

  it('a promotion ends theirs as delegator and as delegate, each with one audit row; an edit of another field ends none', async () => {
    const officer = await person('finance_officer', 'Promoted Officer');
    const secretary = await person('executive_secretary', 'Naming Secretary');
    const active = await created(officer, {
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(2),
    });
    const scheduled = await created(officer, {
      delegate_id: org.custodian.id,
      starts_on: day(5),
      ends_on: day(6),
    });
    const asDelegate = await created(secretary, {
      delegate_id: officer.id,
      starts_on: day(0),
      ends_on: day(3),
    });
    const lapsed = await stored(officer, org.custodian, day(-5), day(-1));

    // A change that is no new position leaves them as they are.
    const renamed = await putUser(org.director, {
      user_id: officer.id,
      fullname: 'Promoted Officer',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const phone = await putUser(org.admin, { user_id: officer.id, phone_number: '255733333333' });
    expect(phone.statusCode, phone.body).toBe(200);
    expect(await auditOf(active.id)).toHaveLength(1);

    const promoted = await putUser(org.director, { user_id: officer.id, role: 'director' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    // Made as a finance officer, the delegation does not hand over the director's steps.
    for (const [id, before] of [
      [active.id, 'active'],
      [scheduled.id, 'scheduled'],
      [asDelegate.id, 'active'],
    ] as const) {
      expect(await statusOf(org.director, id)).toMatchObject({
        status: 'ended',
        ended_by: { id: org.director.id, fullname: 'Eshe Director' },
      });
      const audit = await auditOf(id);
      expect(audit.map((row) => row.action)).toEqual(['delegation.created', 'delegation.ended']);
      expect(audit[1]).toMatchObject({
        actor_id: org.director.id,
        changes: { status: { from: before, to: 'ended' }, ended_at: { from: null } },
      });
    }
    // One that had already lapsed is left alone.
    expect(await auditOf(lapsed.id)).toEqual([]);
    const [row] = await t.db.select().from(delegations).where(eq(delegations.id, lapsed.id));
    expect(row?.ended_at).toBeNull();
  });

  it('a refused position change ends nothing', async () => {
    const officer = await person('finance_officer', 'Unmoved Officer');
    const { id } = await created(officer, {
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(2),
    });
    const before = await counts();
    const refused = await putUser(org.admin, { user_id: officer.id, role: 'director' });
    expect(refused.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
    expect(await statusOf(officer, id)).toMatchObject({ status: 'active' });
  });

  it('a deactivation ends theirs as delegator and as delegate', async () => {
    const leaver = await person('executive_secretary', 'Leaving Secretary');
    const chairman = await person('board_chairman', 'Naming Chairman');
    const own = await created(leaver, {
      delegate_id: org.custodian.id,
      starts_on: day(1),
      ends_on: day(2),
    });
    const forOther = await created(chairman, {
      delegate_id: leaver.id,
      starts_on: day(0),
      ends_on: day(2),
    });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${leaver.id}`,
      headers: auth(org.director),
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const id of [own.id, forOther.id]) {
      expect(await statusOf(org.director, id)).toMatchObject({
        status: 'ended',
        ended_by: { id: org.director.id },
      });
      expect(await auditOf(id)).toMatchObject([
        { action: 'delegation.created' },
        { action: 'delegation.ended', actor_id: org.director.id },
      ]);
    }
  });
});
