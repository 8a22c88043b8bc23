import { messages } from '@imprest/domain/messages.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { connect } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { createEventBus } from '../../realtime/events.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, submit } from '../../../test/factories/requests.ts';
import {
  buildOverdueOrganization,
  buildStoredRetirement,
  lockStateOf,
  setRetirementStatus,
} from '../../../test/factories/locking.ts';
import {
  buildUser,
  createTestApp,
  type PublishedEvent,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { applyLockRules, lockOverdueUsers, releaseSystemLockIfClear } from './service.ts';

let t: TestApp;
let org: StaffedOrganization;
const asOf = '2026-12-01';

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});

const lockState = (user: { id: string }) => lockStateOf(t.db, user);

/** A member of staff of the test organisation with a retirement due `daysPast` days before asOf. */
async function lateOwner(daysPast: number, options: { status?: 'pending' | 'rejected' } = {}) {
  const owner = await buildUser(t.db, {
    organizationId: org.organizationId,
    fullname: `Late ${daysPast}`,
  });
  const retirement = await buildStoredRetirement(t.db, {
    owner,
    attachedBy: org.finance,
    budget: org.budget,
    dueDate: addDays(asOf, -daysPast),
    status: options.status ?? 'pending',
    purpose: 'accomodation',
  });
  return { owner, retirement };
}

const run = (options: { asOf?: string; organizationId?: string } = {}) =>
  lockOverdueUsers(t.context, {
    asOf: options.asOf ?? asOf,
    organizationId: options.organizationId ?? org.organizationId,
  });

function eventsFor(events: PublishedEvent[], user: { id: string }): PublishedEvent[] {
  return events.filter(
    (event) =>
      event.event === 'update_user' && (event.payload as { user_id: string }).user_id === user.id,
  );
}

