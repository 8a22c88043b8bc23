import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxWebConcurrency, parseWebConcurrency, readConfig } from '../config.ts';
import { databasePoolSize } from '../server.ts';
import {
  isAlive,
  killPostmaster,
  readPostmaster,
  startRedis,
  startServerProcess,
  stopAllProcesses,
  waitForEnd,
  type LogLine,
  type ServerProcess,
  type TestRedis,
} from '../../test/processes.ts';

// WEB_CONCURRENCY (docs/decisions/0016): the setting, and `node src/main.ts` as a primary with two
// node:cluster workers on one port, its own embedded PostgreSQL and Redis.

describe('WEB_CONCURRENCY', () => {
  it.each([
    [undefined, 1],
    ['', 1],
    ['1', 1],
    [' 4 ', 4],
    ['16', 16],
    ['auto', 6],
    ['AUTO', 6],
  ])('reads %j as %i processes (on 6 cores)', (value, expected) => {
    expect(parseWebConcurrency(value, 6)).toBe(expected);
  });

  it('caps auto at 16 processes and never goes below one', () => {
    expect(parseWebConcurrency('auto', 64)).toBe(maxWebConcurrency);
    expect(parseWebConcurrency('auto', 1)).toBe(1);
  });

  it.each(['0', '17', '-1', '2.5', 'two', '1e1'])('refuses %j with a clear message', (value) => {
    expect(() => parseWebConcurrency(value, 6)).toThrow(
      `Invalid configuration: WEB_CONCURRENCY: "${value}" is neither a number of server processes from 1 to 16 nor auto`,
    );
  });

  it('needs REDIS_URL for more than one process, and not for one', () => {
    expect(() => readConfig({ WEB_CONCURRENCY: '2' })).toThrow(
      'Invalid configuration: WEB_CONCURRENCY: 2 processes need REDIS_URL',
    );
    expect(readConfig({ WEB_CONCURRENCY: '2', REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject(
      { webConcurrency: 2 },
    );
    expect(readConfig({ WEB_CONCURRENCY: '1' }).webConcurrency).toBe(1);
    expect(readConfig({}).webConcurrency).toBe(1);
  });

  it('holds four database connections a core, shared by the processes', () => {
    const poolOf = (processes: number, cores: number) => databasePoolSize(processes, { cores });
    // Two cores: 8 connections for one process, 4 each for two, 2 each for four or more.
    expect([1, 2, 4, 8].map((processes) => poolOf(processes, 2))).toEqual([8, 4, 2, 2]);
    // Eight cores: 32 in all, at most 20 a process; sixteen cores: 64 in all.
    expect([1, 2, 4, 8].map((processes) => poolOf(processes, 8))).toEqual([20, 16, 8, 4]);
    expect([1, 4, 16].map((processes) => poolOf(processes, 16))).toEqual([20, 16, 4]);
    // Never more than 80 in all, whatever the cores (the embedded PostgreSQL takes 200).
    expect([4, 16].map((processes) => poolOf(processes, 64))).toEqual([20, 5]);
  });

  it('takes DATABASE_POOL_SIZE as given, and refuses one that is not 1 to 100', () => {
    const configured = readConfig({ DATABASE_POOL_SIZE: '12' }).databasePoolSize;
    expect(configured).toBe(12);
    expect(databasePoolSize(4, { cores: 2, configured })).toBe(12);
    expect(readConfig({}).databasePoolSize).toBeNull();
    expect(readConfig({ DATABASE_POOL_SIZE: '' }).databasePoolSize).toBeNull();
    for (const value of ['0', '101', '2.5', 'many']) {
      expect(() => readConfig({ DATABASE_POOL_SIZE: value })).toThrow(
        /Invalid configuration: DATABASE_POOL_SIZE: /,
      );
    }
  });
});

describe('npm start with an invalid WEB_CONCURRENCY', () => {
  it.each([
    [{ WEB_CONCURRENCY: '2' }, 'WEB_CONCURRENCY: 2 processes need REDIS_URL'],
    [
      { WEB_CONCURRENCY: 'lots', REDIS_URL: 'redis://127.0.0.1:1' },
      'WEB_CONCURRENCY: "lots" is neither a number of server processes from 1 to 16 nor auto',
    ],
  ])('%j stops at once with exit code 1 and says why', async (env, message) => {
    const server = await startServerProcess({ name: 'invalid', env, ready: null });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.tail()).toContain(`Imprest could not start: Invalid configuration: ${message}`);
  });
});

/** GET on a connection of its own (no keep-alive), so node:cluster hands it to the next worker. */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('two workers behind one primary', () => {
  let dataDir: string;
  let redis: TestRedis;
  let primary: ServerProcess;
  const isRunningLine = (line: LogLine) => line.msg === 'Imprest is running';

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-cluster-'));
    redis = await startRedis();
    // No DATABASE_URL: the primary starts the embedded PostgreSQL in DATA_DIR.
    primary = await startServerProcess({
      name: 'primary',
      env: { WEB_CONCURRENCY: '2', REDIS_URL: redis.url, DATA_DIR: dataDir },
      timeoutMs: 90_000,
    });
  }, 120_000);

  afterAll(async () => {
    await stopAllProcesses();
    await killPostmaster(dataDir);
    await redis.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const workerPids = (): number[] => [
    ...new Set(
      primary.logs
        .filter((line) => isRunningLine(line) && line.pid !== primary.pid)
        .map((line) => line.pid ?? 0),
    ),
  ];

  it('prepares the database once in the primary and starts two workers on one port', async () => {
    const started = primary.logs.filter((line) => line.msg === 'embedded PostgreSQL started');
    expect(started.map((line) => line.pid)).toEqual([primary.pid]);
    expect(
      primary.logs.find((line) => isRunningLine(line) && line.pid === primary.pid),
    ).toMatchObject({ workers: 2, url: `http://localhost:${primary.port}` });
    await primary.waitForLog(() => workerPids().length === 2, { what: 'two workers' });
    expect(workerPids()).not.toContain(primary.pid);
    // Each worker runs its own job runner and socket.io on the shared Redis.
    for (const pid of workerPids()) {
      expect(primary.logs).toContainEqual(
        expect.objectContaining({ pid, msg: 'socket.io uses the Redis adapter' }),
      );
    }
    // One PostgreSQL, run by the primary's embedded server.
    const postmaster = await readPostmaster(dataDir);
    expect(postmaster && (await isAlive(postmaster.pid))).toBe(true);
  });

  it('hands new connections to both workers', async () => {
    const before = primary.logs.length;
    for (let index = 0; index < 6; index += 1) {
      expect(await getOnNewConnection(`${primary.url}/api/v1/setup`)).toEqual({
        status: 200,
        body: JSON.stringify({ needs_setup: true }),
      });
    }
    const completed = () =>
      primary.logs.slice(before).filter((line) => line.msg === 'request completed');
    await primary.waitForLog(() => completed().length === 6, { what: 'six request logs' });
    const served = completed().map((line) => line.pid);
    expect(new Set(served)).toEqual(new Set(workerPids()));
  });

  it('serves socket.io over WebSocket only, which keeps a socket on one worker', async () => {
    const polling = await getOnNewConnection(`${primary.url}/socket.io/?EIO=4&transport=polling`);
    expect(polling).toEqual({
      status: 400,
      body: JSON.stringify({ code: 0, message: 'Transport unknown' }),
    });
    // The first error a client meets: its transport refused, or its token (the handshake got
    // through to the token check).
    const firstError = async (options: Parameters<typeof connectSocket>[1]): Promise<string> => {
      const socket = connectSocket(primary.url, {
        auth: { token: 'not-a-token' },
        reconnection: false,
        ...options,
      });
      const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
      socket.close();
      return error.message;
    };
    expect(await firstError({ transports: ['websocket'] })).toBe('unauthorized');
    // socket.io-client's default starts with polling and stops there; a client that may try
    // WebSocket next gets through (docs/decisions/0016).
    expect(await firstError({})).toBe('xhr poll error');
    expect(await firstError({ transports: ['websocket', 'polling'], tryAllTransports: true })).toBe(
      'unauthorized',
    );
    expect(await firstError({ tryAllTransports: true })).toBe('unauthorized');
  });

  it('replaces a worker that dies', async () => {
    const [victim, survivor] = workerPids();
    if (!victim || !survivor) throw new Error('no workers');
    process.kill(victim, 'SIGKILL');
    await primary.waitForLog(
      (line) => line.msg === 'worker died; starting another' && line.worker === victim,
      { what: 'the death noticed' },
    );
    const replacement = await primary.waitForLog(
      (line) =>
        isRunningLine(line) &&
        line.pid !== primary.pid &&
        line.pid !== victim &&
        line.pid !== survivor,
      { what: 'a new worker', timeoutMs: 60_000 },
    );
    expect(await isAlive(victim)).toBe(false);
    const pids = new Set<number | undefined>();
    for (let index = 0; index < 4; index += 1) {
      const before = primary.logs.length;
      expect((await getOnNewConnection(`${primary.url}/api/v1/setup`)).status).toBe(200);
      await primary.waitForLog(
        (line) => primary.logs.indexOf(line) >= before && line.msg === 'request completed',
        { what: 'the request log' },
      );
      pids.add(primary.logs.slice(before).find((line) => line.msg === 'request completed')?.pid);
    }
    expect(pids).toEqual(new Set([survivor, replacement.pid]));
  });

  it('stops the workers gracefully on SIGTERM, then the database, and exits 0', async () => {
    const workers = primary.logs
      .filter((line) => isRunningLine(line) && line.pid !== primary.pid)
      .map((line) => line.pid ?? 0)
      .filter((pid) => pid !== 0);
    const postmaster = await readPostmaster(dataDir);
    expect(await primary.terminate()).toEqual({ code: 0, signal: null });
    const live = [];
    for (const pid of workers) if (await isAlive(pid)) live.push(pid);
    expect(live).toEqual([]);
    if (!postmaster) throw new Error('no postmaster');
    await waitForEnd(postmaster.pid, 5_000);
    // Each live worker went through its own graceful stop; then the primary stopped the database.
    const stepsOf = (pid: number) =>
      primary.logs.filter((line) => line.pid === pid && line.shutdown).map((line) => line.shutdown);
    const stopped = workers.filter((pid) => stepsOf(pid).length > 0);
    expect(stopped).toHaveLength(2);
    for (const pid of stopped) {
      expect(stepsOf(pid)).toEqual(['listening', 'requests', 'sockets', 'jobs', 'pool', 'done']);
    }
    expect(stepsOf(primary.pid)).toEqual(['workers', 'database', 'done']);
    const order = primary.logs
      .filter((line) => line.shutdown === 'done' || line.shutdown === 'database')
      .map((line) => `${line.pid === primary.pid ? 'primary' : 'worker'} ${String(line.shutdown)}`);
    expect(order).toEqual(['worker done', 'worker done', 'primary database', 'primary done']);
  });
});
