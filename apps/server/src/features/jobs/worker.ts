import { todayIn } from '@imprest/domain/requests.ts';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { lockOverdueUsers } from './service.ts';

/** pg-boss keeps its tables in this schema of the application's database. */
export const jobSchema = 'pgboss';

/** Queue names; later jobs (e-mail notifications) add theirs here. */
export const queues = { lockOverdue: 'lock-overdue' } as const;

/**
 * Held while a process installs pg-boss and creates its queues: two processes creating the same
 * queue at once can deadlock in pg-boss's DDL (seen in worker.test.ts), so they take turns.
 */
const setupLockKey = 727005;

/** Daily at midnight, read in ORG_TIMEZONE (decisions §4). */
export const lockOverdueCron = '0 0 * * *';

export type JobRunner = {
  boss: PgBoss;
  /** Stops taking jobs, lets a running one finish (up to `timeoutMs`), then closes pg-boss's pool. */
  stop: (options?: { timeoutMs?: number }) => Promise<void>;
};

/**
 * Starts pg-boss on the application's database, in its own schema: creates the queues, stores the
 * lock job's schedule and works its queue. Every process does this; pg-boss's scheduler sends one
 * job per cron slot however many run, and the job's advisory lock and conditional UPDATEs make a
 * duplicate harmless (docs/decisions/0009). Call after the migrations.
 */
export async function startJobRunner(
  context: AppContext,
  options: { databaseUrl: string; logger: Logger; pollingIntervalSeconds?: number },
): Promise<JobRunner> {
  const { logger } = options;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: jobSchema,
    max: 3,
    application_name: 'imprest-jobs',
  });
  boss.on('error', (error) => {
    // 57P01: the server ended the connection (a restart, or the embedded PostgreSQL stopping on
    // SIGTERM alongside us); the pool opens a new one when next needed.
    const isServerShutdown = (error as { code?: string }).code === '57P01';
    if (isServerShutdown) logger.debug({ err: error }, 'job runner lost its database connection');
    else logger.error({ err: error }, 'job runner error');
  });
  // A session lock on a connection of its own, released in every case; pg-boss's pool is its own.
  const setup = new pg.Client({ connectionString: options.databaseUrl });
  await setup.connect();
  try {
    await setup.query('SELECT pg_advisory_lock($1)', [setupLockKey]);
    await boss.start();
    await boss.createQueue(queues.lockOverdue);
    await boss.schedule(
      queues.lockOverdue,
      lockOverdueCron,
      {},
      { tz: context.config.orgTimezone },
    );
    await boss.work(
      queues.lockOverdue,
      { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async (jobs) => {
        for (const job of jobs) {
          // The day at the moment it runs, in ORG_TIMEZONE: a job that waited past midnight judges by today.
          const run = await lockOverdueUsers(context, {
            asOf: todayIn(context.config.orgTimezone),
          });
          logger.info(
            {
              job: job.id,
              as_of: run.as_of,
              locked: run.locked.length,
              unlocked: run.unlocked.length,
            },
            'lock job ran',
          );
        }
      },
    );
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => undefined);
    throw error;
  } finally {
    // Ending the session releases its advisory lock.
    await setup.end().catch(() => undefined);
  }
  return {
    boss,
    stop: async ({ timeoutMs = 10_000 } = {}) => {
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
