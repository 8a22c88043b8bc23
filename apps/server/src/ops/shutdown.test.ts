import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../db/client.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../test/factories/organizations.ts';
import { requestBody } from '../../test/factories/requests.ts';
import {
  embeddedDatabaseUrl,
  isAlive,
  killPostmaster,
  readPostmaster,
  startServerProcess,
  stopAllProcesses,
  type ServerProcess,
} from '../../test/processes.ts';

// SIGTERM to a server process (docs/decisions/0016): it stops accepting connections, lets the
// request it is answering finish with its normal answer, disconnects the sockets, stops the job
// runner, then its embedded PostgreSQL, and exits 0. The slow request is a real one: a submission
// waiting for the budget row, which the test holds locked from a connection of its own.

let dataDir: string;
let server: ServerProcess;
let databaseUrl: string;
let org: StaffedOrganization;
const sockets: Socket[] = [];

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-shutdown-'));
  // No DATABASE_URL: the process runs its own embedded PostgreSQL, which it must stop last.
  server = await startServerProcess({
    name: 'server',
    env: { DATA_DIR: dataDir },
    timeoutMs: 90_000,
  });
  databaseUrl = await embeddedDatabaseUrl(dataDir);
  const db = connect(databaseUrl, { max: 2 });
  org = await buildStaffedOrganization(db);
  await db.$client.end();
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await stopAllProcesses();
  await killPostmaster(dataDir);
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** How a new TCP connection to a port ends: 'connected' or the error code. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('SIGTERM', () => {
  it('finishes the request in flight, then closes sockets, jobs and the database, and exits 0', async () => {
    const socket = connectSocket(server.url, {
      auth: { token: org.finance.token },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const heard: unknown[] = [];
    socket.on('request_updated', (payload: unknown) => heard.push(payload));
    const disconnects: { at: number; reason: string }[] = [];
    socket.on('disconnect', (reason) => disconnects.push({ at: performance.now(), reason }));

    // The budget row stays locked by the test: the submission waits in its transaction.
    const locker = new pg.Client({ connectionString: databaseUrl });
    locker.on('error', () => undefined);
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM budgets WHERE id = $1 FOR UPDATE', [org.budget.id]);
    let answeredAt = 0;
    const inFlight = fetch(`${server.url}/api/v1/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${org.staff.token}` },
      body: JSON.stringify(requestBody(org.budget.code)),
    }).then(async (response) => {
      answeredAt = performance.now();
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    });
    // Awaited below; a failure before that should not also surface as an unhandled rejection.
    inFlight.catch(() => undefined);
    await waitUntil(async () => {
      const waiting = await locker.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return (waiting.rows[0]?.count ?? 0) > 0;
    }, 'the submission to wait for the budget row');

    server.signal('SIGTERM');
    await server.waitForLog((line) => line.shutdown === 'listening', { what: 'stop accepting' });
    expect(await tryConnect(server.port)).toBe('ECONNREFUSED');
    // Nothing more happens while the request runs: it is not cut off, the socket stays.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answeredAt).toBe(0);
    expect(socket.connected).toBe(true);
    expect(server.logs.filter((line) => line.shutdown).map((line) => line.shutdown)).toEqual([
      'listening',
    ]);

    await locker.query('COMMIT');
    await locker.end();
    const answer = await inFlight;
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ current_status: 'pending', budget_code: org.budget.code });
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // The socket heard the request's event, then lost its transport after the answer went out.
    expect(heard).toEqual([{ request_id: answer.body.id }]);
    expect(disconnects).toEqual([{ at: expect.any(Number), reason: 'transport close' }]);
    expect(disconnects[0]?.at).toBeGreaterThan(answeredAt);
    const steps = server.logs
      .filter(
        (line) =>
          line.shutdown ||
          (line.msg === 'request completed' &&
            (line.req as { method?: string } | undefined)?.method === 'POST'),
      )
      .map((line) =>
        line.shutdown
          ? String(line.shutdown)
          : `POST answered ${String((line.res as { statusCode?: number } | undefined)?.statusCode)}`,
      );
    expect(steps).toEqual([
      'listening',
      'POST answered 201',
      'requests',
      'sockets',
      'jobs',
      'pool',
      'database',
      'done',
    ]);
    // PostgreSQL shut down cleanly: it removes its postmaster.pid.
    expect(await readPostmaster(dataDir)).toBeNull();
  }, 60_000);

  it('keeps what it wrote: the next start finds the request', async () => {
    expect(server.isRunning()).toBe(false);
    const next = await startServerProcess({ name: 'next', env: { DATA_DIR: dataDir } });
    const list = await fetch(`${next.url}/api/v1/requests/user/${org.staff.id}`, {
      headers: { authorization: `Bearer ${org.staff.token}` },
    });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { total: number }).total).toBe(1);
    const postmaster = await readPostmaster(dataDir);
    expect(await next.terminate()).toEqual({ code: 0, signal: null });
    expect(postmaster && (await isAlive(postmaster.pid))).toBe(false);
  }, 60_000);
});
