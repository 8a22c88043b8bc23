import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { watchSocketWrites } from '../../test/socket-writes.ts';
import { connect, type Database, type Executor } from './client.ts';
import { pipelined } from './pipelined.ts';
import { commitWith } from './transaction.ts';

// Issue 13: a transaction's BEGIN goes out with its first statements, and its COMMIT may go out
// with its last writes (db/transaction.ts, decision 0052).

let t: TestApp;
/** A pool of one connection: every test's statements share it, so a broken one would show. */
let single: Database;
let writes: number[];

beforeAll(async () => {
  t = await createTestApp();
  single = connect(t.databaseUrl, { max: 1 });
  writes = await watchSocketWrites(single);
  await single.execute(sql`CREATE TABLE transaction_rows (n int PRIMARY KEY)`);
});

afterAll(async () => {
  await single.execute(sql`DROP TABLE transaction_rows`);
  await single.$client.end();
});

beforeEach(async () => {
  await single.execute(sql`TRUNCATE transaction_rows`);
  writes.length = 0;
});

afterEach(async () => {
  // Whatever happened, the connection is back in the pool out of any transaction and pipeline
  // mode, and answers the next caller.
  const client = await single.$client.connect();
  try {
    expect((client as unknown as { pipeline: boolean }).pipeline).toBe(false);
    await client.query('SELECT 1');
    // The status of PostgreSQL's last ReadyForQuery, as pg keeps it: I, idle (not T or E).
    expect((client as unknown as { _txStatus: string })._txStatus).toBe('I');
  } finally {
    client.release();
  }
});

const insert = (n: number) => (on: Executor) =>
  on.execute(sql`INSERT INTO transaction_rows VALUES (${n})`);

async function rows(): Promise<number[]> {
  const result = await single.execute<{ n: number }>(
    sql`SELECT n FROM transaction_rows ORDER BY n`,
  );
  return result.rows.map((row) => row.n);
}

