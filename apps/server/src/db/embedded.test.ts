import fs from 'node:fs/promises';
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
