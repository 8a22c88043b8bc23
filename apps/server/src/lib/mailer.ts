import { randomUUID } from 'node:crypto';
import type { NotificationKind } from '@imprest/domain/notifications.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import { sendJobs } from './job-queue.ts';
import { redactSecrets, secretInUrlPattern } from './redact.ts';

/** What the mailer writes to: Fastify's request logger or the job runner's pino. */
export type MailLogger = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

/** The pg-boss queue whose jobs send one outbox row each (`{id}`), registered by the job runner. */
export const emailQueue = 'send-email';

export type Email = {
  organizationId: string | null;
  to: string;
  subject: string;
  /** The plain-text part. */
  body: string;
  /** The HTML part, when there is one. */
  html?: string;
  /**
   * One e-mail per event and recipient: queuing the same key again keeps the first (unique in the
   * outbox); also the Message-ID. A fresh one when left out.
   */
  idempotencyKey?: string;
  kind?: NotificationKind;
};

/** Rows per INSERT: a batch of 10,000 invitations stays far below PostgreSQL's 65,535 parameters. */
const insertChunk = 1000;

/**
 * Puts an e-mail in the outbox and creates the job that sends it, both inside the caller's
 * transaction: a rolled-back change sends nothing, a committed one is never forgotten
 * (docs/decisions/0011). Answers the outbox row's id (the existing row's for a repeated key).
 */
export async function queueEmail(db: Executor, email: Email): Promise<string> {
  const [id] = await queueEmails(db, [email]);
  if (!id) throw new Error('outbox insert returned nothing');
  return id;
}

