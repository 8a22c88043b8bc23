import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../test/factories/organizations.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { watchSocketWrites } from '../../test/socket-writes.ts';
import { budgetChangelog, budgetHistory, budgetRequests } from '../features/budgets/queries.ts';
import { connect, type Database, type Executor } from './client.ts';
import { pipelined } from './pipelined.ts';

// Issue 13: a call's independent reads go together on one connection (db/pipelined.ts).

let t: TestApp;
let org: StaffedOrganization;
let pool: Database;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  pool = connect(t.databaseUrl, { max: 2 });
});

afterAll(async () => {
  await pool.$client.end();
});

/** The server process answering, and whether the connection was in pipeline mode meanwhile. */
async function whoAnswers(on: Executor): Promise<{ pid: number; pipelined: boolean }> {
  const client = (on._.session as unknown as { client: { pipeline: boolean } }).client;
  const pipelinedNow = client.pipeline;
  const result = await on.execute<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`);
  return { pid: Number(result.rows[0]?.pid), pipelined: pipelinedNow };
}

describe('pipelined reads', () => {
  it('runs every read on one connection in pipeline mode and answers each in its place', async () => {
    const [first, changes, second, third] = await pipelined(pool, [
      whoAnswers,
      (on) => budgetChangelog(on, org.budget.id),
      whoAnswers,
      (on) => on.execute<{ n: number }>(sql`SELECT 3 AS n`).then((r) => r.rows[0]?.n),
    ]);
    expect(first.pipelined).toBe(true);
    expect(second).toEqual(first);
    expect(changes.every((change) => change.budget_id === org.budget.id)).toBe(true);
    expect(third).toBe(3);
    // Given back out of pipeline mode: a later caller gets a connection as the pool gave it.
    for (let i = 0; i < 2; i += 1) {
      const client = await pool.$client.connect();
      expect((client as unknown as { pipeline: boolean }).pipeline).toBe(false);
      client.release();
    }
  });

  it("writes the steps' first statements to the socket at once, in one write, and later ones as they come", async () => {
    // A pool of one connection, whose socket is watched.
    const single = connect(t.databaseUrl, { max: 1 });
    try {
      const writes = await watchSocketWrites(single);
      const budgetId = org.budget.id;
      const [answer, changes, later] = await pipelined(single, [
        whoAnswers,
        (on) => budgetChangelog(on, budgetId),
        // A step's second statement follows its first's answer, in a write of its own.
        async (on) => {
          await on.execute(sql`SELECT 1`);
          return on.execute<{ n: number }>(sql`SELECT 2 AS n`).then((r) => r.rows[0]?.n);
        },
      ]);
      expect(answer.pipelined).toBe(true);
      expect(changes.every((change) => change.budget_id === budgetId)).toBe(true);
      expect(later).toBe(2);
      // The three first statements in one write: two simple queries (one message each) and a
      // prepared one (parse, bind, describe, execute, sync); then the fourth in a write of its own.
      // Written as they came, they would be four writes.
      expect(writes).toEqual([7, 1]);
    } finally {
      await single.$client.end();
    }
  });

  it('fails with the first error only once every read has ended, and the connection goes on working', async () => {
    let lateRead = false;
    const attempt = pipelined(pool, [
      (on) => on.execute(sql`SELECT 1 / 0`),
      (on) =>
        on.execute(sql`SELECT pg_sleep(0.2)`).then(() => {
          lateRead = true;
        }),
    ]);
    // Drizzle's error, with PostgreSQL's as its cause: division_by_zero.
    await expect(attempt).rejects.toMatchObject({ cause: { code: '22012' } });
    expect(lateRead).toBe(true);
    // Both of the pool's connections still answer, one read after another and pipelined.
    const pids = await Promise.all([whoAnswers(pool), whoAnswers(pool)]);
    expect(pids.every((answer) => answer.pid > 0 && !answer.pipelined)).toBe(true);
    const [again] = await pipelined(pool, [whoAnswers]);
    expect(again.pipelined).toBe(true);
  });

  it('runs statements first built on a pipelined connection on the connection of each later call', async () => {
    // A pool of its own: its statements are built afresh, the first time inside pipelined(), on
    // the connection it took. Each later call must run them on its own connection (db/named.ts).
    const fresh = connect(t.databaseUrl, { max: 4 });
    try {
      const budgetId = org.budget.id;
      const timezone = t.context.config.orgTimezone;
      const detail = () =>
        pipelined(fresh, [
          (on) => budgetRequests(on, { budgetId, limit: 50 }),
          (on) => budgetChangelog(on, budgetId),
          (on) => budgetHistory(on, { budgetId, timezone }),
        ]);
      const first = await detail();
      const rounds = await Promise.all(Array.from({ length: 40 }, detail));
      for (const round of rounds) expect(round).toEqual(first);
      expect(await budgetHistory(fresh, { budgetId, timezone })).toEqual(first[2]);
    } finally {
      await fresh.$client.end();
    }
  });

  it('in a transaction, throws the error that aborted it, not a later statement refused for it', async () => {
    // The first read's second statement goes out after the second read's, which aborts the
    // transaction: the first read then fails too (25P02), after it.
    const attempt = pool.transaction((tx) =>
      pipelined(tx, [
        async (on) => {
          await on.execute(sql`SELECT 1`);
          return on.execute(sql`SELECT 2`);
        },
        (on) => on.execute(sql`SELECT 1 / 0`),
      ]),
    );
    await expect(attempt).rejects.toMatchObject({ cause: { code: '22012' } });
  });

  it("runs in a transaction on the transaction's connection and sees its uncommitted rows", async () => {
    await pool.transaction(async (tx) => {
      const own = await whoAnswers(tx);
      await tx.execute(sql`CREATE TEMP TABLE pipelined_seen (n int) ON COMMIT DROP`);
      await tx.execute(sql`INSERT INTO pipelined_seen VALUES (7)`);
      const [answer, seen] = await pipelined(tx, [
        whoAnswers,
        (on) => on.execute<{ n: number }>(sql`SELECT n FROM pipelined_seen`),
      ]);
      expect(answer).toEqual({ pid: own.pid, pipelined: true });
      expect(seen.rows).toEqual([{ n: 7 }]);
      // A transaction's connection stays in pipeline mode until it ends (db/transaction.ts).
      expect((await whoAnswers(tx)).pipelined).toBe(true);
    });
  });

  it('in a transaction, sends writes in the order of their steps, each after the rows written before it; a failure rolls every one back', async () => {
    await pool.execute(sql`CREATE TABLE pipelined_parent (id int PRIMARY KEY)`);
    await pool.execute(
      sql`CREATE TABLE pipelined_child (parent_id int NOT NULL REFERENCES pipelined_parent (id))`,
    );
    try {
      const count = (on: Executor) =>
        on
          .execute<{ parents: number; children: number }>(
            sql`SELECT (SELECT count(*)::int FROM pipelined_parent) AS parents,
                       (SELECT count(*)::int FROM pipelined_child) AS children`,
          )
          .then((result) => result.rows[0]);
      // The child's row needs its parent's (the foreign key): written one step before it.
      const [, , written] = await pool.transaction((tx) =>
        pipelined(tx, [
          (on) => on.execute(sql`INSERT INTO pipelined_parent VALUES (1)`),
          (on) => on.execute(sql`INSERT INTO pipelined_child VALUES (1)`),
          count,
        ]),
      );
      expect(written).toEqual({ parents: 1, children: 1 });

      const attempt = pool.transaction((tx) =>
        pipelined(tx, [
          (on) => on.execute(sql`INSERT INTO pipelined_parent VALUES (2)`),
          (on) => on.execute(sql`INSERT INTO pipelined_child VALUES (2)`),
          (on) => on.execute(sql`INSERT INTO pipelined_parent VALUES (1)`),
          (on) => on.execute(sql`INSERT INTO pipelined_child VALUES (2)`),
        ]),
      );
      // unique_violation: the third step's; the first two are rolled back with it.
      await expect(attempt).rejects.toMatchObject({ cause: { code: '23505' } });
      expect(await count(pool)).toEqual({ parents: 1, children: 1 });
    } finally {
      await pool.execute(sql`DROP TABLE pipelined_child, pipelined_parent`);
    }
  });
});
