import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { connect } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import { jobSchema } from '../../lib/job-queue.ts';
import { queueEmail } from '../../lib/mailer.ts';
import { createEventBus } from '../../realtime/events.ts';
import { startJobRunner, type JobRunner } from '../jobs/worker.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { outboxSettled, startSmtpServer, type TestSmtpServer } from '../../../test/smtp.ts';

// The e-mail queue itself (docs/decisions/0011): durability, retries, failure, restarts, two
// workers, against a real SMTP server and real pg-boss workers on this file's database.
const logger = pino({ level: 'silent' });
const emailRetry = { retryLimit: 2, retryDelaySeconds: 1 };
let t: TestApp;
let smtp: TestSmtpServer;
let second: AppContext;
const runners: JobRunner[] = [];

async function startRunner(context: AppContext): Promise<JobRunner> {
  const runner = await startJobRunner(context, {
    databaseUrl: t.databaseUrl,
    logger,
    pollingIntervalSeconds: 0.5,
    emailRetry,
  });
  runners.push(runner);
  return runner;
}

async function stopRunners(): Promise<void> {
  await Promise.all(runners.splice(0).map((runner) => runner.stop({ timeoutMs: 5_000 })));
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ config: { smtpUrl: smtp.url, appUrl: 'https://imprest.example' } });
  // A second "process": its own pool and event bus on the same database.
  second = { ...t.context, db: connect(t.databaseUrl, { max: 3 }), events: createEventBus() };
});

afterAll(async () => {
  await stopRunners();
  await second.db.$client.end();
  await smtp.stop();
});

async function queued(to: string, key?: string): Promise<string> {
  return t.db.transaction((tx) =>
    queueEmail(tx, {
      organizationId: null,
      to,
      subject: `Hello ${to}`,
      body: 'Plain text',
      html: '<p>HTML</p>',
      ...(key ? { idempotencyKey: key } : {}),
    }),
  );
}

async function rowOf(id: string) {
  const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return row;
}

async function jobCount(ids: string[]): Promise<number> {
  const result = await t.db.$client.query(
    `SELECT count(*)::int AS n FROM ${jobSchema}.job WHERE name = 'send-email' AND id = ANY($1::uuid[])`,
    [ids],
  );
  return (result.rows[0] as { n: number }).n;
}

/** Every send-email job, whatever its id. */
async function allJobCount(): Promise<number> {
  const result = await t.db.$client.query(
    `SELECT count(*)::int AS n FROM ${jobSchema}.job WHERE name = 'send-email'`,
  );
  return (result.rows[0] as { n: number }).n;
}

function receivedBy(address: string): number {
  return smtp.received.filter((email) => email.to.includes(address)).length;
}

