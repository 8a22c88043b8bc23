import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { connect } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { createEventBus } from '../../realtime/events.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { buildStoredRetirement } from '../../../test/factories/locking.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  emailSweepCron,
  lockOverdueCron,
  queues,
  retirementWarningsCron,
  reviewRemindersCron,
  startJobRunner,
  type JobRunner,
} from './worker.ts';

// Two "server processes" on one database: each starts pg-boss as startServer does.
let t: TestApp;
let second: AppContext;
const runners: JobRunner[] = [];
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  t = await createTestApp({ config: { orgTimezone: 'Africa/Nairobi' } });
  second = { ...t.context, db: connect(t.databaseUrl, { max: 2 }), events: createEventBus() };
  const [a, b] = await Promise.all([
    startJobRunner(t.context, { databaseUrl: t.databaseUrl, logger, pollingIntervalSeconds: 0.5 }),
    startJobRunner(second, { databaseUrl: t.databaseUrl, logger, pollingIntervalSeconds: 0.5 }),
  ]);
  runners.push(a, b);
});

afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop({ timeoutMs: 2_000 })));
  await second.db.$client.end();
});

describe('the job runner (pg-boss)', () => {
  it('stores the midnight schedule once, in ORG_TIMEZONE, however many processes start', async () => {
    const [first] = runners;
    const schedules = await first?.boss.getSchedules();
    expect(schedules).toHaveLength(4);
    expect(schedules?.find((schedule) => schedule.name === queues.lockOverdue)).toMatchObject({
      cron: lockOverdueCron,
      timezone: 'Africa/Nairobi',
    });
    expect(lockOverdueCron).toBe('0 0 * * *');
    expect(schedules?.map((schedule) => [schedule.name, schedule.cron]).sort()).toEqual([
      [queues.emailSweep, emailSweepCron],
      [queues.lockOverdue, lockOverdueCron],
      [queues.retirementWarnings, retirementWarningsCron],
      [queues.reviewReminders, reviewRemindersCron],
    ]);
  });

  it('works a sent lock job: locks the late owner as of today in ORG_TIMEZONE', async () => {
    const org = await buildStaffedOrganization(t.db);
    const today = todayIn('Africa/Nairobi');
    await buildStoredRetirement(t.db, {
      owner: org.staff,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(today, -31),
    });
    const boss = runners[1]?.boss;
    if (!boss) throw new Error('no runner');
    const id = await boss.send(queues.lockOverdue, {});
    if (!id) throw new Error('job not sent');
    const deadline = Date.now() + 15_000;
    let state: string | undefined;
    while (Date.now() < deadline) {
      state = (await boss.getJobById(queues.lockOverdue, id))?.state;
      if (state === 'completed' || state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(state).toBe('completed');
    const [owner] = await t.db.select().from(users).where(eq(users.id, org.staff.id));
    expect(owner).toMatchObject({ is_locked: true, locked_by: 'system' });
    expect(owner?.lock_reason).toMatch(/is more than 30 days past its due date of/);
  });
});
