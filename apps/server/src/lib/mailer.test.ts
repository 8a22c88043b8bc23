import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../db/schema.ts';
import { createTestApp } from '../../test/helpers.ts';
import { startSmtpServer } from '../../test/smtp.ts';
import { createLogger } from './logger.ts';
import {
  defaultStaleClaimSeconds,
  deliverQueuedEmail,
  queueEmail,
  smtpTimeouts,
  withSmtpTimeouts,
} from './mailer.ts';

const smtp = await startSmtpServer();
const t = await createTestApp({ config: { smtpUrl: smtp.url } });
afterAll(() => smtp.stop());
const logger = createLogger('silent');

describe('an e-mail whose sending was cut off', () => {
  it('is left to its claim while it is fresh, and sent once the claim is stale', async () => {
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
    // Neither sent beside that attempt nor skipped: the caller is told when to look again.
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: true })).toEqual({
      claimedForSeconds: defaultStaleClaimSeconds,
    });
    await t.db
      .update(emailOutbox)
      .set({ claimed_at: sql`now() - interval '400 seconds'` })
      .where(eq(emailOutbox.id, id));
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: true })).toEqual({
      claimedForSeconds: defaultStaleClaimSeconds - 400,
    });
    expect(smtp.received).toEqual([]);
    // Later, the claim is stale: this try sends it.
    await t.db
      .update(emailOutbox)
      .set({ claimed_at: sql`now() - make_interval(secs => ${defaultStaleClaimSeconds + 1})` })
      .where(eq(emailOutbox.id, id));
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: false })).toBe('sent');
    // A sent row is skipped by a late duplicate.
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: false })).toBe('skipped');
    expect(smtp.subjectsTo('cut-off@example.test')).toEqual(['Your request was approved']);
  });
});

describe('SMTP timeouts', () => {
  it('give up on a server that accepts the connection and never greets', async () => {
    // A TCP server that says nothing: nodemailer's own default would wait 30 s for the greeting.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const context = { ...t.context, config: { ...t.context.config, smtpUrl: url } };
    try {
      const id = await t.db.transaction((tx) =>
        queueEmail(tx, {
          organizationId: null,
          to: 'silent@example.test',
          subject: 'S',
          body: 'B',
        }),
      );
      const started = Date.now();
      await expect(deliverQueuedEmail(context, logger, { id, isLastTry: false })).rejects.toThrow(
        /greeting/i,
      );
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeGreaterThanOrEqual(smtpTimeouts.greetingTimeout / 1000 - 0.5);
      expect(seconds).toBeLessThan(smtpTimeouts.greetingTimeout / 1000 + 5);
      const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
      expect({ status: row?.status, error: row?.error }).toMatchObject({
        status: 'queued',
        error: expect.stringMatching(/greeting/i),
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 30_000);

  it("are added to SMTP_URL's query where it does not set them, and an operator's own win", () => {
    const url = new URL(
      withSmtpTimeouts('smtp://user:p%40ss@mail.example:2525?socketTimeout=5000'),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      socketTimeout: '5000',
      connectionTimeout: '10000',
      greetingTimeout: '10000',
    });
    expect([url.username, url.password, url.host]).toEqual(['user', 'p%40ss', 'mail.example:2525']);
  });
});
