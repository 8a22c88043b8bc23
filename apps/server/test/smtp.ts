import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Executor } from '../src/db/client.ts';
import { emailOutbox } from '../src/db/schema.ts';

/** An e-mail the test SMTP server accepted. */
export type ReceivedEmail = {
  to: string[];
  subject: string;
  messageId: string;
  /** The whole message, quoted-printable decoded (so links and texts read as written). */
  raw: string;
};

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => `%${hex}`);
  try {
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
  } catch {
    return bytes;
  }
}

/**
 * How the server answers an attempt: null accepts, a number refuses with that SMTP code, 'hang'
 * never answers the recipient (a server that hangs mid-conversation).
 */
export type SmtpPolicy = (recipient: string, attempt: number) => number | null | 'hang';

export type TestSmtpServer = {
  url: string;
  port: number;
  received: ReceivedEmail[];
  /** Attempts (MAIL FROM … RCPT TO) per recipient, refused ones included. */
  attempts: Map<string, number>;
  setPolicy: (policy: SmtpPolicy) => void;
  /** The subjects received by one address. */
  subjectsTo: (address: string) => string[];
  stop: () => Promise<void>;
};

function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded
    .split(/\r?\n/)
    .find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** A real SMTP server (the smtp-server package) on a loopback port, recording what it accepts. */
export async function startSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const received: ReceivedEmail[] = [];
  const attempts = new Map<string, number>();
  let policy: SmtpPolicy = () => null;
  const refusal = (code: number) =>
    Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), {
      responseCode: code,
    });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A hung connection is cut 1 s into stop(), not 30 s.
    closeTimeout: 1_000,
    onRcptTo(address, _session: SMTPServerSession, callback) {
      const recipient = address.address.toLowerCase();
      const attempt = (attempts.get(recipient) ?? 0) + 1;
      attempts.set(recipient, attempt);
      const code = policy(recipient, attempt);
      if (code === 'hang') return;
      callback(code === null ? undefined : refusal(code));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: header(raw, 'Subject'),
          messageId: header(raw, 'Message-ID'),
          raw: decodeQuotedPrintable(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    attempts,
    setPolicy: (next) => {
      policy = next;
    },
    subjectsTo: (address) =>
      received
        .filter((email) => email.to.includes(address.toLowerCase()))
        .map((email) => email.subject),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until no e-mail of the outbox (or of `ids`) is queued or being sent. */
export async function outboxSettled(
  db: Executor,
  options: { ids?: string[]; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const rows = await db
      .select({ id: emailOutbox.id, status: emailOutbox.status })
      .from(emailOutbox)
      .where(options.ids ? inArray(emailOutbox.id, options.ids) : undefined);
    const busy = rows.filter((row) => row.status === 'queued' || row.status === 'sending');
    if (busy.length === 0) return;
    if (Date.now() > deadline)
      expect.fail(`${busy.length} e-mails still queued after ${options.timeoutMs ?? 20_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Writes an e-mail's HTML under .tmp/emails/ at the repository root, for screenshots. */
export async function saveEmailHtml(name: string, html: string): Promise<string> {
  const folder = path.resolve(import.meta.dirname, '../../../.tmp/emails');
  await fs.mkdir(folder, { recursive: true });
  const file = path.join(folder, `${name}.html`);
  await fs.writeFile(file, html);
  return file;
}
