/**
 * The e-mail queue's fetch with a backlog (docs/decisions/0048): 20,000 e-mails waiting, as after
 * a burst of writes or an hour with the SMTP server down. Each worker asks pg-boss for its next
 * batch; the fetch is timed (median and p95 of 200) before PostgreSQL has statistics of the table,
 * with them (when the index in fetch order is chosen) and without that index, with the plan of
 * each. The backlog stays the same throughout: each fetched batch is put back.
 * Run with `npx tsx apps/server/bench/jobs.ts`; a database of its own, as the other benchmarks.
 */
import { performance } from 'node:perf_hooks';
import PgBoss from 'pg-boss';
import { defaultEmailWork, queues } from '../src/features/jobs/worker.ts';
import { fetchOrderIndex, jobSchema } from '../src/lib/job-queue.ts';
import type { Database } from '../src/db/client.ts';
import {
  explain,
  formatPlan,
  formatTiming,
  log,
  secondsSince,
  timingOf,
  withDatabase,
  type Timing,
} from './support.ts';

const backlog = 20_000;
const insertBatch = 1_000;
const calls = 200;
const warmUpCalls = 20;
/** A worker's fetch should not grow with the backlog: a batch from 20,000 in well under this. */
const targetMs = 5;

/** Times `calls` fetches of one worker's batch, each put back afterwards (untimed). */
async function timeFetches(boss: PgBoss, db: Database): Promise<Timing> {
  const durations: number[] = [];
  for (let i = 0; i < warmUpCalls + calls; i += 1) {
    const started = performance.now();
    const jobs = await boss.fetch(queues.sendEmail, { batchSize: defaultEmailWork.batchSize });
    const duration = performance.now() - started;
    if (jobs.length !== defaultEmailWork.batchSize) throw new Error(`fetched ${jobs.length} jobs`);
    if (i >= warmUpCalls) durations.push(duration);
    await db.$client.query(
      `UPDATE ${jobSchema}.job SET state = 'created', started_on = NULL WHERE id = ANY($1::uuid[])`,
      [jobs.map((job) => job.id)],
    );
  }
  return timingOf(durations);
}

/** pg-boss 10's fetch, its SELECT alone, for the plan. */
const fetchSelect = `SELECT id FROM ${jobSchema}.job
  WHERE name = $1 AND state < 'active' AND start_after < now()
  ORDER BY priority DESC, created_on, id LIMIT $2 FOR UPDATE SKIP LOCKED`;

async function main(): Promise<void> {
  const startedAt = performance.now();
  await withDatabase(async (db, url) => {
    const boss = new PgBoss({
      connectionString: url,
      schema: jobSchema,
      max: 2,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    try {
      for (let n = 0; n < backlog; n += insertBatch) {
        const jobs = Array.from({ length: insertBatch }, (_, k) => ({
          name: queues.sendEmail,
          data: { id: `bench-${n + k}` },
        }));
        await boss.insert(jobs);
      }
      log(
        `${backlog.toLocaleString('en-GB')} e-mails waiting; timing ${calls} fetches of ${defaultEmailWork.batchSize}…`,
      );
      const params = [queues.sendEmail, defaultEmailWork.batchSize];

      // A queue's table before autovacuum first analyzes it (its first minute of jobs): PostgreSQL
      // guesses it holds a row or two, and sorting those looks cheapest.
      const unanalysed = await timeFetches(boss, db);
      const unanalysedPlan = await explain(db, fetchSelect, params);
      await db.$client.query(`VACUUM ANALYZE ${jobSchema}.job`);
      const indexed = await timeFetches(boss, db);
      const indexedPlan = await explain(db, fetchSelect, params);
      await db.$client.query(`DROP INDEX ${jobSchema}.${fetchOrderIndex}`);
      const bare = await timeFetches(boss, db);
      const barePlan = await explain(db, fetchSelect, params);

      const verdict = indexed.median < targetMs ? 'target met' : 'TARGET MISSED';
      process.stdout.write(
        [
          `  fetch a batch, ${backlog.toLocaleString('en-GB')} waiting, in fetch order (${fetchOrderIndex}): ${formatTiming(indexed)} (target median < ${targetMs} ms) — ${verdict}`,
          formatPlan(indexedPlan),
          `  the same before the table was first analysed (the index there, not yet chosen): ${formatTiming(unanalysed)}`,
          formatPlan(unanalysedPlan),
          `  the same with pg-boss 10's own indexes alone: ${formatTiming(bare)}`,
          formatPlan(barePlan),
          '',
        ].join('\n'),
      );
    } finally {
      await boss.stop({ graceful: false, wait: true });
    }
  });
  log(`total ${secondsSince(startedAt)}`);
}

await main();
