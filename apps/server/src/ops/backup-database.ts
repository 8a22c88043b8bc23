import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { BackupRefused, exists } from './backup-format.ts';
import type { RestoreTarget } from './restore.ts';

/** The embedded cluster's database, user and folder, as `startServer` makes them. */
const embeddedDatabase = 'imprest';
const embeddedUser = 'imprest';

function clusterDirOf(config: Config): string {
  return path.join(config.dataDir, 'postgres');
}

/**
 * The PostgreSQL serving an embedded cluster right now, from its postmaster.pid (line 1 the pid,
 * line 4 the port), or null when none runs. A server of this DATA_DIR, or one its process left
 * behind when it died, are the same to us: a live PostgreSQL on the cluster.
 */
async function runningPostmaster(
  clusterDir: string,
): Promise<{ pid: number; port: number } | null> {
  const text = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const lines = text?.split('\n') ?? [];
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null; // stale file
  }
  return { pid, port };
}

async function clusterPassword(clusterDir: string): Promise<string | null> {
  const text = await fs.readFile(`${clusterDir}.password`, 'utf8').catch(() => null);
  return text?.trim() || null;
}

/** Whether a URL's PostgreSQL answers. */
async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type BackupSource = {
  url: string;
  /** How it was reached, for the operator. */
  description: string;
  close: () => Promise<void>;
};

/**
 * The database to back up: DATABASE_URL's; else the embedded cluster of DATA_DIR, through the
 * running server's PostgreSQL when one runs (a consistent snapshot while it serves), or started
 * here for the backup and stopped after it.
 */
export async function openBackupSource(config: Config, logger: Logger): Promise<BackupSource> {
  if (config.databaseUrl)
    return { url: config.databaseUrl, description: 'DATABASE_URL', close: async () => undefined };
  const clusterDir = clusterDirOf(config);
  if (!(await exists(path.join(clusterDir, 'PG_VERSION'))))
    throw new BackupRefused(
      `${config.dataDir} holds no database (no ${clusterDir}): set DATA_DIR to the data folder to back up, or DATABASE_URL.`,
    );
  const running = await runningPostmaster(clusterDir);
  if (running) {
    const password = await clusterPassword(clusterDir);
    const url = `postgres://${embeddedUser}:${encodeURIComponent(password ?? '')}@127.0.0.1:${running.port}/${embeddedDatabase}`;
    if (!password || !(await answers(url)))
      throw new BackupRefused(
        `A process (pid ${running.pid}) holds ${clusterDir} but its PostgreSQL does not answer on port ${running.port}. If an Imprest server is starting or stopping on this DATA_DIR, wait and try again; if none runs, that process is not PostgreSQL: start and stop the server once (it clears the stale postmaster.pid), then back up.`,
      );
    return {
      url,
      description: `the running server's embedded PostgreSQL (pid ${running.pid}, port ${running.port})`,
      close: async () => undefined,
    };
  }
  const embedded = await startEmbeddedPostgres({
    clusterDir,
    database: embeddedDatabase,
    logger,
  });
  return {
    url: embedded.url,
    description: `the embedded PostgreSQL of ${config.dataDir}, started for the backup`,
    close: () => embedded.stop(),
  };
}

/** Refuses to restore into a DATA_DIR whose PostgreSQL runs: a server is (or was) using it. */
export async function refuseRunningServer(config: Config): Promise<void> {
  if (config.databaseUrl) return;
  const running = await runningPostmaster(clusterDirOf(config));
  if (running)
    throw new BackupRefused(
      `A PostgreSQL server (pid ${running.pid}) is running on ${clusterDirOf(config)}: stop the Imprest server of this DATA_DIR first. Restore needs an empty DATA_DIR; nothing was changed.`,
    );
}

/**
 * The database to restore into: DATABASE_URL's; else the embedded cluster of DATA_DIR, made if
 * there is none. A cluster made here is removed again, with its password file, if the restore
 * fails, so a refused or failed restore leaves DATA_DIR as it found it.
 */
export async function openRestoreTarget(config: Config, logger: Logger): Promise<RestoreTarget> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: async () => undefined };
  await refuseRunningServer(config);
  const clusterDir = clusterDirOf(config);
  const hadCluster = await exists(clusterDir);
  const hadPassword = await exists(`${clusterDir}.password`);
  const removeWhatWasMade = async (): Promise<void> => {
    if (!hadCluster) await fs.rm(clusterDir, { recursive: true, force: true });
    if (!hadPassword) await fs.rm(`${clusterDir}.password`, { force: true });
  };
  const embedded = await startEmbeddedPostgres({
    clusterDir,
    database: embeddedDatabase,
    logger,
  }).catch(async (error: unknown) => {
    await removeWhatWasMade();
    throw error;
  });
  return {
    url: embedded.url,
    close: async (isRestored) => {
      await embedded.stop();
      if (!isRestored) await removeWhatWasMade();
    },
  };
}
