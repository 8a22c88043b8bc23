import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';
import { startServer, type RunningServer } from './server.ts';
import { connectWelcomed } from '../test/sockets.ts';

// The whole process as `npm start` runs it: its own database (embedded, or a fresh one on the
// DATABASE_URL server), migrations, HTTP on a real port, socket.io.
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-restart-'));
let databaseUrl: string | undefined;
let dropDatabase = async (): Promise<void> => undefined;
if (process.env.DATABASE_URL) {
  const name = `imprest_restart_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
}

const config = {
  ...readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  }),
  webDist: '/nonexistent',
};
let running: RunningServer | undefined;

afterAll(async () => {
  await running?.stop();
  await dropDatabase();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

describe('the server process', () => {
  const account = { email: 'founder@example.test', password: 'a long enough password' };

  it('keeps its data across a stop and a start', async () => {
    running = await startServer(config);
    const created = await post(`${running.url}/api/v1/setup`, {
      organization_name: 'Kept Org',
      fullname: 'Founder',
      ...account,
    });
    expect(created.status).toBe(201);
    await running.stop();
    running = undefined;

    running = await startServer(config);
    const status = await fetch(`${running.url}/api/v1/setup`).then((response) => response.json());
    expect(status).toEqual({ needs_setup: false });
    const signedIn = await post(`${running.url}/api/v1/users/authenticate`, account);
    expect(signedIn.status).toBe(200);
    expect(
      ((await signedIn.json()) as { user: { organization_name: string } }).user.organization_name,
    ).toBe('Kept Org');
    // The running process is alive and ready: database, migrations, jobs, and Redis when set.
    expect(await fetch(`${running.url}/healthz`).then((response) => response.json())).toEqual({
      status: 'ok',
    });
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: {
        database: 'ok',
        migrations: 'ok',
        redis: config.redisUrl ? 'ok' : 'not configured',
        jobs: 'ok',
      },
    });
  });

  it('admits a signed-in socket to its organisation room and delivers events; refuses a bad token', async () => {
    if (!running) throw new Error('server not running');
    const { token, user } = (await post(`${running.url}/api/v1/users/authenticate`, account).then(
      (response) => response.json(),
    )) as {
      token: string;
      user: { id: string; organization_id: string };
    };

    const refused = connectSocket(running.url, {
      auth: { token: 'garbage' },
      reconnection: false,
      transports: ['websocket'],
    });
    const error = await new Promise<Error>((resolve) => refused.on('connect_error', resolve));
    expect(error.message).toBe('unauthorized');
    refused.close();

    const server = running;
    // Joined, a socket is told when its organisation's last event was raised (decisions 0030).
    const welcomed = () => connectWelcomed(server.url, token);
    const first = await welcomed();
    if (config.redisUrl) {
      // Several processes share Redis's record, which has no event of this new organisation.
      expect(first.welcome.last_event_at).toBeNull();
    } else {
      // One process: no event since it started, whose start bounds any event before.
      expect(first.welcome.last_event_at).toBeLessThanOrEqual(first.welcome.now);
    }
    const { socket } = first;
    const received = new Promise<unknown>((resolve) => socket.on('update_user', resolve));
    const before = Date.now();
    running.context.events.publish(user.organization_id, 'update_user', { user_id: user.id });
    expect(await received).toEqual({ user_id: user.id });
    const second = await welcomed();
    expect(second.welcome.last_event_at).toBeGreaterThanOrEqual(before);
    expect(second.welcome.last_event_at).toBeLessThanOrEqual(second.welcome.now);
    socket.close();
    second.socket.close();
  });

  it('runs the job runner: the lock job is scheduled daily at midnight in ORG_TIMEZONE', async () => {
    if (!running) throw new Error('server not running');
    const schedules = await running.context.db.execute<{
      name: string;
      cron: string;
      timezone: string;
    }>(sql`SELECT name, cron, timezone FROM pgboss.schedule ORDER BY name`);
    expect(schedules.rows).toEqual([
      // docs/decisions/0011: e-mails left mid-send are given a job again.
      { name: 'email-sweep', cron: '*/5 * * * *', timezone: config.orgTimezone },
      { name: 'lock-overdue', cron: '0 0 * * *', timezone: config.orgTimezone },
      // docs/decisions/0011: the spec §8 warnings and the reviewers' digests.
      { name: 'retirement-warnings', cron: '0 7 * * *', timezone: config.orgTimezone },
      { name: 'review-reminders', cron: '0 8 * * *', timezone: config.orgTimezone },
    ]);
  });
});
