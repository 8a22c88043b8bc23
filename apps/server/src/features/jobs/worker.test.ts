import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { connect } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { jobSchema } from '../../lib/job-queue.ts';
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

  it("fetches a queue's next jobs in their order by an index, not by sorting every waiting job", async () => {
    const boss = runners[0]?.boss;
    if (!boss) throw new Error('no runner');
    // A queue no worker takes from, so its jobs wait as e-mails wait behind a slow SMTP server.
    const queue = 'fetch-order-check';
    await boss.createQueue(queue);
    const waiting = Array.from({ length: 3_000 }, (_, n) => ({ name: queue, data: { n } }));
    await boss.insert(waiting);
    await boss.insert([
      { name: queue, data: { urgent: 1 }, priority: 5 },
      { name: queue, data: { urgent: 2 }, priority: 5 },
    ]);
    await t.db.execute(sql.raw(`ANALYZE ${jobSchema}.job`));
    const order = await t.db.execute<{ id: string }>(
      sql`SELECT id FROM ${sql.identifier(jobSchema)}.job WHERE name = ${queue}
          ORDER BY priority DESC, created_on, id LIMIT 5`,
    );

    const plan = await t.db.execute<{ 'QUERY PLAN': unknown }>(
      sql`EXPLAIN (FORMAT JSON) SELECT id FROM ${sql.identifier(jobSchema)}.job
          WHERE name = ${queue} AND state < 'active' AND start_after < now()
          ORDER BY priority DESC, created_on, id LIMIT 5 FOR UPDATE SKIP LOCKED`,
    );
    const nodes = JSON.stringify(plan.rows[0]?.['QUERY PLAN']);
    expect(nodes).not.toContain('"Sort"');
    expect(nodes).toMatch(/"Index Name":"[^"]*name_priority_created_on_id_idx"/);

    // pg-boss's own fetch takes the two urgent jobs and the oldest waiting ones, as before the
    // index (its UPDATE … RETURNING answers them in no particular order).
    const fetched = await boss.fetch(queue, { batchSize: 5 });
    expect(fetched.map((job) => job.id).sort()).toEqual(order.rows.map((row) => row.id).sort());
    expect(fetched.map((job) => job.data)).toEqual(
      expect.arrayContaining([{ urgent: 1 }, { urgent: 2 }]),
    );
  });
});
