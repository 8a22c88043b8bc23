import { todayIn } from '@imprest/domain/requests.ts';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { jobSchema } from '../../lib/job-queue.ts';
import { deliverQueuedEmail, emailQueue } from '../../lib/mailer.ts';
import { sendRetirementWarnings, sendReviewReminders } from '../notifications/service.ts';
import { lockOverdueUsers } from './service.ts';

/** Queue names. */
export const queues = {
  lockOverdue: 'lock-overdue',
  /** One job per outbox row, created in the transaction that queued the e-mail (lib/mailer.ts). */
  sendEmail: emailQueue,
  retirementWarnings: 'retirement-warnings',
  reviewReminders: 'review-reminders',
} as const;

/** Daily at 07:00 in ORG_TIMEZONE: spec §8 warnings that begin today (docs/decisions/0011). */
export const retirementWarningsCron = '0 7 * * *';
/** Daily at 08:00 in ORG_TIMEZONE: reviewers' digests of late steps. */
export const reviewRemindersCron = '0 8 * * *';

/** How `send-email` retries: pg-boss waits about delay × 2^n (with jitter) before try n + 1. */
export type EmailRetry = { retryLimit: number; retryDelaySeconds: number };

/** 5 retries from 30 s with back-off: the last try comes 15 to 30 minutes after the first. */
export const defaultEmailRetry: EmailRetry = { retryLimit: 5, retryDelaySeconds: 30 };

/** E-mails a worker takes per fetch; each is sent, retried or failed on its own. */
const emailBatchSize = 20;

/**
 * Creates every queue (idempotent) and sets the e-mail queue's retry policy. startJobRunner calls
 * it; the test set-up calls it on the template database, so each test database has the queues that
 * `queueEmail` writes jobs to.
 */
export async function createQueues(boss: PgBoss, emailRetry: EmailRetry): Promise<void> {
  const emailOptions = {
    retryLimit: emailRetry.retryLimit,
    retryDelay: emailRetry.retryDelaySeconds,
    retryBackoff: true,
    // An attempt has SMTP timeouts of at most 50 s (lib/mailer.ts).
    expireInSeconds: 60,
  };
  for (const name of Object.values(queues)) await boss.createQueue(name);
  await boss.updateQueue(queues.sendEmail, { name: queues.sendEmail, ...emailOptions });
}

/**
 * Installs pg-boss's schema and queues on a database the way a server start does, without running
 * a worker: for a database that services write jobs to before any server has started on it (the
 * test set-up's template, a restore, a benchmark's seeded database; docs/decisions/0011).
 */
export async function installJobQueues(url: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: url,
    schema: jobSchema,
    max: 1,
    supervise: false,
    schedule: false,
  });
  await boss.start();
  try {
    await createQueues(boss, defaultEmailRetry);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

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
  /** Whether pg-boss is still working its queues (readiness). */
  isRunning: () => boolean;
};

/**
 * Starts pg-boss on the application's database, in its own schema: creates the queues, stores the
 * lock job's schedule and works its queue. Every process does this; pg-boss's scheduler sends one
 * job per cron slot however many run, and the job's advisory lock and conditional UPDATEs make a
 * duplicate harmless (docs/decisions/0009). Call after the migrations.
 */
export async function startJobRunner(
  context: AppContext,
  options: {
    databaseUrl: string;
    logger: Logger;
    pollingIntervalSeconds?: number;
    emailRetry?: EmailRetry;
  },
): Promise<JobRunner> {
  const { logger } = options;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
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
    await createQueues(boss, options.emailRetry ?? defaultEmailRetry);
    const tz = context.config.orgTimezone;
    await boss.schedule(queues.lockOverdue, lockOverdueCron, {}, { tz });
    await boss.schedule(queues.retirementWarnings, retirementWarningsCron, {}, { tz });
    await boss.schedule(queues.reviewReminders, reviewRemindersCron, {}, { tz });
    await workEmails(context, boss, { logger, pollingIntervalSeconds });
    await workNotificationRuns(context, boss, { logger, pollingIntervalSeconds });
    await boss.work(queues.lockOverdue, { pollingIntervalSeconds }, async (jobs) => {
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
    });
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => undefined);
    throw error;
  } finally {
    // Ending the session releases its advisory lock.
    await setup.end().catch(() => undefined);
  }
  let isRunning = true;
  boss.on('stopped', () => {
    isRunning = false;
  });
  return {
    boss,
    stop: async ({ timeoutMs = 10_000 } = {}) => {
      isRunning = false;
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
    isRunning: () => isRunning,
  };
}

/**
 * Works `send-email`: each job sends one outbox row (claimed first, so once across processes). A
 * failed attempt fails that job alone, and pg-boss retries it with back-off; on the last try the
 * row is marked failed with the reason (docs/decisions/0011).
 */
async function workEmails(
  context: AppContext,
  boss: PgBoss,
  options: { logger: Logger; pollingIntervalSeconds: number },
): Promise<void> {
  const { logger } = options;
  await boss.work<{ id: string }>(
    queues.sendEmail,
    {
      pollingIntervalSeconds: options.pollingIntervalSeconds,
      batchSize: emailBatchSize,
      includeMetadata: true,
    },
    async (jobs) => {
      for (const job of jobs) {
        try {
          await deliverQueuedEmail(context, logger, {
            id: job.data.id,
            isLastTry: job.retryCount >= job.retryLimit,
          });
        } catch (error) {
          // The other jobs of the batch complete; this one is retried or fails on its own.
          await boss.fail(queues.sendEmail, job.id, {
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }
    },
  );
}

/** Works the daily warning and reminder runs; each judges by today in ORG_TIMEZONE. */
async function workNotificationRuns(
  context: AppContext,
  boss: PgBoss,
  options: { logger: Logger; pollingIntervalSeconds: number },
): Promise<void> {
  const { logger, pollingIntervalSeconds } = options;
  await boss.work(queues.retirementWarnings, { pollingIntervalSeconds }, async () => {
    const queued = await sendRetirementWarnings(context, {
      today: todayIn(context.config.orgTimezone),
    });
    logger.info({ queued }, 'retirement warnings ran');
  });
  await boss.work(queues.reviewReminders, { pollingIntervalSeconds }, async () => {
    const queued = await sendReviewReminders(context, {
      today: todayIn(context.config.orgTimezone),
    });
    logger.info({ queued }, 'review reminders ran');
  });
}
