import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Executor } from '../db/client.ts';
import { executeNamed, nameOfText } from '../db/named.ts';
import { pipelined } from '../db/pipelined.ts';

/** pg-boss keeps its tables in this schema of the application's database. */
export const jobSchema = 'pgboss';

/**
 * pg-boss's `Db` over any Executor, a transaction included: a job is written on the caller's
 * connection and commits or rolls back with the caller's change. pg-boss's statements keep their
 * text from call to call (its values are parameters), so each is prepared under a name drawn from
 * its text: the job's insert, in every write that sends an e-mail, was planned afresh on each call
 * (0.18 ms, bench/results.md).
 */
export function jobDatabase(db: Executor): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({
      rows: await executeNamed(db, nameOfText('pgboss', text), { sql: text, params: values }),
    }),
  };
}

/** Our one index on pg-boss's table: its next jobs in the order pg-boss 10 fetches them. */
export const fetchOrderIndex = 'imprest_job_fetch_order';

/**
 * pg-boss 10 fetches a queue's next jobs by `priority DESC, created_on, id`, but its own index
 * (`job_i5`) is in `start_after` order: each fetch read every waiting job of the queue and sorted
 * them all to keep five. With 20,000 e-mails waiting (a burst of writes, an SMTP server down for
 * an hour) a fetch took 18 ms, so the workers slowed as the backlog grew. In this index's order
 * it reads its batch and stops: 1.5 ms (docs/decisions/0048). On the partitioned parent, so every
 * queue's table has it, those created later included. pg-boss 12 has such an index of its own
 * (`job_i11`); it needs Node.js 22, and this is dropped with that upgrade.
 *
 * PostgreSQL takes it once the queue's table has statistics (autovacuum's first analysis, a
 * minute into a queue's jobs); before, it guesses a row or two and sorts them, as without it.
 *
 * Looked up before it is made: `CREATE INDEX IF NOT EXISTS` locks the job tables first, so each
 * start would wait for, and hold up, every write that queues an e-mail.
 */
export async function indexJobFetchOrder(boss: PgBoss): Promise<void> {
  await boss.getDb().executeSql(
    `DO $$ BEGIN
      IF to_regclass('${jobSchema}.${fetchOrderIndex}') IS NULL THEN
        CREATE INDEX IF NOT EXISTS ${fetchOrderIndex}
          ON ${jobSchema}.job (name, priority DESC, created_on, id) WHERE state < 'active';
      END IF;
    END $$`,
    [],
  );
}

/**
 * A pg-boss client that is never started: it only writes jobs, each time through the connection
 * given with the call (`{ db: jobDatabase(tx) }`), never through a pool of its own.
 */
const writer = new PgBoss({
  schema: jobSchema,
  db: {
    executeSql: () => Promise.reject(new Error('pass { db: jobDatabase(executor) } to send jobs')),
  },
});

/**
 * Queues seen to exist. Queues are created at start-up and never removed, so each is looked up
 * once per process rather than once per write (one statement fewer in every write that sends an
 * e-mail, issue 13).
 */
const knownQueues = new Set<string>();

/**
 * Creates jobs in the caller's transaction (docs/decisions/0011): they exist exactly when the change
 * that made them commits. Each job's id is given (e.g. the outbox row's), so sending one twice keeps
 * one. Throws when the queue does not exist, rather than committing work that nothing would run.
 */
export async function sendJobs(
  db: Executor,
  queue: string,
  jobs: { id: string; data: object }[],
): Promise<void> {
  if (jobs.length === 0) return;
  const insert = (on: Executor) =>
    writer.insert(
      jobs.map((job) => ({ id: job.id, name: queue, data: job.data })),
      { db: jobDatabase(on) },
    );
  if (knownQueues.has(queue)) {
    await insert(db);
    return;
  }
  // The look-up goes with the insert, so that the call sends all its statements at once
  // (db/transaction.ts, commitWith). pg-boss's insert joins the queue's row: without one, it
  // writes nothing, and the error rolls the caller's transaction back.
  const [found] = await pipelined(db, [
    (on) => on.execute(sql`SELECT 1 FROM ${sql.identifier(jobSchema)}.queue WHERE name = ${queue}`),
    insert,
  ]);
  if (found.rows.length === 0) throw new Error(`pg-boss queue ${queue} does not exist`);
  knownQueues.add(queue);
}

/**
 * Deletes jobs not yet taken, by id, in the caller's transaction: jobs sent beside writes that
 * turned out to need none (a repeated e-mail's, lib/mailer.ts).
 */
export async function withdrawJobs(db: Executor, queue: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(
    sql`DELETE FROM ${sql.identifier(jobSchema)}.job
        WHERE name = ${queue} AND state = 'created'
          AND id IN (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
  );
}
