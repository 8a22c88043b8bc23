import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../db/client.ts';
import { emailOutbox } from '../../db/schema.ts';
import { queueEmail } from '../../lib/mailer.ts';
import { createEventBus } from '../../realtime/events.ts';
import { createTestApp } from '../../../test/helpers.ts';
import { startSmtpServer } from '../../../test/smtp.ts';
import { queues, startJobRunner, type EmailWork, type JobRunner } from './worker.ts';

// An SMTP server that hangs mid-conversation (it never answers a recipient), with the job runner
// as a server process runs it; the claim's stale time and an attempt's deadline are shortened so
// that what takes minutes in production takes seconds here (docs/decisions/0011).
const smtp = await startSmtpServer();
// The operator's own socket timeout in SMTP_URL wins over ours (30 s): a hung attempt fails in 8 s.
const t = await createTestApp({ config: { smtpUrl: `${smtp.url}?socketTimeout=8000` } });
const logger = pino({ level: 'silent' });
const runners: JobRunner[] = [];
const work: Partial<EmailWork> = { attemptDeadlineSeconds: 2, staleClaimSeconds: 4 };
// A second process's own pool.
const secondDb = connect(t.databaseUrl, { max: 2 });

afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.stop({ timeoutMs: 1_000 })));
  await secondDb.$client.end();
  await smtp.stop();
});

async function start(
  context: typeof t.context,
  emailRetry = { retryLimit: 3, retryDelaySeconds: 1 },
): Promise<JobRunner> {
  const runner = await startJobRunner(context, {
    databaseUrl: t.databaseUrl,
    logger,
    pollingIntervalSeconds: 0.5,
    emailRetry,
    emailWork: work,
  });
  runners.push(runner);
  return runner;
}

function queue(to: string): Promise<string> {
  return t.db.transaction((tx) =>
    queueEmail(tx, { organizationId: null, to, subject: `For ${to}`, body: 'Hello.' }),
  );
}

async function statuses(ids: string[]): Promise<Record<string, string>> {
  const rows = await t.db
    .select({ to: emailOutbox.to_address, status: emailOutbox.status })
    .from(emailOutbox)
    .where(inArray(emailOutbox.id, ids));
  return Object.fromEntries(rows.map((row) => [row.to, row.status]));
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('e-mail through an SMTP server that hangs', () => {
  it('holds up neither the other e-mails nor the queue, and sends the hung one once', async () => {
    smtp.setPolicy((recipient, attempt) =>
      recipient === 'hung@example.test' && attempt === 1 ? 'hang' : null,
    );
    const runner = await start(t.context);
    const hung = await queue('hung@example.test');
    await until(async () => (await statuses([hung]))['hung@example.test'] === 'sending', 10_000);
    // Queued once the hung attempt holds its worker: more than one worker's batch.
    const others = await Promise.all(
      Array.from({ length: 12 }, (_, index) => queue(`other-${index}@example.test`)),
    );
    const started = Date.now();
    await until(async () => smtp.received.length >= others.length, 15_000);
    expect(smtp.received.length).toBe(others.length);
    // Well before the hung attempt's own socket timeout (8 s) or a job's expiry (60 s).
    expect(Date.now() - started).toBeLessThan(6_000);

    // The hung attempt's claim goes stale (4 s), a new job takes it over and sends it; the hung
    // attempt then fails (8 s) and does not put the sent row back in the queue.
    await until(async () => smtp.subjectsTo('hung@example.test').length > 0, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 9_000));
    expect(smtp.subjectsTo('hung@example.test')).toEqual(['For hung@example.test']);
    expect(await statuses([hung])).toEqual({ 'hung@example.test': 'sent' });
    await runner.stop({ timeoutMs: 1_000 });
    runners.splice(runners.indexOf(runner), 1);
  }, 60_000);

  it('sends an e-mail whose process was stopped mid-send on its last try', async () => {
    smtp.setPolicy((recipient, attempt) =>
      recipient === 'stopped@example.test' && attempt === 1 ? 'hang' : null,
    );
    // No retries: the interrupted try is the last, so no retry of its job can take it over.
    const first = await start(t.context, { retryLimit: 0, retryDelaySeconds: 1 });
    const id = await queue('stopped@example.test');
    await until(async () => (await statuses([id]))['stopped@example.test'] === 'sending', 10_000);
    // SIGTERM: the runner stops and pg-boss fails the job still running.
    await first.stop({ timeoutMs: 500 });
    runners.splice(runners.indexOf(first), 1);

    // Another process works the queues; its sweep finds the claim gone stale.
    const second = await start({ ...t.context, db: secondDb, events: createEventBus() });
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    await second.boss.send(queues.emailSweep, {});
    await until(async () => smtp.subjectsTo('stopped@example.test').length > 0, 15_000);
    expect(smtp.subjectsTo('stopped@example.test')).toEqual(['For stopped@example.test']);
    // The row is marked sent once the server has accepted the message, a moment after it arrives.
    await until(async () => (await statuses([id]))['stopped@example.test'] === 'sent', 5_000);
    const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.status).toBe('sent');
    expect(smtp.subjectsTo('stopped@example.test')).toEqual(['For stopped@example.test']);
  }, 60_000);
});
