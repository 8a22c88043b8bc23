import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../db/schema.ts';
import { createTestApp } from '../../test/helpers.ts';
import { startSmtpServer } from '../../test/smtp.ts';
import { createLogger } from './logger.ts';
import { deliverQueuedEmail, queueEmail } from './mailer.ts';

const smtp = await startSmtpServer();
const t = await createTestApp({ config: { smtpUrl: smtp.url } });
afterAll(() => smtp.stop());
const logger = createLogger('silent');

describe('an e-mail whose sending was cut off', () => {
  it('is retried, not skipped, while its claim is fresh, and sent once the claim is stale', async () => {
    const id = await t.db.transaction((tx) =>
      queueEmail(tx, {
        organizationId: null,
        to: 'cut-off@example.test',
        subject: 'Your request was approved',
        body: 'Approved.',
      }),
    );
    // A worker claimed it and died mid-send; pg-boss hands the job out again early.
    await t.db
      .update(emailOutbox)
      .set({ status: 'sending', claimed_at: sql`now()` })
      .where(eq(emailOutbox.id, id));
    await expect(deliverQueuedEmail(t.context, logger, { id, isLastTry: false })).rejects.toThrow(
      'being sent by another attempt',
    );
    // Later, the claim is stale: this try sends it.
    await t.db
      .update(emailOutbox)
      .set({ claimed_at: sql`now() - interval '91 seconds'` })
      .where(eq(emailOutbox.id, id));
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: false })).toBe('sent');
    // A sent row is skipped by a late duplicate.
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: false })).toBe('skipped');
    expect(smtp.subjectsTo('cut-off@example.test')).toEqual(['Your request was approved']);
  });
});