describe('lockOverdueUsers', () => {
  it('locks an owner more than 30 days past due with a reason, once; they may no longer submit requests', async () => {
    const { owner, retirement } = await lateOwner(45);
    const before = t.events.length;
    const first = await run();
    expect(first.as_of).toBe(asOf);
    expect(first.locked).toContainEqual({ user_id: owner.id, fullname: owner.fullname });
    expect(await lockState(owner)).toMatchObject({
      is_locked: true,
      locked_by: 'system',
      lock_reason: `Retirement of Accommodation (${retirement.approval_number}) is more than 30 days past its due date of 17/10/2026.`,
    });
    expect((await lockState(owner))?.locked_at).toBeInstanceOf(Date);
    expect(eventsFor(t.events.slice(before), owner)).toEqual([
      { organizationId: org.organizationId, event: 'update_user', payload: { user_id: owner.id } },
    ]);

    // A second run changes nothing and tells nobody.
    const lockedAt = (await lockState(owner))?.locked_at;
    const second = await run();
    expect(second.locked.map((user) => user.user_id)).not.toContain(owner.id);
    expect((await lockState(owner))?.locked_at).toEqual(lockedAt);
    expect(eventsFor(t.events.slice(before), owner)).toHaveLength(1);

    const response = await submit(t.app, owner, requestBody(org.budget.code));
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(messages.lockedAccount);
  });

  it('locks at 31 days past due, not at 30 (decisions §4: more than 30 days)', async () => {
    const { owner: thirty } = await lateOwner(30);
    const { owner: thirtyOne } = await lateOwner(31);
    const result = await run();
    const locked = result.locked.map((user) => user.user_id);
    expect(locked).toContain(thirtyOne.id);
    expect(locked).not.toContain(thirty.id);
    expect((await lockState(thirty))?.is_locked).toBe(false);
    // The next day the 30-day one is past the line too.
    expect((await run({ asOf: addDays(asOf, 1) })).locked.map((user) => user.user_id)).toContain(
      thirty.id,
    );
  });

  it('counts a rejected retirement as outstanding, and not one under review or approved', async () => {
    const { owner: rejected } = await lateOwner(40, { status: 'rejected' });
    const reviewed = await buildUser(t.db, { organizationId: org.organizationId });
    for (const status of ['on_progress', 'approved'] as const) {
      await buildStoredRetirement(t.db, {
        owner: reviewed,
        attachedBy: org.finance,
        budget: org.budget,
        dueDate: addDays(asOf, -60),
        status,
      });
    }
    const locked = (await run()).locked.map((user) => user.user_id);
    expect(locked).toContain(rejected.id);
    expect(locked).not.toContain(reviewed.id);
  });

  it('unlocks its own lock once no retirement is overdue, and only then', async () => {
    const { owner, retirement } = await lateOwner(50);
    const other = await buildStoredRetirement(t.db, {
      owner,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(asOf, -35),
    });
    await run();
    expect((await lockState(owner))?.locked_by).toBe('system');

    await setRetirementStatus(t.db, retirement.id, 'on_progress');
    expect((await run()).unlocked.map((user) => user.user_id)).not.toContain(owner.id);
    expect((await lockState(owner))?.is_locked).toBe(true);

    await setRetirementStatus(t.db, other.id, 'approved');
    const before = t.events.length;
    const result = await run();
    expect(result.unlocked).toContainEqual({ user_id: owner.id, fullname: owner.fullname });
    expect(await lockState(owner)).toEqual({
      is_locked: false,
      locked_by: null,
      lock_reason: null,
      locked_at: null,
    });
    expect(eventsFor(t.events.slice(before), owner)).toHaveLength(1);
  });

  it('never touches a lock set by finance', async () => {
    const { owner: overdue } = await lateOwner(60);
    const clear = await buildUser(t.db, { organizationId: org.organizationId });
    const financeLock = {
      is_locked: true,
      locked_by: 'finance',
      lock_reason: 'Restricted by Chausiku Finance.',
    };
    await t.db
      .update(users)
      .set(financeLock)
      .where(inArray(users.id, [overdue.id, clear.id]));
    const result = await run();
    const changed = [...result.locked, ...result.unlocked].map((user) => user.user_id);
    expect(changed).not.toContain(overdue.id);
    expect(changed).not.toContain(clear.id);
    expect(await lockState(overdue)).toMatchObject(financeLock);
    expect(await lockState(clear)).toMatchObject(financeLock);
  });

  it('leaves deleted users and other organisations alone', async () => {
    const { owner: deleted } = await lateOwner(70);
    await t.db.update(users).set({ deleted_at: new Date() }).where(eq(users.id, deleted.id));
    const elsewhere = await buildOverdueOrganization(t.db, addDays(asOf, -90));
    const result = await run();
    const locked = result.locked.map((user) => user.user_id);
    expect(locked).not.toContain(deleted.id);
    expect(locked).not.toContain(elsewhere.staff.id);
    // The midnight run covers every organisation.
    const all = await lockOverdueUsers(t.context, { asOf });
    expect(all.locked.map((user) => user.user_id)).toContain(elsewhere.staff.id);
  });
});

describe('two processes running the job at the same moment', () => {
  it('lock each user exactly once', async () => {
    const late: TestUser[] = [];
    for (let index = 0; index < 5; index += 1) late.push((await lateOwner(40 + index)).owner);
    // A second "server process": its own pool and event bus on the same database.
    const secondDb = connect(t.databaseUrl, { max: 2 });
    const secondEvents: PublishedEvent[] = [];
    const bus = createEventBus();
    bus.attach((organizationId, event, payload) =>
      secondEvents.push({ organizationId, event, payload }),
    );
    const second: AppContext = { ...t.context, db: secondDb, events: bus };
    const before = t.events.length;
    try {
      const [a, b] = await Promise.all([
        lockOverdueUsers(t.context, { asOf, organizationId: org.organizationId }),
        lockOverdueUsers(second, { asOf, organizationId: org.organizationId }),
      ]);
      const lockedIds = [...a.locked, ...b.locked].map((user) => user.user_id);
      for (const user of late) {
        expect(lockedIds.filter((id) => id === user.id)).toHaveLength(1);
        const events = [
          ...eventsFor(t.events.slice(before), user),
          ...eventsFor(secondEvents, user),
        ];
        expect(events).toHaveLength(1);
      }
      const rows = await t.db
        .select({ locked_at: users.locked_at })
        .from(users)
        .where(
          inArray(
            users.id,
            late.map((user) => user.id),
          ),
        );
      expect(rows.every((row) => row.locked_at instanceof Date)).toBe(true);
      // One run locked them all in one statement: one locked_at, not two.
      expect(new Set(rows.map((row) => row.locked_at?.getTime())).size).toBe(1);
    } finally {
      await secondDb.$client.end();
    }
  });
});

