import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../src/db/embedded.ts';
import { testJwtSecret } from './helpers.ts';

// Real server processes for the operations tests (apps/server/src/ops): the production bundle
// (dist/main.js) as `npm start` runs it, on a free loopback port, with the environment a test gives.

/** One line of a process's output: its JSON log line, or `{ text }` for anything else. */
export type LogLine = { msg?: string; pid?: number; level?: number; text?: string } & Record<
  string,
  unknown
>;

export type ExitStatus = { code: number | null; signal: NodeJS.Signals | null };

export type ServerProcess = {
  name: string;
  pid: number;
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every line written so far, stdout and stderr, in order. */
  logs: LogLine[];
  /** The last lines, for failure messages. */
  tail: (lines?: number) => string;
  /** The first line so far or to come that matches; fails after `timeoutMs` or when the process exits. */
  waitForLog: (
    match: (line: LogLine) => boolean,
    options?: { timeoutMs?: number; what?: string },
  ) => Promise<LogLine>;
  exited: Promise<ExitStatus>;
  isRunning: () => boolean;
  signal: (signal: NodeJS.Signals) => void;
  /** SIGTERM, then its exit (SIGKILL after `timeoutMs`). */
  terminate: (timeoutMs?: number) => Promise<ExitStatus>;
  /** SIGKILL, then its exit. */
  kill: () => Promise<ExitStatus>;
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** The production bundle `npm start` runs (docs/decisions/0020), built by test/global-setup.ts. */
export const serverEntry = path.resolve(import.meta.dirname, '../dist/main.js');

/**
 * Node's flags for the server, from apps/server/node-flags.json: `npm start` (scripts/start.mjs)
 * and the Dockerfile run it with the same (docs/decisions/0024; src/ops/node-flags.test.ts).
 */
export const serverNodeFlags: string[] = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../node-flags.json'), 'utf8'),
) as string[];

const live = new Set<ChildProcess>();
process.once('exit', () => {
  // Last resort when a test run dies: no server outlives it.
  for (const child of live) child.kill('SIGKILL');
});

/** The environment of a server process: nothing of the test runner's but PATH and HOME. */
function serverEnv(port: number, env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? os.tmpdir(),
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
    JWT_SECRET: testJwtSecret,
    APP_URL: 'http://imprest.test',
    ...env,
  };
}

function parseLine(text: string): LogLine {
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text) as LogLine;
    } catch {
      // not JSON after all
    }
  }
  return { text };
}

/**
 * Spawns a child process and follows its output. `ready`: the log line that says it serves
 * (default: its own "Imprest is running"); null to return at once.
 */
