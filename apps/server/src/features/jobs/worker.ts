import { todayIn } from '@imprest/domain/requests.ts';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { indexJobFetchOrder, jobSchema } from '../../lib/job-queue.ts';
import {
  defaultStaleClaimSeconds,
  deliverQueuedEmail,
  emailQueue,
  staleEmailClaims,
} from '../../lib/mailer.ts';
import { sendRetirementWarnings, sendReviewReminders } from '../notifications/daily.ts';
import { lockOverdueUsers } from './service.ts';

/** Queue names. */
export const queues = {
  lockOverdue: 'lock-overdue',
  /** One job per outbox row, created in the transaction that queued the e-mail (lib/mailer.ts). */
  sendEmail: emailQueue,
  retirementWarnings: 'retirement-warnings',
  reviewReminders: 'review-reminders',
  /** E-mails whose attempt ended without an outcome, given a job again (emailSweepCron). */
  emailSweep: 'email-sweep',
} as const;

/** Daily at 07:00 in ORG_TIMEZONE: spec §8 warnings that begin today (docs/decisions/0011). */
export const retirementWarningsCron = '0 7 * * *';
/** Daily at 08:00 in ORG_TIMEZONE: reviewers' digests of late steps. */
export const reviewRemindersCron = '0 8 * * *';
/**
 * Every five minutes: an e-mail still `sending` after its claim went stale gets a job again. Its
 * attempt ended without an outcome (the process died, or was stopped mid-send on the job's last
 * try, when no retry is left to take it over), so without this it would never be sent.
 */
export const emailSweepCron = '*/5 * * * *';

/** How `send-email` retries: pg-boss waits about delay × 2^n (with jitter) before try n + 1. */
export type EmailRetry = { retryLimit: number; retryDelaySeconds: number };

/** 5 retries from 30 s with back-off: the last try comes 15 to 30 minutes after the first. */
export const defaultEmailRetry: EmailRetry = { retryLimit: 5, retryDelaySeconds: 30 };

/**
 * How a process works `send-email`: several workers, each sending the e-mails of its batch side by
 * side, so one SMTP connection that hangs holds up one worker's batch, not the queue; an attempt
 * still running after `attemptDeadlineSeconds` is left to finish on its own (its claim keeps the
 * row from being sent beside it) while its job hands over to one that looks again once the claim
 * is stale (lib/mailer.ts, docs/decisions/0011).
 */
export type EmailWork = {
  workers: number;
  batchSize: number;
  attemptDeadlineSeconds: number;
  staleClaimSeconds: number;
};

export const defaultEmailWork: EmailWork = {
  workers: 4,
  batchSize: 5,
  // Under the jobs' 60 s expiry, so pg-boss never fails a batch whose e-mails were sent.
  attemptDeadlineSeconds: 45,
  staleClaimSeconds: defaultStaleClaimSeconds,
};

/**
 * Creates every queue (idempotent), sets the e-mail queue's retry policy and indexes the jobs in
 * the order they are fetched (docs/decisions/0048). startJobRunner calls it; the test set-up calls
 * it on the template database, so each test database has the queues that `queueEmail` writes jobs
 * to.
 */
export async function createQueues(boss: PgBoss, emailRetry: EmailRetry): Promise<void> {
  const emailOptions = {
    retryLimit: emailRetry.retryLimit,
    retryDelay: emailRetry.retryDelaySeconds,
    retryBackoff: true,
    // A batch ends within its attempts' deadline (EmailWork), so within this.
    expireInSeconds: 60,
  };
  for (const name of Object.values(queues)) await boss.createQueue(name);
  await boss.updateQueue(queues.sendEmail, { name: queues.sendEmail, ...emailOptions });
  await indexJobFetchOrder(boss);
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
    emailWork?: Partial<EmailWork>;
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
    await boss.schedule(queues.emailSweep, emailSweepCron, {}, { tz });
    await workEmails(context, boss, {
      logger,
      pollingIntervalSeconds,
      work: { ...defaultEmailWork, ...options.emailWork },
    });
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
 * row is marked failed with the reason. A row another attempt holds, or an attempt past its
 * deadline, hands over to a new job that looks again once the claim is stale: a job never ends
 * while its e-mail may still be unsent (docs/decisions/0011).
 */
async function workEmails(
  context: AppContext,
  boss: PgBoss,
  options: { logger: Logger; pollingIntervalSeconds: number; work: EmailWork },
): Promise<void> {
  const { logger, work } = options;
  const lookAgain = async (job: PgBoss.JobWithMetadata<{ id: string }>, seconds: number) => {
    // Sent before this job completes: a process that dies between the two leaves two jobs, which
    // the claim keeps to one e-mail, never none.
    await boss.send(queues.sendEmail, { id: job.data.id }, { startAfter: seconds });
    await boss.complete(queues.sendEmail, job.id);
  };
  const workOne = async (job: PgBoss.JobWithMetadata<{ id: string }>) => {
    const attempt = deliverQueuedEmail(context, logger, {
      id: job.data.id,
      isLastTry: job.retryCount >= job.retryLimit,
      staleClaimSeconds: work.staleClaimSeconds,
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), work.attemptDeadlineSeconds * 1000);
    });
    try {
      const outcome = await Promise.race([attempt, deadline]);
      if (outcome === 'deadline') {
        // The attempt goes on and records its own outcome (sent, or queued again with its reason).
        attempt.catch(() => undefined);
        logger.warn(
          { outbox: job.data.id, seconds: work.attemptDeadlineSeconds },
          'e-mail attempt still running; looked at again once its claim is stale',
        );
        await lookAgain(job, work.staleClaimSeconds);
      } else if (typeof outcome === 'object') {
        await lookAgain(job, outcome.claimedForSeconds);
      } else {
        await boss.complete(queues.sendEmail, job.id);
      }
    } catch (error) {
      // This job alone is retried, or fails on its own.
      await boss.fail(queues.sendEmail, job.id, {
        reason: error instanceof Error ? error.message : String(error),
      });
    } finally {
      clearTimeout(timer);
    }
  };
  await boss.work(
    queues.emailSweep,
    { pollingIntervalSeconds: options.pollingIntervalSeconds },
    async () => {
      const ids = await staleEmailClaims(context.db, work.staleClaimSeconds);
      for (const id of ids) await boss.send(queues.sendEmail, { id });
      if (ids.length > 0) {
        logger.warn({ count: ids.length }, 'e-mails left mid-send were queued again');
      }
    },
  );
  for (let worker = 0; worker < work.workers; worker += 1) {
    await boss.work<{ id: string }>(
      queues.sendEmail,
      {
        pollingIntervalSeconds: options.pollingIntervalSeconds,
        batchSize: work.batchSize,
        includeMetadata: true,
      },
      async (jobs) => {
        await Promise.all(jobs.map(workOne));
      },
    );
  }
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
