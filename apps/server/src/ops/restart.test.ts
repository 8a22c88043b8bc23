import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
  startProcess,
  startServerProcess,
  stopAllProcesses,
  waitForEnd,
  type ServerProcess,
} from '../../test/processes.ts';

// A process running the embedded PostgreSQL (DATA_DIR, no DATABASE_URL) that is killed with
// SIGKILL starts again by itself: whether its PostgreSQL outlived it, or died too and left a
// postmaster.pid naming a process id that another program has since taken.

let dataDir: string;
let org: StaffedOrganization;
let server: ServerProcess;

/** A server process on `dataDir`; the embedded PostgreSQL lives in `dataDir/postgres`. */
function startOnDataDir(name: string): Promise<ServerProcess> {
  return startServerProcess({ name, env: { DATA_DIR: dataDir }, timeoutMs: 90_000 });
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-restart-'));
  server = await startOnDataDir('first');
  const db = connect(await embeddedDatabaseUrl(dataDir), { max: 2 });
  org = await buildStaffedOrganization(db);
  await db.$client.end();
}, 120_000);

afterAll(async () => {
  await stopAllProcesses();
  await killPostmaster(dataDir);
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Submits a request through a server process; answers its id. */
async function submit(target: ServerProcess, purpose: string): Promise<string> {
  const response = await fetch(`${target.url}/api/v1/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${org.staff.token}` },
    body: JSON.stringify(requestBody(org.budget.code, { expenditure_justification: purpose })),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The justifications of the staff member's requests, as a server process reads them. */
async function storedPurposes(target: ServerProcess): Promise<string[]> {
  const response = await fetch(`${target.url}/api/v1/requests/user/${org.staff.id}`, {
    headers: { authorization: `Bearer ${org.staff.token}` },
  });
  expect(response.status).toBe(200);
  const page = (await response.json()) as { data: { expenditure_justification: string }[] };
  return page.data.map((request) => request.expenditure_justification).sort();
}

/** Starts a server process that must not start; answers the error it logged as it exited. */
async function refusedStart(
  name: string,
  options: { env: Record<string, string>; port?: number },
): Promise<string> {
  const started = await startServerProcess({ name, ...options, ready: null, timeoutMs: 90_000 });
  expect(await started.exited).toEqual({ code: 1, signal: null });
  const refusal = started.logs.find((line) => line.msg === 'Imprest could not start');
  return String((refusal?.err as { message?: unknown } | undefined)?.message);
}

describe('a second start on the same data folder', () => {
  it('is refused while the first process runs, and leaves its database alone', async () => {
    const postmaster = await readPostmaster(dataDir);
    if (!postmaster) throw new Error('no postmaster');
    // Another terminal, the same folder: this stopped the running server's PostgreSQL, and the
    // first server answered 503 from then on.
    expect(await refusedStart('second', { env: { DATA_DIR: dataDir } })).toContain(
      `Imprest is already running on this data folder (process ${server.pid}, its PostgreSQL ${postmaster.pid}`,
    );
    expect(await isAlive(postmaster.pid)).toBe(true);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(await storedPurposes(server)).toEqual([]);
  }, 120_000);

  it('on a port another process holds, says which port and what to do', async () => {
    const taken = Number(new URL(server.url).port);
    const refusal = await refusedStart('same port', {
      env: { DATABASE_URL: await embeddedDatabaseUrl(dataDir) },
      port: taken,
    });
    expect(refusal).toBe(
      `Port ${taken} is taken: another program (perhaps another Imprest) listens on it. Stop it, or set PORT to a free port.`,
    );
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  }, 120_000);
});

describe('a restart after SIGKILL', () => {
  it('stops the PostgreSQL the killed process left running, and keeps its data', async () => {
    await submit(server, 'before the first kill');
    const orphan = await readPostmaster(dataDir);
    if (!orphan) throw new Error('no postmaster');
    expect(await server.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    // Nobody stopped it: PostgreSQL outlives the process that started it.
    expect(await isAlive(orphan.pid)).toBe(true);

    server = await startOnDataDir('after SIGKILL');
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        msg: 'stopping a PostgreSQL server left running by an earlier process',
        postmasterPid: orphan.pid,
      }),
    );
    expect(await isAlive(orphan.pid)).toBe(false);
    expect(await storedPurposes(server)).toEqual(['before the first kill']);
  }, 60_000);

  it('starts over a stale postmaster.pid whose process id another program now holds', async () => {
    await submit(server, 'before the second kill');
    const postmaster = await readPostmaster(dataDir);
    if (!postmaster) throw new Error('no postmaster');
    // The whole machine goes down: the server and its PostgreSQL die at once, mid-flight.
    expect(await server.kill()).toEqual({ code: null, signal: 'SIGKILL' });
    process.kill(postmaster.pid, 'SIGKILL');
    await waitForEnd(postmaster.pid);
    // After the reboot another program runs under the pid postmaster.pid names.
    const stranger = await startProcess({
      name: 'stranger',
      command: 'sleep',
      args: ['120'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      ready: null,
    });
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
    await fs.writeFile(pidFile, [String(stranger.pid), ...lines.slice(1)].join('\n'));

    server = await startOnDataDir('after the crash');
    expect(server.logs).toContainEqual(
      expect.objectContaining({
        msg: 'removing a stale postmaster.pid: its process id now belongs to another program',
        postmasterPid: stranger.pid,
      }),
    );
    // The other program was left alone; PostgreSQL recovered from its log what was committed.
    expect(stranger.isRunning()).toBe(true);
    expect(await storedPurposes(server)).toEqual([
      'before the first kill',
      'before the second kill',
    ]);
    expect(await server.terminate()).toEqual({ code: 0, signal: null });
    expect(await readPostmaster(dataDir)).toBeNull();
  }, 60_000);
});