describe('releaseSystemLockIfClear', () => {
  it('lifts a system lock at once when nothing is overdue any more', async () => {
    const { owner, retirement } = await lateOwner(33);
    await run();
    expect((await lockState(owner))?.locked_by).toBe('system');
    const released = await t.db.transaction(async (tx) => {
      await setRetirementStatus(tx, retirement.id, 'on_progress');
      return releaseSystemLockIfClear(tx, {
        organizationId: org.organizationId,
        userId: owner.id,
        asOf,
      });
    });
    expect(released).toBe(true);
    expect((await lockState(owner))?.is_locked).toBe(false);
  });

  it('keeps it while another retirement is overdue, and keeps a finance lock', async () => {
    const { owner, retirement } = await lateOwner(34);
    await buildStoredRetirement(t.db, {
      owner,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(asOf, -32),
    });
    await run();
    expect(
      await t.db.transaction(async (tx) => {
        await setRetirementStatus(tx, retirement.id, 'on_progress');
        return releaseSystemLockIfClear(tx, {
          organizationId: org.organizationId,
          userId: owner.id,
          asOf,
        });
      }),
    ).toBe(false);
    expect((await lockState(owner))?.is_locked).toBe(true);

    const restricted = await buildUser(t.db, { organizationId: org.organizationId });
    await t.db
      .update(users)
      .set({
        is_locked: true,
        locked_by: 'finance',
        lock_reason: 'Restricted by Chausiku Finance.',
      })
      .where(eq(users.id, restricted.id));
    expect(
      await t.db.transaction((tx) =>
        releaseSystemLockIfClear(tx, {
          organizationId: org.organizationId,
          userId: restricted.id,
          asOf,
        }),
      ),
    ).toBe(false);
    expect((await lockState(restricted))?.locked_by).toBe('finance');
  });

  it('waits for a running job instead of racing it', async () => {
    const { owner, retirement } = await lateOwner(36);
    const secondDb = connect(t.databaseUrl, { max: 2 });
    try {
      // The job holds its lock in an open transaction on another connection ...
      let finishJob: () => void = () => undefined;
      const jobHeld = new Promise<void>((resolve) => {
        finishJob = resolve;
      });
      let jobStarted: () => void = () => undefined;
      const started = new Promise<void>((resolve) => {
        jobStarted = resolve;
      });
      const job = secondDb.transaction(async (tx) => {
        const result = await applyLockRules(tx, { asOf, organizationId: org.organizationId });
        jobStarted();
        await jobHeld;
        return result;
      });
      await started;
      // ... while the owner submits: the release waits, then lifts the lock the job just set.
      const release = t.db.transaction(async (tx) => {
        await setRetirementStatus(tx, retirement.id, 'on_progress');
        return releaseSystemLockIfClear(tx, {
          organizationId: org.organizationId,
          userId: owner.id,
          asOf,
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      finishJob();
      expect((await job).locked.map((user) => user.id)).toContain(owner.id);
      expect(await release).toBe(true);
      expect((await lockState(owner))?.is_locked).toBe(false);
    } finally {
      await secondDb.$client.end();
    }
  });
});
