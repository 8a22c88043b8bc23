import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { NotificationKind } from '@imprest/domain/notifications.ts';
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/client.ts';
import type { DrawnValue } from '../db/drawn.ts';
import { preparedInsert } from '../db/prepared-insert.ts';
import { emailOutbox } from '../db/schema.ts';
import { pipelined } from '../db/pipelined.ts';
import { sendJobs, withdrawJobs } from './job-queue.ts';
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
  /**
   * A value drawn in the caller's transaction whose marker the texts hold, written in its place
   * (the approval number, docs/decisions/0054).
   */
  carries?: DrawnValue;
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

/** A text of an e-mail as the outbox gets it: with the drawn value it carries in place. */
function written(email: Email, text: string): string | SQL<string> {
  return email.carries ? email.carries.into(text) : text;
}

/** The outbox's INSERT: a repeated idempotency key keeps the row there and answers nothing. */
const insertOutboxRows = preparedInsert<
  PgInsertValue<typeof emailOutbox>,
  { id: string; key: string }
>(emailOutbox, 'insert_email_outbox', (insert) =>
  insert
    .onConflictDoNothing({ target: emailOutbox.idempotency_key })
    .returning({ id: emailOutbox.id, key: emailOutbox.idempotency_key }),
);

/**
 * queueEmail for many, with multi-row INSERTs; answers the ids in the order given. Each row's id
 * is made here and its job carries it, so the rows and their jobs go out together, one round trip
 * (db/pipelined.ts; issue 13: in a final approval it is one round trip fewer under the
 * organisation's sequence lock, docs/decisions/0051). A repeated key creates no row: the job sent
 * beside it is taken back in the same transaction, and the existing row's id is answered.
 */
export async function queueEmails(db: Executor, emails: Email[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const keyed = emails.map((email) => ({
    ...email,
    id: randomUUID(),
    key: email.idempotencyKey ?? randomUUID(),
  }));
  const created = new Set<string>();
  for (let start = 0; start < keyed.length; start += insertChunk) {
    const chunk = keyed.slice(start, start + insertChunk);
    const [rows] = await pipelined(db, [
      (on) =>
        insertOutboxRows(
          on,
          chunk.map((email) => ({
            id: email.id,
            organization_id: email.organizationId,
            to_address: email.to,
            subject: written(email, email.subject),
            body: written(email, email.body),
            html: email.html === undefined ? null : written(email, email.html),
            kind: email.kind ?? 'other',
            idempotency_key: email.key,
          })),
        ),
      (on) =>
        sendJobs(
          on,
          emailQueue,
          chunk.map((email) => ({ id: email.id, data: { id: email.id } })),
        ),
    ]);
    for (const row of rows) created.add(row.id);
  }
  const repeated = keyed.filter((email) => !created.has(email.id));
  if (repeated.length === 0) return keyed.map((email) => email.id);
  await withdrawJobs(
    db,
    emailQueue,
    repeated.map((email) => email.id),
  );
  const existing = await db
    .select({ id: emailOutbox.id, key: emailOutbox.idempotency_key })
    .from(emailOutbox)
    .where(
      inArray(
        emailOutbox.idempotency_key,
        repeated.map((email) => email.key),
      ),
    );
  const idOfKey = new Map(existing.map((row) => [row.key, row.id]));
  return keyed.map((email) => {
    if (created.has(email.id)) return email.id;
    const id = idOfKey.get(email.key);
    if (!id) throw new Error(`outbox row of ${email.key} missing`);
    return id;
  });
}

const transports = new Map<string, Promise<nodemailer.Transporter>>();

/**
 * How long an SMTP attempt waits, in milliseconds: to connect, for the server's greeting, and for
 * any reply once connected. nodemailer reads its connection settings from the URL alone when given
 * one (options beside a URL are the messages' defaults), so these go into the URL's query, where
 * an operator's own value of any of them wins.
 */
export const smtpTimeouts = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

/** SMTP_URL with smtpTimeouts added where it does not set them. */
export function withSmtpTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, milliseconds] of Object.entries(smtpTimeouts)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(milliseconds));
  }
  return url.toString();
}

/**
 * One transport per SMTP URL. nodemailer is loaded with the first e-mail sent over SMTP, not at
 * start (issue 13: memory at idle); the promise is kept, so sends at once share one transport.
 */
function transportFor(smtpUrl: string): Promise<nodemailer.Transporter> {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    transport = import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(withSmtpTimeouts(smtpUrl)),
    );
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/**
 * A row claimed longer ago than this belongs to an attempt that ended without saying how (its
 * process died, or was stopped mid-send); it may be claimed again. Longer than any attempt can
 * take under smtpTimeouts (a connection, a greeting and about ten replies: 320 s), so a hung
 * attempt that later succeeds is never sent a second time beside it.
 */
export const defaultStaleClaimSeconds = 600;

/** SQL: a row's claim is older than `staleClaimSeconds`, so another attempt may take it over. */
function claimIsStale(staleClaimSeconds: number) {
  return sql`${emailOutbox.claimed_at} < now() - make_interval(secs => ${staleClaimSeconds})`;
}