export async function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The port it serves on, when it is a server. */
  port?: number;
  ready?: ((line: LogLine, pid: number) => boolean) | null;
  timeoutMs?: number;
  /**
   * Its stdout and stderr appended to this file, as a log collector would take them, instead of
   * followed here: `logs` stays empty and `tail` reads the file (the load benchmark at LOG_LEVEL
   * info, whose lines would otherwise be parsed by the load generator). Requires `ready: null`.
   */
  outputFile?: string;
}): Promise<ServerProcess> {
  const port = options.port ?? 0;
  if (options.outputFile && options.ready !== null) {
    throw new Error(`${options.name}: a process writing to a file is started with ready: null`);
  }
  const outputFd = options.outputFile ? openSync(options.outputFile, 'a') : null;
  const child = spawn(options.command, options.args, {
    cwd: repoRoot,
    env: options.env,
    stdio: outputFd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', outputFd, outputFd],
  });
  if (outputFd !== null) closeSync(outputFd);
  live.add(child);
  const logs: LogLine[] = [];
  const listeners = new Set<(line: LogLine) => void>();
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (text) => {
      const line = parseLine(text);
      logs.push(line);
      for (const listener of listeners) listener(line);
    });
  }
  let status: ExitStatus | null = null;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      status = { code, signal };
      live.delete(child);
      // Let the last lines of output arrive first.
      setTimeout(() => resolve({ code, signal }), 50);
    });
    child.once('error', () => {
      live.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  const pid = child.pid ?? 0;
  const tail = (lines = 30): string =>
    options.outputFile
      ? readFileSync(options.outputFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
      : logs
          .slice(-lines)
          .map((line) => line.text ?? JSON.stringify(line))
          .join('\n');
  const waitForLog: ServerProcess['waitForLog'] = (match, waitOptions = {}) => {
    const found = logs.find(match);
    if (found) return Promise.resolve(found);
    const timeoutMs = waitOptions.timeoutMs ?? 60_000;
    const what = waitOptions.what ?? 'the expected log line';
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        listeners.delete(listener);
      };
      const listener = (line: LogLine): void => {
        if (!match(line)) return;
        done();
        resolve(line);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${options.name}: no ${what} after ${timeoutMs} ms. Output:\n${tail()}`));
      }, timeoutMs);
      listeners.add(listener);
      void exited.then((exit) => {
        if (!listeners.has(listener)) return;
        done();
        reject(
          new Error(
            `${options.name} exited (${JSON.stringify(exit)}) before ${what}. Output:\n${tail()}`,
          ),
        );
      });
    });
  };
  const isRunning = (): boolean => status === null;
  const signal = (name: NodeJS.Signals): void => {
    if (isRunning()) child.kill(name);
  };
  const handle: ServerProcess = {
    name: options.name,
    pid,
    port,
    url: `http://127.0.0.1:${port}`,
    logs,
    tail,
    waitForLog,
    exited,
    isRunning,
    signal,
    terminate: async (timeoutMs = 30_000) => {
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), timeoutMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    kill: async () => {
      signal('SIGKILL');
      return exited;
    },
  };
  const ready =
    options.ready === undefined
      ? (line: LogLine, ownPid: number) => line.msg === 'Imprest is running' && line.pid === ownPid
      : options.ready;
  if (ready) {
    await waitForLog((line) => ready(line, pid), {
      timeoutMs: options.timeoutMs ?? 60_000,
      what: 'start',
    }).catch(async (error: unknown) => {
      await handle.kill();
      throw error;
    });
  }
  return handle;
}

/**
 * Starts `node <serverNodeFlags> apps/server/dist/main.js`, as `npm start` does, on a free loopback port and waits until it
 * serves. `env` adds to (or overrides) HOST, PORT, LOG_LEVEL=info, JWT_SECRET=testJwtSecret.
 */
export async function startServerProcess(options: {
  name: string;
  env?: Record<string, string>;
  /** Node's own flags beside serverNodeFlags, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** Another build's dist/main.js (the load benchmark's baseline); this build's by default. */
  entry?: string;
  port?: number;
  ready?: ((line: LogLine, pid: number) => boolean) | null;
  timeoutMs?: number;
  outputFile?: string;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  return startProcess({
    name: options.name,
    command: process.execPath,
    // The extra flags after ours: where both name one, V8 takes the last.
    args: [...serverNodeFlags, ...(options.nodeArgs ?? []), options.entry ?? serverEntry],
    env: serverEnv(port, options.env ?? {}),
    port,
    ...(options.ready !== undefined ? { ready: options.ready } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.outputFile ? { outputFile: options.outputFile } : {}),
  });
}

/** Kills every process these helpers started that still runs, and waits for them to exit. */
export async function stopAllProcesses(): Promise<void> {
  const children = [...live];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export type TestRedis = { url: string; stop: () => Promise<void> };

/**
 * Redis for several server processes: REDIS_URL when set (CI's second pass), otherwise a
 * `redis-server` of the test's own on a free port, without persistence. Fails when neither exists.
 */
export async function startRedis(): Promise<TestRedis> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  live.add(child);
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output.join('')}`)),
      10_000,
    );
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      live.delete(child);
      reject(
        new Error(
          error.code === 'ENOENT'
            ? 'redis-server is not installed: these tests run several server processes, which need Redis. Install redis-server or set REDIS_URL.'
            : `redis-server could not start: ${error.message}`,
        ),
      );
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      live.delete(child);
      reject(new Error(`redis-server exited (${code}):\n${output.join('')}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.once('exit', () => live.delete(child));
        resolve();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    },
  };
}

/** The pid and port in the postmaster.pid of an embedded cluster, or null when it has none. */
export async function readPostmaster(
  dataDir: string,
): Promise<{ pid: number; port: number } | null> {
  const text = await fs
    .readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .catch(() => null);
  if (!text) return null;
  const lines = text.split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/** The URL of the `imprest` database of the embedded PostgreSQL a server process runs in `dataDir`. */
export async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  const postmaster = await readPostmaster(dataDir);
  if (!postmaster) throw new Error(`no PostgreSQL runs in ${dataDir}`);
  const password = (await fs.readFile(path.join(dataDir, 'postgres.password'), 'utf8')).trim();
  return `postgres://imprest:${encodeURIComponent(password)}@127.0.0.1:${postmaster.port}/imprest`;
}

/** Whether a process runs (a zombie counts as ended). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const state = stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
  return state !== 'Z' && state !== 'X';
}

/** Waits until a process has ended; fails after `timeoutMs`. */
export async function waitForEnd(pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (await isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills a PostgreSQL a test left running in `dataDir` (after a failure), and waits for it. */
export async function killPostmaster(dataDir: string): Promise<void> {
  const postmaster = await readPostmaster(dataDir);
  if (!postmaster?.pid || !(await isAlive(postmaster.pid))) return;
  const command = await fs.readFile(`/proc/${postmaster.pid}/cmdline`, 'utf8').catch(() => '');
  if (!command.includes(dataDir)) return; // the pid is someone else's now
  try {
    process.kill(postmaster.pid, 'SIGQUIT');
    await waitForEnd(postmaster.pid, 10_000);
  } catch {
    try {
      process.kill(postmaster.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