describe('a transaction of our own', () => {
  it('writes its BEGIN with the first statement, commits when the work ends, and answers its result', async () => {
    const answer = await single.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      await insert(1)(tx);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await rows()).toEqual([1]);
    // BEGIN and SELECT 1 (simple queries, one message each) in one write; the INSERT (parse,
    // bind, describe, execute, sync); the COMMIT. Drizzle's own sent BEGIN alone: [1, 1, 5, 1].
    expect(writes.slice(0, 3)).toEqual([2, 5, 1]);
  });

  it('rolls back when the work throws, and throws its error', async () => {
    const attempt = single.transaction(async (tx) => {
      await insert(1)(tx);
      throw new Error('changed my mind');
    });
    await expect(attempt).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([]);
  });

  it('fails when a statement failed and the work carried on: PostgreSQL rolled it back', async () => {
    const attempt = single.transaction(async (tx) => {
      await insert(1)(tx);
      await tx.execute(sql`SELECT 1 / 0`).catch(() => undefined);
    });
    await expect(attempt).rejects.toThrow('the transaction was rolled back at its end (ROLLBACK)');
    expect(await rows()).toEqual([]);
  });

  it("begins with Drizzle's options, in the same write", async () => {
    const level = await single.transaction(
      async (tx) => {
        const result = await tx.execute<{ level: string }>(
          sql`SELECT current_setting('transaction_isolation') AS level`,
        );
        return result.rows[0]?.level;
      },
      { isolationLevel: 'serializable', accessMode: 'read only' },
    );
    expect(level).toBe('serializable');
    expect(writes.slice(0, 2)).toEqual([2, 1]);
  });

  it('still runs a savepoint inside it', async () => {
    await single.transaction(async (tx) => {
      await insert(1)(tx);
      await expect(
        tx.transaction(async (inner) => {
          await insert(2)(inner);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      await insert(3)(tx);
    });
    expect(await rows()).toEqual([1, 3]);
  });
});

describe('commitWith', () => {
  it('writes the COMMIT with the last steps, in the same write, and answers theirs', async () => {
    const [, , count] = await single.transaction(async (tx) => {
      await insert(1)(tx);
      writes.length = 0;
      return commitWith(tx, [
        insert(2),
        insert(3),
        (on) =>
          on
            .execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM transaction_rows`)
            .then((result) => result.rows[0]?.count),
      ]);
    });
    expect(count).toBe(3);
    // Two INSERTs (five messages each), the SELECT and the COMMIT, in one write.
    expect(writes).toEqual([12]);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it("rolls everything back when a step fails, and throws that step's error", async () => {
    const attempt = single.transaction(async (tx) => {
      await insert(1)(tx);
      return commitWith(tx, [insert(2), insert(1), insert(3)]);
    });
    // unique_violation: the second step's.
    await expect(attempt).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(await rows()).toEqual([]);
  });

  it('rolls back, rather than commit the others, when a step fails before its statements go out', async () => {
    const attempt = single.transaction(async (tx) => {
      await insert(1)(tx);
      return commitWith(tx, [
        insert(2),
        // An e-mail that cannot be rendered, say: it fails in the server, sending nothing.
        async () => {
          await Promise.resolve();
          throw new Error('nothing to send');
        },
        insert(3),
      ]);
    });
    await expect(attempt).rejects.toThrow('nothing to send');
    expect(await rows()).toEqual([]);
  });

  it('refuses a statement a step sends after its first answer: it would come after the COMMIT', async () => {
    const attempt = single.transaction(async (tx) =>
      commitWith(tx, [
        insert(1),
        async (on) => {
          await insert(2)(on);
          await insert(3)(on);
        },
      ]),
    );
    // Drizzle's error, with the refusal as its cause.
    await expect(attempt).rejects.toMatchObject({
      cause: { message: 'a statement was sent after its transaction ended (commitWith)' },
    });
    // The statements sent with the COMMIT were committed; the late one never ran.
    expect(await rows()).toEqual([1, 2]);
  });

  it('sends `first` before the steps, in the same write, and throws its error before theirs', async () => {
    const first = (n: number) => ({
      toSQL: () => ({ sql: 'INSERT INTO transaction_rows VALUES ($1)', params: [n] }),
    });
    const [seen] = await single.transaction(async (tx) => {
      await insert(1)(tx);
      writes.length = 0;
      return commitWith(
        tx,
        [
          (on) =>
            on
              .execute<{ n: number }>(sql`SELECT max(n) AS n FROM transaction_rows`)
              .then((result) => result.rows[0]?.n),
          insert(3),
        ],
        { first: first(2) },
      );
    });
    // The step's SELECT, sent as the first step, ran after `first`'s INSERT.
    expect(seen).toBe(2);
    expect(writes).toHaveLength(1);
    expect(await rows()).toEqual([1, 2, 3]);

    const attempt = single.transaction(async (tx) => {
      await insert(4)(tx);
      return commitWith(tx, [insert(5)], { first: first(4) });
    });
    // unique_violation: `first`'s, not the aborted step's.
    await expect(attempt).rejects.toMatchObject({ code: '23505' });
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('belongs to a running transaction only', async () => {
    await expect(commitWith(single, [insert(1)])).rejects.toThrow(
      'commitWith() ends a running transaction of its own',
    );
    const twice = single.transaction(async (tx) => {
      await commitWith(tx, [insert(1)]);
      return commitWith(tx, [insert(2)]);
    });
    await expect(twice).rejects.toThrow('commitWith() ends a running transaction of its own');
    expect(await rows()).toEqual([1]);
  });

  it('leaves the connection in pipeline mode while the transaction runs, and sees its own rows', async () => {
    await single.transaction(async (tx) => {
      await insert(1)(tx);
      const [seen] = await pipelined(tx, [
        (on) => on.execute<{ n: number }>(sql`SELECT n FROM transaction_rows`),
      ]);
      expect(seen.rows).toEqual([{ n: 1 }]);
      await commitWith(tx, [insert(2)]);
    });
    expect(await rows()).toEqual([1, 2]);
  });
});
