import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded.ts';

// The security issue, finding 6: the embedded server's password is generated per data folder and
// kept readable by its owner only, never a fixed word anyone can read in the source.
const root = path.resolve(import.meta.dirname, `../../../../.tmp/embedded-test-${process.pid}`);
const clusterDir = path.join(root, 'postgres');
const logger = pino({ level: 'silent' });

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function canSignIn(url: string, password: string): Promise<boolean> {
  const target = new URL(url);
  target.password = encodeURIComponent(password);
  const client = new pg.Client({ connectionString: target.toString() });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('the embedded PostgreSQL password', () => {
  it('is generated for a new data folder, kept with 0600, and the old fixed one is refused', async () => {
    const database = await startEmbeddedPostgres({ clusterDir, database: 'imprest', logger });
    try {
      const file = `${clusterDir}.password`;
      const password = (await fs.readFile(file, 'utf8')).trim();
      expect(password.length).toBeGreaterThanOrEqual(32);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect(await canSignIn(database.url, password)).toBe(true);
      expect(await canSignIn(database.url, 'imprest')).toBe(false);
      // A cluster from before: its password is the old one and no file is kept.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query("ALTER ROLE imprest PASSWORD 'imprest'");
      await client.end();
      await fs.rm(file);
    } finally {
      await database.stop();
    }
    const upgraded = await startEmbeddedPostgres({ clusterDir, database: 'imprest', logger });
    try {
      const password = (await fs.readFile(`${clusterDir}.password`, 'utf8')).trim();
      expect(password).not.toBe('imprest');
      expect(await canSignIn(upgraded.url, password)).toBe(true);
      expect(await canSignIn(upgraded.url, 'imprest')).toBe(false);
    } finally {
      await upgraded.stop();
    }
  }, 120_000);
});

async function clientAddressOver(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ address: string | null }>(
      'SELECT inet_client_addr()::text AS address',
    );
    return rows[0]?.address ?? null;
  } finally {
    await client.end();
  }
}

// Issue 13 (docs/decisions/0022): the app reaches its embedded server through a Unix socket in
// the cluster's folder, a third less CPU a statement than TCP; TCP on the loopback stays.
describe('the embedded PostgreSQL socket', () => {
  it('is in the cluster folder, which only its owner enters, and the URL goes through it', async () => {
    // A short folder of its own: wherever the repository lies, its socket path fits.
    const socketRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-socket-'));
    const socketCluster = path.join(socketRoot, 'postgres');
    const database = await startEmbeddedPostgres({
      clusterDir: socketCluster,
      database: 'imprest',
      logger,
    });
    try {
      const url = new URL(database.url);
      expect(url.searchParams.get('host')).toBe(socketCluster);
      expect((await fs.stat(socketCluster)).mode & 0o077).toBe(0);
      // No client address: a Unix socket.
      expect(await clientAddressOver(database.url)).toBeNull();
      url.searchParams.delete('host');
      expect(await clientAddressOver(url.toString())).toBe('127.0.0.1/32');
    } finally {
      await database.stop();
      await fs.rm(socketRoot, { recursive: true, force: true });
      await fs.rm(`${socketCluster}.password`, { force: true });
    }
  }, 120_000);

  it('starts where a folder above the cluster is closed to others (a 0700 data folder)', async () => {
    // As root, PostgreSQL runs as its own user, which must pass through every folder above the
    // cluster; a mail folder made first had left the data folder 0700, and initdb was refused.
    const closed = path.join(root, 'closed');
    await fs.mkdir(closed, { recursive: true, mode: 0o700 });
    await fs.chmod(closed, 0o700);
    const cluster = path.join(closed, 'demo', 'postgres');
    const database = await startEmbeddedPostgres({
      clusterDir: cluster,
      database: 'imprest',
      logger,
    });
    try {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      const { rows } = await client.query<{ answer: number }>('select 1 as answer');
      await client.end();
      expect(rows).toEqual([{ answer: 1 }]);
      // Opened for passing through only, never for listing.
      if (os.userInfo().uid === 0) expect((await fs.stat(closed)).mode & 0o777).toBe(0o711);
    } finally {
      await database.stop();
    }
  }, 120_000);

  it('is left out where its path would be too long for the system: TCP alone', async () => {
    const deep = path.join(root, 'a-folder-name-long-enough'.repeat(4), 'postgres');
    const database = await startEmbeddedPostgres({ clusterDir: deep, database: 'imprest', logger });
    try {
      expect(new URL(database.url).searchParams.has('host')).toBe(false);
      expect(await clientAddressOver(database.url)).toBe('127.0.0.1/32');
    } finally {
      await database.stop();
    }
  }, 120_000);
});
