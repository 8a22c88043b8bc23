import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { createClient } from 'redis';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../config.ts';
import { emailOutbox } from '../../db/schema.ts';
import { startServer, type RunningServer } from '../../server.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody } from '../../../test/factories/requests.ts';
import { createTestApp, testJwtSecret, type TestApp } from '../../../test/helpers.ts';
import { outboxSettled, startSmtpServer, type TestSmtpServer } from '../../../test/smtp.ts';

// Two server processes (two startServer) on one PostgreSQL and one Redis: an event caused on one
// reaches a socket client of the other, never another organisation's client, and each e-mail goes
// out once. CI starts Redis before both passes; here it is the one on 127.0.0.1:6379.
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let t: TestApp;
let smtp: TestSmtpServer;
let dataDir: string;
const servers: RunningServer[] = [];
const sockets: Socket[] = [];
let org: StaffedOrganization;
let other: StaffedOrganization;

beforeAll(async () => {
  // The test needs Redis: fail loudly rather than skip.
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  expect(await redis.ping()).toBe('PONG');
  await redis.quit();
  smtp = await startSmtpServer();
  t = await createTestApp();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-two-'));
  const config = {
    ...readConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: t.databaseUrl,
      REDIS_URL: redisUrl,
      SMTP_URL: smtp.url,
      APP_URL: 'https://imprest.example',
      JWT_SECRET: testJwtSecret,
      LOG_LEVEL: 'silent',
    }),
    webDist: '/nonexistent',
  };
  servers.push(...(await Promise.all([startServer(config), startServer(config)])));
  org = await buildStaffedOrganization(t.db, { name: 'Org One' });
  other = await buildStaffedOrganization(t.db, { name: 'Org Two', budgetCode: '6106' });
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await Promise.all(servers.map((server) => server.stop()));
  await smtp.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function server(index: number): RunningServer {
  const found = servers[index];
  if (!found) throw new Error('no server');
  return found;
}

/** A socket client of one server, connected or refused. */
function connect(url: string, token: string): Promise<{ socket: Socket; error?: Error }> {
  const socket = connectSocket(url, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.on('connect', () => resolve({ socket }));
    socket.on('connect_error', (error) => resolve({ socket, error }));
  });
}

describe('two server processes on one PostgreSQL and Redis', () => {
  it('refuses a socket with a forged or an expired token', async () => {
    // A live session of the user: only the signature or the expiry is wrong.
    const sid = (
      JSON.parse(Buffer.from(org.staff.token.split('.')[1] ?? '', 'base64url').toString()) as {
        sid: string;
      }
    ).sid;
    const forged = await new SignJWT({ org: org.organizationId, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(org.staff.id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-to-sign'));
    const expired = await new SignJWT({ org: org.organizationId, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(org.staff.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(testJwtSecret));
    for (const token of [forged, expired, 'not-a-token']) {
      const { socket, error } = await connect(server(1).url, token);
      expect(error?.message).toBe('unauthorized');
      expect(socket.connected).toBe(false);
    }
  });

  it("carries an event caused on one process to the other's clients of that organisation only", async () => {
    const { socket: reviewer, error } = await connect(server(1).url, org.finance.token);
    expect(error).toBeUndefined();
    const { socket: stranger } = await connect(server(1).url, other.finance.token);
    const { socket: sameProcess } = await connect(server(0).url, org.secretary.token);
    const strangerEvents: string[] = [];
    stranger.onAny((event: string) => strangerEvents.push(event));
    const reached = new Promise<unknown>((resolve) => reviewer.once('request_updated', resolve));
    const reachedSame = new Promise<unknown>((resolve) =>
      sameProcess.once('request_updated', resolve),
    );

    const response = await fetch(`${server(0).url}/api/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.staff.token}` },
      body: JSON.stringify(requestBody(org.budget.code)),
    });
    expect(response.status).toBe(201);
    const request = (await response.json()) as { id: string };
    expect(await reached).toEqual({ request_id: request.id });
    expect(await reachedSame).toEqual({ request_id: request.id });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(strangerEvents).toEqual([]);
  });

  it('sends each e-mail once although both processes work the queue', async () => {
    await outboxSettled(t.db, { timeoutMs: 20_000 });
    const rows = await t.db.select().from(emailOutbox);
    // The two finance officers of Org One, nobody else.
    expect(rows.map((row) => row.to_address).sort()).toEqual(
      [org.finance.email, org.finance2.email].sort(),
    );
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    expect(smtp.received.map((email) => email.to[0]).sort()).toEqual(
      [org.finance.email, org.finance2.email].map((email) => email.toLowerCase()).sort(),
    );
  });
});
