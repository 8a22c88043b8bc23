import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { migrationsFolder } from '../../db/client.ts';

/** One part of readiness: `ok`, `not configured`, or why it is not ready. */
export type CheckResult = 'ok' | 'not configured' | string;

export type Readiness = {
  isReady: boolean;
  checks: { database: CheckResult; migrations: CheckResult; redis: CheckResult; jobs: CheckResult };
};

/** How many migrations this build carries (the journal drizzle-kit writes beside them). */
function expectedMigrations(): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: unknown[] };
  return journal.entries.length;
}

const shippedMigrations = expectedMigrations();

/** Runs a probe, at most `timeoutMs`, as a check result. */
async function probe(check: () => Promise<boolean>, timeoutMs = 2_000): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const isOk = await Promise.race([
      check(),
      new Promise<boolean>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('no answer in time')), timeoutMs);
      }),
    ]);
    return isOk ? 'ok' : 'not ready';
  } catch (error) {
    return error instanceof Error ? error.message : 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /readyz` (issue 14): PostgreSQL answers, every migration of this build is applied, Redis
 * answers when configured, and the job worker runs. Cheap: two small queries and two pings.
 */
export async function checkReadiness(context: AppContext): Promise<Readiness> {
  const { db, readiness } = context;
  const [database, migrations, redis, jobs] = await Promise.all([
    probe(async () => {
      await db.execute(sql`SELECT 1`);
      return true;
    }),
    probe(async () => {
      const result = await db.execute<{ applied: string }>(
        sql`SELECT count(*) AS applied FROM drizzle.__drizzle_migrations`,
      );
      const applied = Number(result.rows[0]?.applied ?? 0);
      if (applied < shippedMigrations)
        throw new Error(`${applied} of ${shippedMigrations} migrations applied`);
      return true;
    }),
    context.config.redisUrl && readiness?.redis
      ? probe(readiness.redis)
      : Promise.resolve<CheckResult>(context.config.redisUrl ? 'not ready' : 'not configured'),
    readiness?.jobs ? probe(readiness.jobs) : Promise.resolve<CheckResult>('not ready'),
  ]);
  const checks = { database, migrations, redis, jobs };
  const isReady = Object.values(checks).every(
    (result) => result === 'ok' || result === 'not configured',
  );
  return { isReady, checks };
}
