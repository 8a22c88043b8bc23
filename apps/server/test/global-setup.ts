import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { connect, migrateDatabase } from '../src/db/client.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.ts';
import { installJobQueues } from '../src/features/jobs/worker.ts';

declare module 'vitest' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
  }
}

/** The URL of another database on the same server. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * Starts one real PostgreSQL for the whole run (embedded, or the server of DATABASE_URL) and builds
 * a migrated template database; each test file clones it (test/helpers.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The operations tests run real server processes from the production bundle, as `npm start`
  // does (docs/decisions/0020): build it from the sources under test (a fraction of a second).
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../build.mjs')], {
    stdio: 'inherit',
  });
  const logger = pino({ level: 'warn' });
  let embedded: EmbeddedDatabase | null = null;
  let clusterDir: string | null = null;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    clusterDir = path.resolve(import.meta.dirname, `../../../.tmp/test-postgres-${process.pid}`);
    await fs.rm(clusterDir, { recursive: true, force: true });
    await fs.rm(`${clusterDir}.password`, { force: true });
    embedded = await startEmbeddedPostgres({ clusterDir, database: 'postgres', logger });
    adminUrl = embedded.url;
  }
  const templateDatabase = `imprest_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${templateDatabase}"`);
  await admin.query(`CREATE DATABASE "${templateDatabase}"`);
  const db = connect(databaseUrl(adminUrl, templateDatabase), { max: 1 });
  await migrateDatabase(db);
  await db.$client.end();
  // pg-boss and its queues, as startServer installs them before serving: every service that
  // queues an e-mail writes its job in the same transaction (docs/decisions/0011).
  await installJobQueues(databaseUrl(adminUrl, templateDatabase));
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
      [`imprest_test_${process.pid}_%`, templateDatabase],
    );
    for (const { datname } of leftovers.rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    }
    await admin.end();
    await embedded?.stop();
    if (clusterDir) {
      await fs.rm(clusterDir, { recursive: true, force: true });
      await fs.rm(`${clusterDir}.password`, { force: true });
    }
  };
}
