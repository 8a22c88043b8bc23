import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on a loopback port for the browser tests: the e2e server sends through it
 * (SMTP_URL in playwright.config.ts) and every message lands as a file in `mailDir`, where a test
 * reads it. Nobody reading mail is fine: the messages just pile up for this run.
 */
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
export const mailDir = path.resolve(import.meta.dirname, '../../.tmp/mail');

/** Starts the mailbox; resolves to a function that stops it. */
export async function startMailbox(): Promise<() => Promise<void>> {
  fs.rmSync(mailDir, { recursive: true, force: true });
  fs.mkdirSync(mailDir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        const name = `${Date.now()}-${String(count).padStart(5, '0')}.eml`;
        fs.writeFileSync(path.join(mailDir, name), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(smtpPort, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A message's text: headers unfolded, a quoted-printable body decoded. */
function decode(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  let body = rest.join('\n\n');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    body = Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) =>
          String.fromCharCode(parseInt(hex, 16)),
        ),
      'latin1',
    ).toString('utf8');
  } else if (/content-transfer-encoding:\s*base64/i.test(head)) {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return `${head.replace(/\r?\n[ \t]+/g, ' ')}\n\n${body}`;
}

/** The newest message to `to` whose text matches `pattern`, or null. */
export function findMail(to: string, pattern: RegExp = /./): string | null {
  if (!fs.existsSync(mailDir)) return null;
  const names = fs.readdirSync(mailDir).sort().reverse();
  for (const name of names) {
    const text = decode(fs.readFileSync(path.join(mailDir, name), 'utf8'));
    const recipients = /^to:\s*(.*)$/im.exec(text)?.[1] ?? '';
    if (recipients.toLowerCase().includes(to.toLowerCase()) && pattern.test(text)) return text;
  }
  return null;
}

/**
 * The HTML part of the newest message to `to` whose text matches `pattern`, or null: the message
 * as the mailbox received it, parsed by mailparser (multipart, encodings and all).
 */
export async function findMailHtml(to: string, pattern: RegExp = /./): Promise<string | null> {
  if (!fs.existsSync(mailDir)) return null;
  const names = fs.readdirSync(mailDir).sort().reverse();
  for (const name of names) {
    const raw = fs.readFileSync(path.join(mailDir, name));
    if (!raw.toString('latin1').toLowerCase().includes(to.toLowerCase())) continue;
    const message = await simpleParser(raw);
    const recipients = [message.to ?? []].flat().map((address) => address.text.toLowerCase());
    const words = `${message.subject ?? ''}\n${message.text ?? ''}`;
    if (recipients.some((text) => text.includes(to.toLowerCase())) && pattern.test(words)) {
      return message.html || null;
    }
  }
  return null;
}