/** Outbox rows still `sending` whose claim is stale: their attempt ended without an outcome. */
export async function staleEmailClaims(db: Executor, staleClaimSeconds: number): Promise<string[]> {
  const rows = await db
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, 'sending'), claimIsStale(staleClaimSeconds)));
  return rows.map((row) => row.id);
}

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

/** Where e-mails are written without SMTP (docs/decisions/0037). */
export function mailFolder(dataDir: string): string {
  return path.join(dataDir, 'mail');
}

/**
 * Writes an e-mail whole, as plain text, to a file of the mail folder that only the server's own
 * user may read (0600 in a 0700 folder, as the database's password file); answers its path.
 */
async function writeMailFile(
  dataDir: string,
  email: { id: string; to_address: string; subject: string; body: string },
): Promise<string> {
  const folder = mailFolder(dataDir);
  // The data folder keeps its usual mode: it also holds the embedded database's cluster, which
  // PostgreSQL's own user must reach when the server runs as root. Only the mail folder is closed.
  await fs.mkdir(dataDir, { recursive: true });
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(folder, `${stamp}-${email.id}.txt`);
  const text = `To: ${email.to_address}\nSubject: ${email.subject}\n\n${email.body}\n`;
  await fs.writeFile(file, text, { mode: 0o600, flag: 'wx' });
  return file;
}

/** SQL of a text column with its URL secrets redacted (the same pattern as `redactSecrets`). */
function redactedColumn(column: typeof emailOutbox.body | typeof emailOutbox.html) {
  return sql`regexp_replace(${column}, ${secretInUrlPattern}, ${String.raw`\1[redacted]`}, 'gi')`;
}

/**
 * `skipped`: already sent, logged or failed. `claimedForSeconds`: another attempt claimed it less
 * than the stale-claim time ago (one still sending, or one that ended without saying how); it may
 * be claimed again after that many seconds.
 */
export type DeliveryOutcome = 'sent' | 'logged' | 'skipped' | { claimedForSeconds: number };

/**
 * Sends one outbox row (the `send-email` job's work): claims it first, so only one worker of any
 * process sends it; through SMTP_URL as HTML and plain text, or, without SMTP_URL, writes it to
 * the log and keeps it in the outbox (decisions §1). A failed attempt goes back to `queued` with
 * its reason and throws, so pg-boss retries it with back-off; the last one marks it `failed`.
 */
export async function deliverQueuedEmail(
  context: AppContext,
  logger: MailLogger,
  options: { id: string; isLastTry: boolean; staleClaimSeconds?: number },
): Promise<DeliveryOutcome> {
  const staleClaimSeconds = options.staleClaimSeconds ?? defaultStaleClaimSeconds;
  const [email] = await context.db
    .update(emailOutbox)
    .set({ status: 'sending', attempts: sql`${emailOutbox.attempts} + 1`, claimed_at: sql`now()` })
    .where(
      and(
        eq(emailOutbox.id, options.id),
        or(
          eq(emailOutbox.status, 'queued'),
          and(eq(emailOutbox.status, 'sending'), claimIsStale(staleClaimSeconds)),
        ),
      ),
    )
    .returning();
  if (!email) {
    const [row] = await context.db
      .select({
        status: emailOutbox.status,
        staleIn: sql<number>`ceil(extract(epoch from ${emailOutbox.claimed_at} + make_interval(secs => ${staleClaimSeconds}) - now()))::int`,
      })
      .from(emailOutbox)
      .where(eq(emailOutbox.id, options.id));
    // Claimed by another attempt: the caller looks again once that claim would be stale. Skipping
    // would leave the row in `sending` for ever if that attempt never ends; failing would spend
    // this job's retries on waiting, and its last one would leave the row unsent.
    if (row?.status === 'sending') return { claimedForSeconds: Math.max(1, row.staleIn) };
    return 'skipped';
  }
  const { smtpUrl } = context.config;
  if (!smtpUrl) {
    // The log never holds a link's secret (docs/decisions/0012); the e-mail is written whole to a
    // file only whoever runs Imprest can read, and the outbox row keeps it too, so an invitation
    // can be passed on until SMTP is set up (docs/decisions/0037).
    const file = await writeMailFile(context.config.dataDir, email).catch((error: unknown) => {
      logger.warn({ err: error }, 'e-mail could not be written to the mail folder');
      return null;
    });
    logger.info(
      { to: email.to_address, subject: email.subject, body: redactSecrets(email.body), file },
      file
        ? `e-mail (no SMTP_URL): kept in the outbox and written to ${file}`
        : 'e-mail (no SMTP_URL): kept in the outbox',
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
    // Only while this attempt's claim holds: a later attempt that took over a stale claim may
    // have sent it meanwhile.
    await context.db
      .update(emailOutbox)
      .set({ status: options.isLastTry ? 'failed' : 'queued', error: reason })
      .where(
        and(
          eq(emailOutbox.id, email.id),
          eq(emailOutbox.status, 'sending'),
          eq(emailOutbox.attempts, email.attempts),
        ),
      );
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