/** queueEmail for many, with multi-row INSERTs; answers the ids in the order given. */
export async function queueEmails(db: Executor, emails: Email[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const keyed = emails.map((email) => ({ ...email, key: email.idempotencyKey ?? randomUUID() }));
  const inserted: string[] = [];
  const idOfKey = new Map<string, string>();
  for (let start = 0; start < keyed.length; start += insertChunk) {
    const rows = await db
      .insert(emailOutbox)
      .values(
        keyed.slice(start, start + insertChunk).map((email) => ({
          organization_id: email.organizationId,
          to_address: email.to,
          subject: email.subject,
          body: email.body,
          html: email.html ?? null,
          kind: email.kind ?? 'other',
          idempotency_key: email.key,
        })),
      )
      .onConflictDoNothing({ target: emailOutbox.idempotency_key })
      .returning({ id: emailOutbox.id, key: emailOutbox.idempotency_key });
    for (const row of rows) {
      inserted.push(row.id);
      idOfKey.set(row.key, row.id);
    }
  }
  // Only new rows get a job: a repeated key means the event was queued already.
  await sendJobs(
    db,
    emailQueue,
    inserted.map((id) => ({ id, data: { id } })),
  );
  const repeated = keyed.map((email) => email.key).filter((key) => !idOfKey.has(key));
  if (repeated.length > 0) {
    const existing = await db
      .select({ id: emailOutbox.id, key: emailOutbox.idempotency_key })
      .from(emailOutbox)
      .where(inArray(emailOutbox.idempotency_key, repeated));
    for (const row of existing) idOfKey.set(row.key, row.id);
  }
  return keyed.map((email) => {
    const id = idOfKey.get(email.key);
    if (!id) throw new Error(`outbox row of ${email.key} missing`);
    return id;
  });
}

const transports = new Map<string, Promise<nodemailer.Transporter>>();

/**
 * One pooled transport per SMTP URL. nodemailer is loaded with the first e-mail sent over SMTP, not
 * at start (issue 13: memory at idle); the promise is kept, so sends at once share one transport.
 */
function transportFor(smtpUrl: string): Promise<nodemailer.Transporter> {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    transport = import('nodemailer').then(({ default: nodemailer }) =>
      // Short timeouts: a hung server fails the attempt well within the job's expiry, and is retried.
      nodemailer.createTransport(smtpUrl, {
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      }),
    );
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/** A row claimed longer ago than this belongs to a worker that died mid-send; it may be claimed again. */
const staleClaimSeconds = 90;

/** The reason an attempt failed, as the outbox records it: the SMTP reply when there is one. */
function failureReason(error: unknown): string {
  const smtp = error as { response?: unknown; code?: unknown };
  if (typeof smtp.response === 'string' && smtp.response) return smtp.response;
  const message = error instanceof Error ? error.message : String(error);
  return typeof smtp.code === 'string' ? `${smtp.code}: ${message}` : message;
}

/** The Message-ID of an outbox row: its idempotency key, so a receiver can drop a duplicate. */
export function messageIdOf(key: string, appUrl: string): string {
  return `<${key.replace(/[^A-Za-z0-9._-]/g, '-')}@${new URL(appUrl).hostname}>`;
}

/** SQL of a text column with its URL secrets redacted (the same pattern as `redactSecrets`). */
function redactedColumn(column: typeof emailOutbox.body | typeof emailOutbox.html) {
  return sql`regexp_replace(${column}, ${secretInUrlPattern}, ${String.raw`\1[redacted]`}, 'gi')`;
}

export type DeliveryOutcome = 'sent' | 'logged' | 'skipped';

/**
 * Sends one outbox row (the `send-email` job's work): claims it first, so only one worker of any
 * process sends it; through SMTP_URL as HTML and plain text, or, without SMTP_URL, writes it to
 * the log and keeps it in the outbox (decisions §1). A failed attempt goes back to `queued` with
 * its reason and throws, so pg-boss retries it with back-off; the last one marks it `failed`.
 * `skipped`: already sent, logged or failed. A row claimed by another attempt less than
 * staleClaimSeconds ago throws, so that its job is retried rather than completed.
 */
export async function deliverQueuedEmail(
  context: AppContext,
  logger: MailLogger,
  options: { id: string; isLastTry: boolean },
): Promise<DeliveryOutcome> {
  const [email] = await context.db
    .update(emailOutbox)
    .set({ status: 'sending', attempts: sql`${emailOutbox.attempts} + 1`, claimed_at: sql`now()` })
    .where(
      and(
        eq(emailOutbox.id, options.id),
        sql`(${emailOutbox.status} = 'queued' OR (${emailOutbox.status} = 'sending' AND ${emailOutbox.claimed_at} < now() - make_interval(secs => ${staleClaimSeconds})))`,
      ),
    )
    .returning();
  if (!email) {
    const [row] = await context.db
      .select({ status: emailOutbox.status })
      .from(emailOutbox)
      .where(eq(emailOutbox.id, options.id));
    // Claimed by an attempt less than staleClaimSeconds ago: one still sending, or one whose
    // worker died mid-send and whose job pg-boss has retried early. Skipping would complete this
    // job and leave the row in `sending` for ever; failing it lets pg-boss retry once the claim
    // is stale (a row another attempt has sent by then is skipped, so it goes out once).
    if (row?.status === 'sending') {
      throw new Error('the e-mail is being sent by another attempt; tried again later');
    }
    return 'skipped';
  }
  const { smtpUrl } = context.config;
  if (!smtpUrl) {
    // The log never holds a link's secret; the outbox row keeps the e-mail whole, so someone
    // with the database can pass it on until SMTP is set up (docs/decisions/0012).
    logger.info(
      { to: email.to_address, subject: email.subject, body: redactSecrets(email.body) },
      'e-mail (no SMTP_URL; kept in the outbox)',
    );
    await context.db
      .update(emailOutbox)
      .set({ status: 'logged' })
      .where(eq(emailOutbox.id, email.id));
    return 'logged';
  }
  try {
    await (
      await transportFor(smtpUrl)
    ).sendMail({
      from: 'Imprest <no-reply@imprest.local>',
      to: email.to_address,
      subject: email.subject,
      text: email.body,
      ...(email.html ? { html: email.html } : {}),
      messageId: messageIdOf(email.idempotency_key, context.config.appUrl),
    });
  } catch (error) {
    const reason = failureReason(error);
    await context.db
      .update(emailOutbox)
      .set({ status: options.isLastTry ? 'failed' : 'queued', error: reason })
      .where(eq(emailOutbox.id, email.id));
    if (options.isLastTry) logger.error({ to: email.to_address, reason }, 'e-mail failed');
    else logger.warn({ to: email.to_address, reason }, 'e-mail attempt failed; will retry');
    throw error;
  }
  // Once sent, the stored copy loses the link's secret: the recipient has it, nobody else needs it.
  await context.db
    .update(emailOutbox)
    .set({
      status: 'sent',
      sent_at: sql`now()`,
      error: null,
      body: redactedColumn(emailOutbox.body),
      html: redactedColumn(emailOutbox.html),
    })
    .where(eq(emailOutbox.id, email.id));
  return 'sent';
}
