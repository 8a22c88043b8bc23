import { and, eq, inArray } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';

export type Email = { organizationId: string | null; to: string; subject: string; body: string };

/** Puts an e-mail in the outbox inside the caller's transaction; nothing is sent before it commits. */
export async function queueEmail(db: Executor, email: Email): Promise<string> {
  const [row] = await db
    .insert(emailOutbox)
    .values({
      organization_id: email.organizationId,
      to_address: email.to,
      subject: email.subject,
      body: email.body,
    })
    .returning({ id: emailOutbox.id });
  if (!row) throw new Error('outbox insert returned nothing');
  return row.id;
}

let transport: nodemailer.Transporter | undefined;

/**
 * Delivers queued e-mails: through SMTP_URL when set, otherwise writes them to the log and keeps
 * them in the outbox (decisions §1). Each row is claimed by one process only.
 */
export async function deliverOutbox(
  context: AppContext,
  logger: FastifyBaseLogger,
  ids: string[],
): Promise<void> {
  if (ids.length === 0) return;
  const claimed = await context.db
    .update(emailOutbox)
    .set({ status: 'sending' })
    .where(and(inArray(emailOutbox.id, ids), eq(emailOutbox.status, 'queued')))
    .returning();
  for (const email of claimed) {
    try {
      if (context.config.smtpUrl) {
        transport ??= nodemailer.createTransport(context.config.smtpUrl);
        await transport.sendMail({
          from: 'Imprest <no-reply@imprest.local>',
          to: email.to_address,
          subject: email.subject,
          text: email.body,
        });
        await context.db
          .update(emailOutbox)
          .set({ status: 'sent', sent_at: new Date() })
          .where(eq(emailOutbox.id, email.id));
      } else {
        logger.info(
          { to: email.to_address, subject: email.subject, body: email.body },
          'e-mail (no SMTP_URL; kept in the outbox)',
        );
        await context.db
          .update(emailOutbox)
          .set({ status: 'logged' })
          .where(eq(emailOutbox.id, email.id));
      }
    } catch (error) {
      logger.error({ err: error, to: email.to_address }, 'e-mail could not be sent');
      await context.db
        .update(emailOutbox)
        .set({ status: 'failed', error: error instanceof Error ? error.message : String(error) })
        .where(eq(emailOutbox.id, email.id));
    }
  }
}
