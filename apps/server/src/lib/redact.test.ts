import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { emailOutbox } from '../db/schema.ts';
import { createTestApp } from '../../test/helpers.ts';
import { startSmtpServer } from '../../test/smtp.ts';
import { createLogger } from './logger.ts';
import { deliverQueuedEmail, mailFolder, queueEmail } from './mailer.ts';
import { redactSecrets } from './redact.ts';

// The security issue, finding 6: a reset link's token or a file link's signature is never written
// to a log, and leaves the stored e-mail once it has been sent.
const secret = 'S3cr3t-t0ken_value';
const link = `https://imprest.example/reset-link?token=${secret}&email=a%40b.test`;

/** A logger whose lines are kept in memory. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

describe('redactSecrets', () => {
  it.each([
    [link, 'https://imprest.example/reset-link?token=[redacted]&email=a%40b.test'],
    [
      `<a href="/x?email=a&amp;token=${secret}">Set</a>`,
      '<a href="/x?email=a&amp;token=[redacted]">Set</a>',
    ],
    [
      `/api/v1/files/object?key=k&expires=1&signature=${secret}`,
      '/api/v1/files/object?key=k&expires=1&signature=[redacted]',
    ],
    [`Use it:\n${link}\nThanks`, expect.not.stringContaining(secret)],
    ['no secrets here ?tokens=1 &retoken=2', 'no secrets here ?tokens=1 &retoken=2'],
  ])('%s', (text, expected) => {
    expect(redactSecrets(text)).toEqual(expected);
  });
});

const smtp = await startSmtpServer();
const t = await createTestApp({ config: { smtpUrl: smtp.url } });
afterAll(() => smtp.stop());

describe('logs and the outbox', () => {
  async function queued(): Promise<string> {
    return t.db.transaction((tx) =>
      queueEmail(tx, {
        organizationId: null,
        to: 'reader@example.test',
        subject: 'Reset your Imprest password',
        body: `Use this link: ${link}`,
        html: `<a href="${link.replace('&', '&amp;')}">Set a new password</a>`,
      }),
    );
  }

  it('a request log line never holds a token from the URL', async () => {
    const { logger, lines } = capturingLogger();
    const app = await buildApp(t.context, { logger });
    await app.ready();
    try {
      await app.inject({ method: 'GET', url: `/reset-link?token=${secret}&email=a%40b.test` });
      await app.inject({
        method: 'GET',
        url: `/api/v1/files/object?key=x&expires=1&signature=${secret}`,
      });
    } finally {
      await app.close();
    }
    const text = lines.join('');
    expect(text).toContain('/reset-link?token=[redacted]');
    expect(text).toContain('signature=[redacted]');
    expect(text).not.toContain(secret);
  });

  it('a sent e-mail reaches its reader whole; the stored copy then loses the secret', async () => {
    const { logger } = capturingLogger();
    const id = await queued();
    expect(await deliverQueuedEmail(t.context, logger, { id, isLastTry: true })).toBe('sent');
    expect(smtp.received.at(-1)?.raw).toContain(secret);
    const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.body).toBe(
      'Use this link: https://imprest.example/reset-link?token=[redacted]&email=a%40b.test',
    );
    expect(row?.html).toContain('token=[redacted]');
    expect(`${row?.body}${row?.html}`).not.toContain(secret);
  });

  it('without SMTP the log line is redacted; the e-mail is written whole to a file only its server reads, and kept in the outbox', async () => {
    const { logger, lines } = capturingLogger();
    const id = await queued();
    // A data folder the server has not made yet: the mail folder is the first thing in it.
    const dataDir = path.join(t.context.config.dataDir, `fresh-${id}`);
    const noSmtp = { ...t.context, config: { ...t.context.config, smtpUrl: undefined, dataDir } };
    expect(await deliverQueuedEmail(noSmtp, logger, { id, isLastTry: true })).toBe('logged');
    expect(lines.join('')).toContain('token=[redacted]');
    expect(lines.join('')).not.toContain(secret);
    const [row] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    expect(row?.body).toContain(secret);

    // The log names the file; the file holds the link as the reader would have received it.
    const folder = mailFolder(dataDir);
    const name = (await fs.readdir(folder)).find((entry) => entry.endsWith(`-${id}.txt`));
    expect(name).toBeDefined();
    const file = path.join(folder, name ?? '');
    expect(lines.join('')).toContain(file);
    expect(await fs.readFile(file, 'utf8')).toBe(
      `To: reader@example.test\nSubject: Reset your Imprest password\n\nUse this link: ${link}\n`,
    );
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(folder)).mode & 0o777).toBe(0o700);
    // Only the mail folder is closed: the data folder also holds the embedded cluster, which
    // PostgreSQL's own user must pass through when the server runs as root.
    const usual = path.join(t.context.config.dataDir, `usual-${id}`);
    await fs.mkdir(usual);
    expect((await fs.stat(dataDir)).mode & 0o777).toBe((await fs.stat(usual)).mode & 0o777);
  });
});
