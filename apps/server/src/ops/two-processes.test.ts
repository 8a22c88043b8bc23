import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocketWelcome } from '@imprest/domain/realtime.ts';
import { emailOutbox } from '../db/schema.ts';
import { queues } from '../features/jobs/worker.ts';
import { jobSchema } from '../lib/job-queue.ts';
import { genuineFile } from '../../test/factories/files.ts';
import { buildStoredRetirement, lockStateOf } from '../../test/factories/locking.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../test/factories/organizations.ts';
import { requestBody } from '../../test/factories/requests.ts';
import { createTestApp, testPassword, type TestApp } from '../../test/helpers.ts';
import {
  startRedis,
  startServerProcess,
  stopAllProcesses,
  type ServerProcess,
  type TestRedis,
} from '../../test/processes.ts';
import { startS3, type TestS3 } from '../../test/s3.ts';
import { connectWelcomed as connectTo } from '../../test/sockets.ts';
import { outboxSettled, startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

// Two real server processes (`node src/main.ts`, as `npm start` runs one) on one PostgreSQL
// database, one Redis and one S3 (s3rver): what one process does, the other sees; and each job
// runs once although both work the queues (docs/decisions/0016, ARCHITECTURE.md "Scaling out").

let t: TestApp;
let s3: TestS3;
let redis: TestRedis;
let smtp: TestSmtpServer;
let dataDir: string;
let a: ServerProcess;
let b: ServerProcess;
let org: StaffedOrganization;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  // Registered after the test database's own clean-up, so it runs before the database is dropped.
  afterAll(stopAllProcesses);
  [s3, redis, smtp] = await Promise.all([startS3(), startRedis(), startSmtpServer()]);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-two-processes-'));
  const env = {
    DATABASE_URL: t.databaseUrl,
    REDIS_URL: redis.url,
    SMTP_URL: smtp.url,
    DATA_DIR: dataDir,
    S3_BUCKET: s3.s3.bucket,
    S3_ENDPOINT: s3.s3.endpoint ?? '',
    S3_REGION: s3.s3.region,
    S3_ACCESS_KEY_ID: s3.s3.accessKeyId ?? '',
    S3_SECRET_ACCESS_KEY: s3.s3.secretAccessKey ?? '',
    S3_FORCE_PATH_STYLE: 'true',
  };
  [a, b] = await Promise.all([
    startServerProcess({ name: 'A', env }),
    startServerProcess({ name: 'B', env }),
  ]);
  org = await buildStaffedOrganization(t.db);
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await stopAllProcesses();
  await Promise.all([s3?.stop(), redis?.stop(), smtp?.stop()]);
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

async function call(
  target: ServerProcess,
  method: string,
  url: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${target.url}/api/v1${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

function connect(target: ServerProcess, token: string): Promise<Socket> {
  return connectWelcomed(target, token).then(({ socket }) => socket);
}

/** A socket once joined, with the `welcome` it was sent, closed after the tests. */
async function connectWelcomed(
  target: ServerProcess,
  token: string,
): Promise<{ socket: Socket; welcome: SocketWelcome }> {
  const joined = await connectTo(target.url, token);
  sockets.push(joined.socket);
  return joined;
}

describe('two server processes on one database, Redis and S3', () => {
  it('are two processes', () => {
    expect(a.pid).not.toBe(b.pid);
    expect(a.port).not.toBe(b.port);
  });

  it('accept on B the token A issued, and refuse on A a session ended on B', async () => {
    const signIn = await call(a, 'POST', '/users/authenticate', {
      body: { email: org.secretary.email, password: testPassword },
    });
    expect(signIn.status).toBe(200);
    const token = String(signIn.body.token);
    const onB = await call(b, 'GET', '/users/validate-token', { token });
    expect(onB.status).toBe(200);
    expect(onB.body).toMatchObject({ user: { id: org.secretary.id } });

    expect((await call(b, 'POST', '/users/logout', { token })).status).toBe(204);
    expect((await call(a, 'GET', '/users/validate-token', { token })).status).toBe(401);
  });

  it("carry a request submitted through A to a socket connected to B, and A's own", async () => {
    const onB = await connect(b, org.finance.token);
    const onA = await connect(a, org.finance2.token);
    const heardOnB = new Promise((resolve) => onB.once('request_updated', resolve));
    const heardOnA = new Promise((resolve) => onA.once('request_updated', resolve));
    const submitted = await call(a, 'POST', '/requests', {
      token: org.staff.token,
      body: requestBody(org.budget.code),
    });
    expect(submitted.status).toBe(201);
    expect(await heardOnB).toEqual({ request_id: submitted.body.id });
    expect(await heardOnA).toEqual({ request_id: submitted.body.id });
  });

  it('tell a socket joining B when A last raised an event for its organisation, and of none for another', async () => {
    const listening = await connect(a, org.finance.token);
    const heard = new Promise((resolve) => listening.once('request_updated', resolve));
    const before = Date.now();
    const submitted = await call(a, 'POST', '/requests', {
      token: org.staff.token,
      body: requestBody(org.budget.code),
    });
    expect(submitted.status).toBe(201);
    // Heard: the event was sent, so its time was recorded before.
    await heard;
    const { welcome } = await connectWelcomed(b, org.finance2.token);
    expect(welcome.last_event_at).toBeGreaterThanOrEqual(before);
    expect(welcome.last_event_at).toBeLessThanOrEqual(welcome.now);

    // An organisation with no event since this Redis began: B cannot tell, so the page catches up.
    const quiet = await buildStaffedOrganization(t.db);
    expect((await connectWelcomed(b, quiet.finance.token)).welcome.last_event_at).toBeNull();
  });

  it('read through B a file uploaded through A', async () => {
    const presigned = await call(a, 'GET', '/files/presigned-post-url?file_name=receipt.pdf', {
      token: org.staff.token,
    });
    expect(presigned.status).toBe(200);
    const post = presigned.body as {
      url: string;
      fields: Record<string, string>;
      file_name: string;
    };
    expect(post.url).toBe(`${s3.s3.endpoint}/${s3.s3.bucket}`);
    const content = genuineFile('receipt.pdf', `uploaded through A at ${Date.now()}`);
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.append('file', new Blob([content], { type: 'application/pdf' }), 'receipt.pdf');
    expect((await fetch(post.url, { method: 'POST', body: form })).status).toBe(204);
    // A checks the upload in S3 when the request takes it.
    const submitted = await call(a, 'POST', '/requests', {
      token: org.staff.token,
      body: requestBody(org.budget.code, { file_paths: [post.file_name] }),
    });
    expect(submitted.status).toBe(201);

    const read = await call(b, 'GET', `/requests/request/${String(submitted.body.id)}`, {
      token: org.finance.token,
    });
    expect(read.body.files).toEqual([{ name: post.file_name, type: 'pdf' }]);
    const link = await call(
      b,
      'GET',
      `/files/presigned-get-url?file_name=${encodeURIComponent(post.file_name)}`,
      { token: org.finance.token },
    );
    expect(link.status).toBe(200);
    const file = await fetch(String(link.body.url));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);
  });

  it('send each e-mail once although both work the queue', async () => {
    // Submissions through both processes: each queues e-mails to the two finance officers.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        call(index % 2 === 0 ? a : b, 'POST', '/requests', {
          token: org.staff.token,
          body: requestBody(org.budget.code),
        }),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(Array(6).fill(201));
    await outboxSettled(t.db, { timeoutMs: 30_000 });
    const rows = await t.db.select().from(emailOutbox);
    expect(rows.length).toBeGreaterThanOrEqual(16);
    expect(rows.filter((row) => row.status !== 'sent' || row.attempts !== 1)).toEqual([]);
    // SMTP received each one exactly once (its Message-ID is the outbox row's idempotency key).
    const received = smtp.received.map((email) => email.messageId).sort();
    expect(received).toHaveLength(rows.length);
    expect(new Set(received).size).toBe(rows.length);
    // pg-boss marks a batch's jobs completed once the whole batch is through.
    const jobStates = async () =>
      (
        await t.db.execute<{ state: string; count: number }>(
          sql`SELECT state, count(*)::int AS count FROM pgboss.job WHERE name = ${queues.sendEmail} GROUP BY state`,
        )
      ).rows;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
      if ((await jobStates()).every((row) => row.state === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const jobs = { rows: await jobStates() };
    expect(jobs.rows).toEqual([{ state: 'completed', count: rows.length }]);
  });

  it('run each lock job once although both work the queue', async () => {
    // An owner with a retirement 60 days overdue: the lock job locks them.
    await buildStoredRetirement(t.db, {
      owner: org.otherStaff,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10),
    });
    const boss = new PgBoss({
      connectionString: t.databaseUrl,
      schema: jobSchema,
      max: 1,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    const sent: string[] = [];
    for (let index = 0; index < 6; index += 1) {
      const id = await boss.send(queues.lockOverdue, {});
      if (id) sent.push(id);
    }
    await boss.stop({ graceful: false, wait: true });
    expect(sent).toHaveLength(6);

    const ids = sql.join(
      sent.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    const states = async () =>
      (
        await t.db.execute<{ state: string; count: number }>(
          sql`SELECT state, count(*)::int AS count FROM pgboss.job
              WHERE name = ${queues.lockOverdue} AND id IN (${ids}) GROUP BY state`,
        )
      ).rows;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      if ((await states()).every((row) => row.state === 'completed')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await states()).toEqual([{ state: 'completed', count: sent.length }]);
    // A job fetched twice would have run twice at about the same time: give its line a moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ranOn = (server: ServerProcess) =>
      server.logs
        .filter((line) => line.msg === 'lock job ran' && sent.includes(String(line.job)))
        .map((line) => String(line.job));
    expect([...ranOn(a), ...ranOn(b)].sort()).toEqual([...sent].sort());
    expect(await lockStateOf(t.db, org.otherStaff)).toMatchObject({
      is_locked: true,
      locked_by: 'system',
    });
  }, 60_000);
});
