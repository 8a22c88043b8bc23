/**
 * The load benchmark's CPU accounting (load.ts): the cores the server (its workers included) and
 * PostgreSQL's backends used while a call was driven, read from /proc, to tell which of them limits
 * the call; and how many backends waited on a lock meanwhile.
 */
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { CpuShare } from './load-report.ts';

const clockTicks = 100;

async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / clockTicks;
}

/**
 * CPU seconds of a process and of the processes it started (a server's node:cluster workers), as
 * they run: a worker's time reaches its primary's own figures only once it has ended.
 */
async function treeCpuSecondsOf(pid: number): Promise<number> {
  const children = await fs
    .readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .catch(() => '')
    .then((text) => text.split(' ').filter(Boolean).map(Number));
  const theirs = await Promise.all(children.map(treeCpuSecondsOf));
  return theirs.reduce((sum, seconds) => sum + seconds, await cpuSecondsOf(pid));
}

/** CPU seconds of each process called postgres (the server's backends), by pid. */
async function postgresCpuSeconds(): Promise<Map<number, number>> {
  const seconds = new Map<number, number>();
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const comm = await fs.readFile(`/proc/${name}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === 'postgres') seconds.set(Number(name), await cpuSecondsOf(Number(name)));
  }
  return seconds;
}

/**
 * CPU seconds PostgreSQL spent between two readings: per backend, so one that ended meanwhile
 * (the driver's idle clients) does not subtract its whole life; what it spent before ending is lost.
 */
function postgresCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}

/**
 * Runs `body` and answers the cores each side used meanwhile (1.0 = one core busy); given a
 * database, also how many of its backends waited on a lock, on average (lockWaiters).
 */
export async function measureCpu<T>(
  serverPid: number,
  body: () => Promise<T>,
  lockWatch?: string,
): Promise<{ value: T; cpu: CpuShare }> {
  const [server0, postgres0, bench0, at0] = [
    await treeCpuSecondsOf(serverPid),
    await postgresCpuSeconds(),
    process.cpuUsage(),
    performance.now(),
  ];
  const waits = lockWatch ? await watchLockWaits(lockWatch) : undefined;
  let value: T;
  let lockWaiters: number | undefined;
  try {
    value = await body();
  } finally {
    lockWaiters = await waits?.stop();
  }
  const seconds = (performance.now() - at0) / 1000;
  const bench = process.cpuUsage(bench0);
  return {
    value,
    cpu: {
      server: ((await treeCpuSecondsOf(serverPid)) - server0) / seconds,
      postgres: postgresCpuBetween(postgres0, await postgresCpuSeconds()) / seconds,
      bench: (bench.user + bench.system) / 1e6 / seconds,
      ...(lockWaiters === undefined ? {} : { lockWaiters }),
    },
  };
}

/**
 * Counts the database's backends waiting on a lock (pg_stat_activity's wait_event_type 'Lock': a
 * row's, a transaction's) every 20 ms, on a connection of its own, until stopped; `stop()`
 * answers the mean. The writes of one organisation's final approvals queue on its approval
 * sequence row (decision 0022): this shows how many calls stood in that queue.
 */
async function watchLockWaits(databaseUrl: string): Promise<{ stop: () => Promise<number> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let samples = 0;
  let total = 0;
  let watching = true;
  const sampling = (async () => {
    while (watching) {
      const { rows } = await client.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      total += rows[0]?.waiting ?? 0;
      samples += 1;
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await sampling.finally(() => client.end());
      return samples > 0 ? total / samples : 0;
    },
  };
}