describe('the e-mail queue', () => {
  it('writes the outbox row and its job in the caller transaction: a rollback leaves neither', async () => {
    let id = '';
    await expect(
      t.db.transaction(async (tx) => {
        id = await queueEmail(tx, {
          organizationId: null,
          to: 'gone@example.test',
          subject: 'x',
          body: 'x',
        });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await rowOf(id)).toBeUndefined();
    expect(await jobCount([id])).toBe(0);
    const kept = await queued('kept@example.test');
    expect(await rowOf(kept)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await jobCount([kept])).toBe(1);
  });

  it('keeps one row and one job for the same idempotency key queued twice', async () => {
    const first = await queued('twice@example.test', 'event.twice');
    const jobsBefore = await allJobCount();
    const again = await queued('twice@example.test', 'event.twice');
    expect(again).toBe(first);
    // The job sent beside the second INSERT was taken back with it.
    expect(await allJobCount()).toBe(jobsBefore);
    const rows = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.idempotency_key, 'event.twice'));
    expect(rows).toHaveLength(1);
    expect(await jobCount([first])).toBe(1);
    expect(await rowOf(first)).toMatchObject({ status: 'queued' });
  });

  it('loses nothing across a restart: queued while no worker runs, each sent exactly once by two new ones', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 8; index += 1)
      ids.push(await queued(`restart-${index}@example.test`));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received).toHaveLength(0);
    // Two processes start on the same database.
    await Promise.all([startRunner(t.context), startRunner(second)]);
    await outboxSettled(t.db);
    for (let index = 0; index < 8; index += 1)
      expect(receivedBy(`restart-${index}@example.test`)).toBe(1);
    expect(receivedBy('kept@example.test')).toBe(1);
    expect(receivedBy('twice@example.test')).toBe(1);
    const rows = await t.db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(ids.map(() => ['sent', 1]));
    const messageIds = smtp.received.map((email) => email.messageId);
    expect(new Set(messageIds).size).toBe(messageIds.length);
  });

  it('stops with e-mails queued and delivers each once after the next start', async () => {
    await stopRunners();
    const ids = [await queued('stopped-1@example.test'), await queued('stopped-2@example.test')];
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receivedBy('stopped-1@example.test')).toBe(0);
    await startRunner(t.context);
    await outboxSettled(t.db, { ids });
    expect(receivedBy('stopped-1@example.test')).toBe(1);
    expect(receivedBy('stopped-2@example.test')).toBe(1);
  });

  it('retries 421 and 451 with back-off, then delivers once and records the attempts', async () => {
    smtp.setPolicy((recipient, attempt) => {
      if (recipient !== 'busy@example.test') return null;
      return attempt === 1 ? 421 : attempt === 2 ? 451 : null;
    });
    const id = await queued('busy@example.test');
    await outboxSettled(t.db, { ids: [id], timeoutMs: 25_000 });
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 3, error: null });
    expect(smtp.attempts.get('busy@example.test')).toBe(3);
    expect(receivedBy('busy@example.test')).toBe(1);
  });

  it('marks an e-mail failed with the reason after the last try of a permanent 5xx', async () => {
    smtp.setPolicy((recipient) => (recipient === 'nobody@example.test' ? 550 : null));
    const id = await queued('nobody@example.test');
    await outboxSettled(t.db, { ids: [id], timeoutMs: 25_000 });
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'failed', attempts: emailRetry.retryLimit + 1 });
    expect(row?.error).toMatch(/^550 /);
    expect(receivedBy('nobody@example.test')).toBe(0);
    smtp.setPolicy(() => null);
  });

  it('retries while the SMTP server refuses connections, and delivers once it is back', async () => {
    // A server that is down: its port closed.
    const down = await startSmtpServer();
    const port = down.port;
    await down.stop();
    const context = {
      ...t.context,
      config: { ...t.context.config, smtpUrl: `smtp://127.0.0.1:${port}` },
    };
    await stopRunners();
    await startRunner(context);
    const id = await queued('later@example.test');
    const deadline = Date.now() + 10_000;
    while ((await rowOf(id))?.attempts === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await rowOf(id))?.error).toMatch(/ECONNECTION|ECONNREFUSED/);
    const back = await startSmtpServer({ port });
    try {
      await outboxSettled(t.db, { ids: [id], timeoutMs: 25_000 });
      expect(await rowOf(id)).toMatchObject({ status: 'sent' });
      expect(back.received.filter((email) => email.to.includes('later@example.test'))).toHaveLength(
        1,
      );
    } finally {
      await stopRunners();
      await back.stop();
    }
  });

  it('without SMTP_URL keeps the e-mail in the outbox and logs it', async () => {
    const context = { ...t.context, config: { ...t.context.config, smtpUrl: undefined } };
    await startRunner(context);
    const id = await queued('logged@example.test');
    await outboxSettled(t.db, { ids: [id] });
    expect(await rowOf(id)).toMatchObject({ status: 'logged', attempts: 1 });
    expect(receivedBy('logged@example.test')).toBe(0);
  });
});
