/**
 * Load benchmark (issue 13, "Performance under load"): `npm run bench:load`.
 *
 * 1. Seeds a large organisation straight through SQL (seed-load.ts: 10,000 users, 10,000 budgets,
 *    1,000,000 requests with their reviews, 100,000 retirements); BENCH_SCALE=0.01 shrinks it all.
 * 2. Starts the production server as `npm start` does (the bundle, `node <node-flags.json>
 *    apps/server/dist/main.js`, docs/decisions/0020), DATABASE_URL on the seeded database,
 *    LOG_LEVEL=warn, 127.0.0.1, and waits for /readyz.
 * 3. Drives every read call of the product with autocannon, 50 connections for BENCH_DURATION
 *    seconds each (default 10), then the writes (submit a request, answer a review, submit a
 *    retirement), each call a distinct valid body or target; any non-2xx answer is an error.
 * 4. For each read, replays straight through `pg` (a pool of 50 clients, prepared statements, the
 *    same duration) the SELECT statements the app sends for that call — captured once from the app
 *    itself through Drizzle's logger, so the SQL is exactly the app's (the main query plus the
 *    session lookup and counts that go with it) — and reports API req/s ÷ driver calls/s. The same
 *    statements go to a server of Fastify and `pg` alone (bare-server.ts) under the same load: the
 *    floor of an HTTP call on this machine for that SQL, reported as "bare" and API ÷ bare.
 * 5. After the writes, checks that each touched budget's committed amount equals
 *    budget_committed_recomputed(id): "ledger exact".
 * 6. Prints a markdown table against the targets and writes it to bench/results.md.
 *
 * Sign-in runs behind TRUST_PROXY=loopback with a distinct X-Forwarded-For per call, as many people
 * behind one proxy: otherwise the per-address limit (600 per 15 minutes) answers 429 after a second.
 * The retirement owners' tokens (thousands of people) are opened as sign-in opens them
 * (startSession + signToken with the server's JWT_SECRET); everyone else signs in through the API.
 * The database and the server are removed on exit, also on SIGINT/SIGTERM.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { todayIn } from '@imprest/domain/requests.ts';
import autocannon from 'autocannon';
import pg from 'pg';
import type { Database } from '../src/db/client.ts';
import { parseWebConcurrency } from '../src/config.ts';
import { startSession } from '../src/features/auth/session.ts';
import { signToken } from '../src/features/auth/tokens.ts';
import { databasePoolSize } from '../src/server.ts';
import {
  startRedis,
  startServerProcess,
  stopAllProcesses,
  type ServerProcess,
} from '../test/processes.ts';
import { loadPassword, loadShape, seedLoadOrganisation } from './seed-load.ts';
import {
  buildBenchApp,
  config,
  log,
  nodeArgsFrom,
  secondsSince,
  withDatabase,
  type BenchUser,
  statementRecorder,
  type Statement,
} from './support.ts';
import { repoRoot } from '../src/paths.ts';
import { formatReport, targets, type CpuShare, type Load, type Row } from './load-report.ts';

const scale = Number(process.env.BENCH_SCALE ?? '1');
const durationSeconds = Number(process.env.BENCH_DURATION ?? '10');
if (!(scale > 0 && scale <= 1)) throw new Error('BENCH_SCALE must be in (0, 1]');
if (!(durationSeconds >= 1 && durationSeconds <= 120)) {
  throw new Error('BENCH_DURATION must be 1 to 120 seconds');
}
const connections = 50;
/** BENCH_CALLS: a regular expression; only the calls whose name matches it run (all by default). */
const callFilter = new RegExp(process.env.BENCH_CALLS ?? '', 'i');
const compareEntry = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : null;
/**
 * BENCH_LOG_LEVEL: the servers' LOG_LEVEL, warn by default (no line a call); `info`, as `npm start`
 * runs, writes a line a call to a file, as a log collector takes a process's output.
 * BENCH_COMPARE_LOG_LEVEL: the baseline's, when it should differ (the cost of the lines themselves).
 */
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const logLevel = process.env.BENCH_LOG_LEVEL || 'warn';
const compareLogLevel = process.env.BENCH_COMPARE_LOG_LEVEL || logLevel;
for (const level of [logLevel, compareLogLevel]) {
  if (!logLevels.includes(level)) throw new Error(`BENCH_LOG_LEVEL must be one of ${logLevels}`);
}
/**
 * BENCH_WEB_CONCURRENCY: this build's server processes, as WEB_CONCURRENCY takes them (a number, or
 * auto; docs/decisions/0016), 1 by default; above 1 they share a Redis, as in production (REDIS_URL,
 * or a redis-server of the run's own). BENCH_COMPARE_WEB_CONCURRENCY: the baseline's, the same by
 * default, so a build can be set beside itself in another number of processes.
 */
function processCount(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return fallback;
  // Read as the server reads WEB_CONCURRENCY: 1 to maxWebConcurrency, or auto.
  try {
    return parseWebConcurrency(value);
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  }
}
const webConcurrency = processCount('BENCH_WEB_CONCURRENCY', 1);
const compareWebConcurrency = processCount('BENCH_COMPARE_WEB_CONCURRENCY', webConcurrency);
/**
 * BENCH_ROUNDS: with BENCH_COMPARE, each call's time is cut into this many rounds, and the two builds
 * take turns within each round, the one that went second going first in the next. A machine whose
 * speed drifts within a minute (seen: ±15 %) then meets both builds alike; with one round, each
 * build has the call's whole time, one after the other. 1 by default.
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? '1');
if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= 20)) {
  throw new Error('BENCH_ROUNDS must be a whole number from 1 to 20');
}
/** Distinct targets prepared for each write: enough for the target rate, with room. */
const writeTargets = Math.ceil(targets.writeRate * durationSeconds * 1.5);
const seedTargetSeconds = 180;
const resultsFile = path.join(repoRoot, 'bench', 'results.md');
const analysisHeading = '## What limits it';

// ---------------------------------------------------------------------------------------------
// CPU of the server and of PostgreSQL, from /proc, to tell which of them limits a call

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
async function measureCpu<T>(
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

// ---------------------------------------------------------------------------------------------
// HTTP load (autocannon) and the driver loop (pg)

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

type Shot = {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string;
};

/**
 * 50 connections for the duration, or until `next` has no more distinct calls to give. Latency
 * percentiles come from every response's time (autocannon's own histogram stops at p97.5 / p99).
 */
async function hammer(
  url: string,
  shot: Shot,
  next?: (i: number) => Partial<Shot> | null,
  amount?: number,
  seconds = durationSeconds,
): Promise<Slice> {
  const latencies: number[] = [];
  let counter = 0;
  let firstError: string | undefined;
  const headers = { 'content-type': 'application/json', ...shot.headers };
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url,
        connections: amount ? Math.max(1, Math.min(connections, amount)) : connections,
        ...(amount ? { amount } : { duration: seconds }),
        timeout: 30,
        requests: [
          {
            method: shot.method,
            path: `/api/v1/${shot.path}`,
            headers,
            ...(shot.body ? { body: shot.body } : {}),
            ...(next
              ? {
                  setupRequest: (request) => {
                    const change = next(counter);
                    counter += 1;
                    if (!change) return request;
                    return {
                      ...request,
                      ...(change.path ? { path: `/api/v1/${change.path}` } : {}),
                      ...(change.body ? { body: change.body } : {}),
                      headers: { ...headers, ...change.headers },
                    };
                  },
                }
              : {}),
            onResponse: (status, body) => {
              if ((status < 200 || status >= 300) && !firstError) {
                firstError = `${status} ${body.slice(0, 300)}`;
              }
            },
          },
        ],
      },
      (error, result) => (error ? reject(error as Error) : resolve(result)),
    );
  });
  // The rate's time is the first call's start to the last answer: autocannon ends a run only on
  // its next one-second tick, so its own duration rounds a run that runs out of targets (one
  // organisation's final approvals) up to whole seconds.
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  instance?.on('response', (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
    lastAnswerAt = performance.now();
  });
  // With a count of distinct targets, autocannon ignores the duration: stop it ourselves.
  const timer = amount ? setTimeout(() => instance?.stop(), seconds * 1000) : undefined;
  const result = await finished;
  clearTimeout(timer);
  return {
    latencies,
    seconds: Math.max(lastAnswerAt - startedAt, 1) / 1000,
    errors: result.non2xx + result.errors + result.timeouts,
    ...(firstError ? { firstError } : {}),
  };
}

/** One stretch of load on one build: every answer's time, how long it lasted, what failed. */
type Slice = { latencies: number[]; seconds: number; errors: number; firstError?: string };

/** A stretch of load with the cores each side used meanwhile. */
type Measured = { value: Slice; cpu: CpuShare };

/** The load of one or more stretches on one build, as one: its rate over their time together. */
function loadOf(slices: Slice[]): Load & { firstError?: string } {
  const latencies = slices.flatMap((slice) => slice.latencies).sort((a, b) => a - b);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const firstError = slices.find((slice) => slice.firstError)?.firstError;
  return {
    rate: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    count: latencies.length,
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
    ...(firstError ? { firstError } : {}),
  };
}

/** Stretches measured with measureCpu, as one: the cores weighed by each stretch's time. */
function merged(measured: Measured[]): { value: Load & { firstError?: string }; cpu: CpuShare } {
  const seconds = measured.reduce((sum, part) => sum + part.value.seconds, 0);
  const share = (side: keyof CpuShare) =>
    measured.reduce((sum, part) => sum + (part.cpu[side] ?? 0) * part.value.seconds, 0) / seconds;
  const isWatched = measured.every((part) => part.cpu.lockWaiters !== undefined);
  return {
    value: loadOf(measured.map((part) => part.value)),
    cpu: {
      server: share('server'),
      postgres: share('postgres'),
      bench: share('bench'),
      ...(isWatched ? { lockWaiters: share('lockWaiters') } : {}),
    },
  };
}

/**
 * Drives a call against this build and, with BENCH_COMPARE, the baseline, in BENCH_ROUNDS rounds
 * of equal time, the builds taking turns (see `rounds`); `baselineFirst` says who opens round one.
 */
async function takingTurns(
  builds: { server: ServerProcess; baseline: ServerProcess | null },
  baselineFirst: boolean,
  stretch: (target: ServerProcess, seconds: number) => Promise<Measured>,
): Promise<{
  server: ReturnType<typeof merged>;
  baseline?: ReturnType<typeof merged>;
}> {
  const { server, baseline } = builds;
  const turns = baseline ? rounds : 1;
  const seconds = durationSeconds / turns;
  const ours: Measured[] = [];
  const theirs: Measured[] = [];
  for (let round = 0; round < turns; round += 1) {
    const theirsFirst = baseline !== null && (round % 2 === 0) === baselineFirst;
    if (baseline && theirsFirst) theirs.push(await stretch(baseline, seconds));
    ours.push(await stretch(server, seconds));
    if (baseline && !theirsFirst) theirs.push(await stretch(baseline, seconds));
  }
  return { server: merged(ours), ...(theirs.length > 0 ? { baseline: merged(theirs) } : {}) };
}

const statementNames = new Map<string, string>();

/** The SELECTs a call sent (set_config too, so a search's planner settings apply), to replay. */
function replayable(statements: Statement[]): { statements: Statement[]; inTransaction: boolean } {
  const selected = statements.filter(
    (statement) =>
      /^\s*(select|with)\b/i.test(statement.query) && !/for (update|share)/i.test(statement.query),
  );
  return {
    statements: selected,
    inTransaction: selected.some((statement) => /set_config\(/i.test(statement.query)),
  };
}

/** 50 clients replaying a call's statements as prepared statements, for the duration. */
async function drive(
  pool: pg.Pool,
  statements: Statement[],
  inTransaction: boolean,
): Promise<Load> {
  const deadline = performance.now() + durationSeconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const startedAt = performance.now();
  const worker = async () => {
    const client = await pool.connect();
    try {
      // Bounded twice: by the deadline, and by a count no run reaches.
      for (let i = 0; i < 1_000_000 && performance.now() < deadline; i += 1) {
        const at = performance.now();
        try {
          if (inTransaction) await client.query('BEGIN');
          for (const statement of statements) {
            let name = statementNames.get(statement.query);
            if (!name) {
              name = `load_${statementNames.size}`;
              statementNames.set(statement.query, name);
            }
            await client.query({ name, text: statement.query, values: statement.params });
          }
          if (inTransaction) await client.query('COMMIT');
        } catch {
          errors += 1;
          if (inTransaction) await client.query('ROLLBACK').catch(() => undefined);
        }
        latencies.push(performance.now() - at);
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rate: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    count: latencies.length,
    errors,
  };
}

/**
 * The bare server (bare-server.ts): Fastify and `pg` alone on the load's database, with a pool of
 * the app's size, on a loopback port of its own, started as the app is.
 */
async function startBareServer(databaseUrl: string): Promise<ServerProcess> {
  // The app's node flags and environment (startServerProcess), with the bare server as the entry.
  const started = await startServerProcess({
    name: 'bare server',
    entry: path.join(repoRoot, 'apps', 'server', 'bench', 'bare-server.ts'),
    nodeArgs: ['--import', 'tsx'],
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      POOL_SIZE: String(databasePoolSize(1)),
    },
    ready: (line, pid) => line.msg === 'bare server ready' && line.pid === pid,
  });
  log(`bare server ${started.pid} ready at ${started.url}`);
  return started;
}

/** A read's statements sent by the bare server: 50 connections for the duration, after a warm-up. */
async function measureBare(
  bare: ServerProcess,
  replay: { statements: Statement[]; inTransaction: boolean },
): Promise<Load> {
  const response = await fetch(`${bare.url}/calls`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replay),
  });
  const { id } = (await response.json()) as { id: number };
  const shot: Shot = { method: 'GET', path: `calls/${id}`, headers: {} };
  await hammer(bare.url, shot, undefined, undefined, 1);
  return loadOf([await hammer(bare.url, shot)]);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const startedAt = performance.now();
  const shape = loadShape(scale);
  const { queryLogger, capture } = statementRecorder();
  await withDatabase(
    async (db) => {
      log(
        `seeding ${shape.organizations} organisations: ${shape.organizations * (shape.staffPerOrganization + 5)} users, ${shape.organizations * shape.budgetsPerOrganization} budgets, ${shape.requests} requests, ${shape.retirements} retirements…`,
      );
      const seedStartedAt = performance.now();
      const client = await db.$client.connect();
      try {
        await seedLoadOrganisation(client, shape);
      } finally {
        client.release();
      }
      const seedSeconds = (performance.now() - seedStartedAt) / 1000;
      const [counts] = (
        await db.$client.query<Record<string, number>>(
          `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM budgets)::int AS budgets,
                  (SELECT count(*) FROM requests)::int AS requests, (SELECT count(*) FROM reviews)::int AS reviews,
                  (SELECT count(*) FROM retirements)::int AS retirements,
                  pg_size_pretty(pg_database_size(current_database())) AS size`,
        )
      ).rows;
      const seeded = `${counts?.users} users, ${counts?.budgets} budgets, ${counts?.requests} requests, ${counts?.reviews} reviews, ${counts?.retirements} retirements (${counts?.size})`;
      log(`seeded ${seeded} in ${seedSeconds.toFixed(0)} s`);
      await benchmark(db, {
        seeded,
        seedSeconds,
        capture,
      });
      log(`total ${secondsSince(startedAt)}`);
    },
    { queryLogger },
  );
}

async function benchmark(
  db: Database,
  options: {
    seeded: string;
    seedSeconds: number;
    capture: (body: () => Promise<unknown>) => Promise<Statement[]>;
  },
): Promise<void> {
  const databaseUrl = (db.$client as pg.Pool).options.connectionString;
  if (!databaseUrl) throw new Error('no database URL');
  const query = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
    (await db.$client.query<T>(text, params)).rows;

  const [version] = await query<{ server_version: string }>(`SHOW server_version`);
  machine.postgres = `PostgreSQL ${version?.server_version ?? '?'} (${config.databaseUrl ? 'DATABASE_URL' : 'embedded'})`;

  // The people of organisation 0 the reads act as, and its big budget (budget 0).
  const [organization] = await query<{ id: string }>(
    `SELECT id FROM organizations WHERE name = 'Bench org 0'`,
  );
  if (!organization) throw new Error('no organisation');
  const userOf = async (where: string, params: unknown[] = []) => {
    const [user] = await query<BenchUser & { email: string; fullname: string }>(
      `SELECT id, organization_id, email, fullname FROM users
       WHERE organization_id = $1 AND ${where} ORDER BY email LIMIT 1`,
      [organization.id, ...params],
    );
    if (!user) throw new Error(`no user where ${where}`);
    return user;
  };
  const staff = await userOf(`email = $2`, ['staff7.0@bench.test']);
  const finance = await userOf(`role = 'finance_officer'`);
  const budgetRows = await query<{ code: string }>(
    `SELECT code FROM budgets WHERE organization_id = $1 ORDER BY amount DESC LIMIT 2`,
    [organization.id],
  );
  const bigBudget = budgetRows[0]?.code ?? '';
  // Submissions go to the 50 budgets of organisation 0 with the most room, in turn: one budget
  // would serialise every submission on its row lock.
  const submitBudgets = await query<{ id: string; code: string }>(
    `SELECT id, code FROM budgets WHERE organization_id = $1 ORDER BY amount - committed DESC LIMIT 50`,
    [organization.id],
  );
  const someBudget = budgetRows[1]?.code ?? bigBudget;
  const [oneRequest] = await query<{ id: string }>(
    `SELECT id FROM requests WHERE request_owner_id = $1 AND is_latest ORDER BY created_at DESC LIMIT 1`,
    [staff.id],
  );
  if (!oneRequest) throw new Error('the staff member has no request');
  const signInEmails = (
    await query<{ email: string }>(
      `SELECT email FROM users WHERE role = 'staff' ORDER BY email LIMIT 5000`,
    )
  ).map((row) => row.email);

  // Review targets: the first pending review of requests waiting for review, any organisation.
  const reviewTargets = await query<{
    request_id: string;
    review_id: string;
    organization_id: string;
    role: string;
  }>(
    `SELECT r.id AS request_id, v.id AS review_id, r.organization_id, v.reviewer_role AS role
     FROM requests r
     CROSS JOIN LATERAL (SELECT id, reviewer_role FROM reviews
                         WHERE request_id = r.id AND status = 'pending' ORDER BY step LIMIT 1) v
     WHERE r.is_latest AND r.current_status IN ('pending', 'on_progress')
     ORDER BY md5(r.id::text) LIMIT ${writeTargets}`,
  );
  // Final approvals of one organisation: the first pending review is the request's last, so each
  // answer takes the organisation's approval number (its row in approval_sequences, held to the
  // commit). They measure how final approvals in one organisation wait for one another.
  const finalTargets = await query<(typeof reviewTargets)[number]>(
    `SELECT r.id AS request_id, v.id AS review_id, r.organization_id, v.reviewer_role AS role
     FROM requests r
     CROSS JOIN LATERAL (SELECT id, reviewer_role, step FROM reviews
                         WHERE request_id = r.id AND status = 'pending' ORDER BY step LIMIT 1) v
     WHERE r.organization_id = $1 AND r.is_latest AND r.current_status IN ('pending', 'on_progress')
       AND NOT EXISTS (SELECT 1 FROM reviews w WHERE w.request_id = r.id AND w.step > v.step)
     ORDER BY md5(r.id::text) LIMIT ${writeTargets * 2}`,
    [organization.id],
  );
  const retirementTargets = await query<{
    id: string;
    owner: BenchUser;
    amount_received: string;
    budget_id: string;
  }>(
    `SELECT t.id, json_build_object('id', t.retirement_owner_id, 'organization_id', t.organization_id) AS owner,
            t.amount_received, t.budget_id
     FROM retirements t WHERE t.status = 'pending'
     ORDER BY md5(t.id::text) LIMIT ${writeTargets}`,
  );
  // The two kinds of review target are apart: a request answered by one is not the other's.
  const finalIds = new Set(finalTargets.map((target) => target.request_id));
  reviewTargets.splice(
    0,
    reviewTargets.length,
    ...reviewTargets.filter((target) => !finalIds.has(target.request_id)),
  );
  log(
    `${reviewTargets.length} review targets, ${finalTargets.length} final approvals, ${retirementTargets.length} retirement targets`,
  );
  // One of each kept aside: the in-process app answers it once to count the write's statements.
  const reviewTarget = reviewTargets.pop();
  const finalTarget = finalTargets.pop();
  const retirementTarget = retirementTargets.pop();

  // The statements the app sends for each read, captured once from an in-process app.
  const bench = await buildBenchApp(db);
  const inProcessHeaders = {
    staff: await bench.authHeaders(staff),
    finance: await bench.authHeaders(finance),
  };

  // The production server, as `npm start` runs it.
  const jwtSecret = randomBytes(32).toString('hex');
  const logDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-bench-logs-'));
  const jwtKey = new TextEncoder().encode(jwtSecret);
  // Several processes of a build share a Redis, as in production (decision 0016).
  const redis =
    Math.max(webConcurrency, compareEntry ? compareWebConcurrency : 1) > 1
      ? await startRedis()
      : undefined;
  const startLoadServer = async (
    name: string,
    entry?: string,
    url = databaseUrl,
  ): Promise<ServerProcess> => {
    log(`starting the ${name}…`);
    const level = entry ? compareLogLevel : logLevel;
    const processes = entry ? compareWebConcurrency : webConcurrency;
    const outputFile = path.join(logDirectory, `${entry ? 'baseline' : 'server'}.log`);
    const started = await startServerProcess({
      name,
      env: {
        DATABASE_URL: url,
        LOG_LEVEL: level,
        JWT_SECRET: jwtSecret,
        TRUST_PROXY: 'loopback',
        NODE_ENV: 'production',
        ORG_TIMEZONE: config.orgTimezone,
        ...(processes > 1 && redis
          ? { WEB_CONCURRENCY: String(processes), REDIS_URL: redis.url }
          : {}),
      },
      // BENCH_SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`, to profile the server;
      // BENCH_COMPARE_NODE_ARGS for the baseline's, when they should differ (the same by default).
      nodeArgs:
        (entry ? nodeArgsFrom('BENCH_COMPARE_NODE_ARGS') : undefined) ??
        nodeArgsFrom('BENCH_SERVER_NODE_ARGS') ??
        [],
      ...(entry ? { entry } : {}),
      ...(level === 'warn' ? {} : { outputFile }),
      ready: null,
    });
    const readyDeadline = Date.now() + 120_000;
    for (;;) {
      const ready = await fetch(`${started.url}/readyz`).catch(() => null);
      if (ready?.status === 200) break;
      if (Date.now() > readyDeadline || !started.isRunning()) {
        throw new Error(`the ${name} did not become ready:\n${started.tail()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    log(
      `${name} ${started.pid} ready at ${started.url}, LOG_LEVEL=${level}, ${processes} process${processes > 1 ? 'es' : ''}`,
    );
    return started;
  };
  const server = await startLoadServer('load server');
  // BENCH_COMPARE: another build's dist/main.js (e.g. a checkout of the previous commit), served on
  // the same database, the same way, and driven right before or after this build, call by call.
  // BENCH_COMPARE_OVER_TCP=1 makes the baseline reach the embedded database over TCP, as builds
  // before the Unix socket (17690a2) did; otherwise it takes the same URL, socket included. (Until
  // 2026-11-28 it always took TCP, which cost it about a third more CPU a statement: comparisons
  // of two builds that both had the socket favoured this build; bench/results.md.)
  const baselineUrl = new URL(databaseUrl);
  if (process.env.BENCH_COMPARE_OVER_TCP === '1') baselineUrl.searchParams.delete('host');
  const baseline = compareEntry
    ? await startLoadServer('baseline server', compareEntry, baselineUrl.toString())
    : null;
  const bare = await startBareServer(databaseUrl);

  let forwardedFor = 0;
  const nextAddress = () => {
    forwardedFor += 1;
    return `10.${(forwardedFor >> 16) & 255}.${(forwardedFor >> 8) & 255}.${forwardedFor & 255}`;
  };
  const signIn = async (email: string) => {
    const response = await fetch(`${server.url}/api/v1/users/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
      body: JSON.stringify({ email, password: loadPassword }),
    });
    if (response.status !== 200) {
      throw new Error(`sign-in of ${email} answered ${response.status}: ${await response.text()}`);
    }
    const { token } = (await response.json()) as { token: string };
    return { authorization: `Bearer ${token}` };
  };
  const staffHeaders = await signIn(staff.email);
  const financeHeaders = await signIn(finance.email);
  const submitters = await Promise.all(
    (
      await query<{ email: string }>(
        `SELECT email FROM users WHERE organization_id = $1 AND role = 'staff' ORDER BY email LIMIT 10`,
        [organization.id],
      )
    ).map((row) => signIn(row.email)),
  );
  const reviewerHeaders = new Map<string, Record<string, string>>();
  for (const row of await query<{ organization_id: string; role: string; email: string }>(
    `SELECT organization_id, role, email FROM users WHERE role IN ('finance_officer', 'executive_secretary', 'director')`,
  )) {
    reviewerHeaders.set(`${row.organization_id} ${row.role}`, await signIn(row.email));
  }
  // Thousands of retirement owners: their sessions opened directly, as sign-in opens them.
  const ownerHeaders = new Map<string, Record<string, string>>();
  for (const target of retirementTargets) {
    if (ownerHeaders.has(target.owner.id)) continue;
    const session = await startSession(db, target.owner.id);
    const token = signToken(
      jwtKey,
      { sub: target.owner.id, org: target.owner.organization_id, sid: session.id },
      session.expiresAt,
    );
    ownerHeaders.set(target.owner.id, { authorization: `Bearer ${token}` });
  }
  log(`signed in; ${ownerHeaders.size} retirement owners' sessions opened`);

  const admin = `requests/finance_officer/${finance.id}?page=1&per_page=10`;
  type Read = {
    name: string;
    shot: Shot;
    as: 'staff' | 'finance' | null;
    note?: string;
    design?: Row['design'];
  };
  const reads: Read[] = [
    {
      name: 'sign-in (POST users/authenticate)',
      shot: {
        method: 'POST',
        path: 'users/authenticate',
        headers: {},
        body: JSON.stringify({ email: staff.email, password: loadPassword }),
      },
      as: null,
      note: 'argon2id verification per call',
      design: {
        reason:
          'every call verifies an argon2id password hash, with the OWASP parameters (m=19 MiB, t=2, auth/passwords.ts), which make each guess of a password cost CPU and memory on purpose',
        next: 'a target of its own, set by the hash parameters, not by this table.',
      },
    },
    { name: 'validate-token', shot: get('users/validate-token'), as: 'staff' },
    { name: 'budget list (finance)', shot: get('budget?page=1&per_page=10'), as: 'finance' },
    { name: 'budget detail', shot: get(`budget/${someBudget}`), as: 'finance' },
    {
      name: 'budget codes',
      shot: get('budget/codes'),
      as: 'staff',
      design: {
        reason:
          "every call answers all of the organisation's active codes with their available amounts, as spec §7's `GET budget/codes` says (about 200 KB at full scale); the request form looks codes up as they are typed instead (the typed lookup below, docs/decisions/0025)",
        next: 'none for the form, which no longer asks for the full list; an API client that wants it pays for its size.',
      },
    },
    {
      // The request form's lookup after two typed characters: codes starting with them first.
      name: 'budget codes, typed lookup',
      shot: get(`budget/codes?search=${someBudget.slice(0, 2)}&limit=20`),
      as: 'staff',
    },
    {
      name: 'budget balance',
      shot: get(`budget/${someBudget}/balance?amount=250000`),
      as: 'staff',
    },
    {
      name: 'requests, staff mode',
      shot: get(`requests/user/${staff.id}?page=1&per_page=10`),
      as: 'staff',
    },
    { name: 'requests, admin mode', shot: get(admin), as: 'finance' },
    {
      name: 'requests, admin, search a name',
      shot: get(`${admin}&search=${encodeURIComponent(staff.fullname.toLowerCase())}`),
      as: 'finance',
    },
    {
      name: 'requests, admin, status pending',
      shot: get(`${admin}&status=pending`),
      as: 'finance',
    },
    { name: 'summary (staff)', shot: get(`requests/summary/${staff.id}`), as: 'staff' },
    {
      name: 'pending list (finance officer)',
      shot: get(`requests/finance_officer/pending/${finance.id}`),
      as: 'finance',
    },
    { name: 'one request', shot: get(`requests/request/${oneRequest.id}`), as: 'finance' },
    {
      name: 'retirements, staff mode',
      shot: get('retirement/requests?role=user&page=1'),
      as: 'staff',
    },
    {
      name: 'retirements, admin mode',
      shot: get('retirement/requests?role=finance_officer&page=1'),
      as: 'finance',
    },
    {
      // Home's 'Retirements Pending Your Review' (docs/decisions/0039).
      name: 'retirement queue (finance officer)',
      shot: get('retirement/pending?page=1&per_page=10'),
      as: 'finance',
    },
  ];
  function get(url: string): Shot {
    return { method: 'GET', path: url, headers: {} };
  }

  const driverPool = new pg.Pool({
    connectionString: databaseUrl,
    max: connections,
    idleTimeoutMillis: 0,
  });
  const rows: Row[] = [];
  try {
    for (const read of reads) {
      if (!callFilter.test(read.name)) continue;
      const statements = await options.capture(async () => {
        const response = await bench.app.inject({
          method: read.shot.method,
          url: `/api/v1/${read.shot.path}`,
          headers: {
            'content-type': 'application/json',
            ...(read.as ? inProcessHeaders[read.as] : {}),
          },
          ...(read.shot.body ? { payload: read.shot.body } : {}),
        });
        if (response.statusCode !== 200) {
          throw new Error(`${read.name} answered ${response.statusCode}: ${response.body}`);
        }
      });
      const replay = replayable(statements);
      log(`  ${read.name} sends ${statements.length} statements:`);
      for (const statement of statements) {
        log(`    ${statement.query.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
      const headers =
        read.as === 'staff' ? staffHeaders : read.as === 'finance' ? financeHeaders : {};
      const signInBody =
        read.as === null
          ? (i: number) => ({
              headers: { 'x-forwarded-for': nextAddress() },
              body: JSON.stringify({
                email: signInEmails[i % signInEmails.length],
                password: loadPassword,
              }),
            })
          : undefined;
      // One second of warm-up each (JIT, caches, pool connections), not counted.
      for (const target of [server, baseline]) {
        if (target) await hammer(target.url, { ...read.shot, headers }, signInBody, undefined, 1);
      }
      // With a baseline, each build goes first every other call, so neither always meets the
      // warmer cache.
      const turns = await takingTurns(
        { server, baseline },
        rows.length % 2 === 1,
        (target, seconds) =>
          measureCpu(target.pid, () =>
            hammer(target.url, { ...read.shot, headers }, signInBody, undefined, seconds),
          ),
      );
      const { value: api, cpu } = turns.server;
      const before = turns.baseline;
      const driver = await drive(driverPool, replay.statements, replay.inTransaction);
      const bareLoad = await measureBare(bare, replay);
      rows.push({
        name: read.name,
        kind: 'read',
        api,
        driver,
        bare: bareLoad,
        statements: replay.statements.length,
        cpu,
        ...(before ? { baseline: before.value, baselineCpu: before.cpu } : {}),
        ...(read.note ? { note: read.note } : {}),
        ...(read.design ? { design: read.design } : {}),
      });
      log(
        `  ${read.name}: ${api.rate.toFixed(0)} req/s, p99 ${api.p99.toFixed(1)} ms, ${api.errors} errors; driver ${driver.rate.toFixed(0)}/s (${replay.statements.length} statements); bare ${bareLoad.rate.toFixed(0)}/s; cpu server ${cpu.server.toFixed(2)} postgres ${cpu.postgres.toFixed(2)}${api.firstError ? `; first error: ${api.firstError}` : ''}`,
      );
    }
  } finally {
    await driverPool.end();
  }

  // Writes: each call a distinct body or target.
  const today = todayIn(config.orgTimezone);
  const submitBody = (i: number) =>
    JSON.stringify({
      amount_requested: 250_000 + i,
      amount_currency: 'tzs',
      purpose: 'travel',
      mode_of_service: 'public',
      name_of_establishment: 'Dar Express',
      expenditure_date: today,
      expenditure_justification: `Bus fares to the Tanga stem park, trip ${i}`,
      tax_status: 'taxInclusive',
      budget_code: submitBudgets[i % submitBudgets.length]?.code ?? bigBudget,
      payment_mode: 'cash',
      file_paths: [],
    });
  /** How many targets each write handed out: only their budgets are checked afterwards. */
  const used = { reviews: 0, finals: 0, retirements: 0 };
  const answer = (
    target: (typeof reviewTargets)[number] | undefined,
    i: number,
  ): Partial<Shot> | null =>
    target
      ? {
          body: JSON.stringify({
            id: target.review_id,
            request_id: target.request_id,
            status: 'approved',
            comments: `Approved under load ${i}`,
          }),
          headers: {
            ...reviewerHeaders.get(`${target.organization_id} ${target.role}`),
            'idempotency-key': randomUUID(),
          },
        }
      : null;
  const writes: {
    name: string;
    shot: Shot;
    next: (i: number) => Partial<Shot> | null;
    amount?: number;
  }[] = [
    {
      name: 'submit a request',
      shot: { method: 'POST', path: 'requests', headers: submitters[0] ?? {} },
      next: (i) => ({
        body: submitBody(i),
        headers: { ...submitters[i % submitters.length], 'idempotency-key': randomUUID() },
      }),
    },
    {
      name: 'answer a review (approve)',
      shot: { method: 'PUT', path: 'reviews', headers: {} },
      amount: reviewTargets.length,
      next: (i) => {
        used.reviews = Math.min(i + 1, reviewTargets.length);
        return answer(reviewTargets[i], i);
      },
    },
    {
      name: 'answer a review (final approval, one organisation)',
      shot: { method: 'PUT', path: 'reviews', headers: {} },
      amount: finalTargets.length,
      next: (i) => {
        used.finals = Math.min(i + 1, finalTargets.length);
        return answer(finalTargets[i], i);
      },
    },
    {
      name: 'submit a retirement',
      shot: { method: 'POST', path: 'retirement/user-submit', headers: {} },
      amount: retirementTargets.length,
      next: (i) => {
        const target = retirementTargets[i];
        if (!target) return null;
        used.retirements = i + 1;
        return {
          body: JSON.stringify({
            id: target.id,
            amount_spent: Math.floor(Number(target.amount_received) * 0.9),
            amount_currency: 'tzs',
            comments: `Receipts for trip ${i}`,
            file_paths: [],
          }),
          headers: { ...ownerHeaders.get(target.owner.id), 'idempotency-key': randomUUID() },
        };
      },
    },
  ];
  // The statements each write sends, captured once from the in-process app on a target of its own.
  const writeStatements = new Map<string, Statement[]>();
  try {
    const [submitter] = await query<BenchUser>(
      `SELECT id, organization_id FROM users WHERE organization_id = $1 AND role = 'staff' ORDER BY email LIMIT 1`,
      [organization.id],
    );
    // Who answers a review target's step: a user of its organisation in its role.
    const reviewerOf = async (target: (typeof reviewTargets)[number] | undefined) =>
      (
        await query<BenchUser>(
          `SELECT id, organization_id FROM users WHERE organization_id = $1 AND role = $2 LIMIT 1`,
          [target?.organization_id, target?.role],
        )
      )[0];
    const reviewer = await reviewerOf(reviewTarget);
    const finalReviewer = await reviewerOf(finalTarget);
    const captures: {
      name: string;
      method: 'POST' | 'PUT';
      path: string;
      as?: BenchUser;
      body: string;
    }[] = [
      {
        name: 'submit a request',
        method: 'POST',
        path: 'requests',
        as: submitter,
        body: submitBody(writeTargets),
      },
      {
        name: 'answer a review (approve)',
        method: 'PUT',
        path: 'reviews',
        as: reviewer,
        body: JSON.stringify({
          id: reviewTarget?.review_id,
          request_id: reviewTarget?.request_id,
          status: 'approved',
          comments: 'Approved once to count the statements',
        }),
      },
      {
        name: 'answer a review (final approval, one organisation)',
        method: 'PUT',
        path: 'reviews',
        as: finalReviewer,
        body: JSON.stringify({
          id: finalTarget?.review_id,
          request_id: finalTarget?.request_id,
          status: 'approved',
          comments: 'Approved once to count the statements',
        }),
      },
      {
        name: 'submit a retirement',
        method: 'POST',
        path: 'retirement/user-submit',
        as: retirementTarget?.owner,
        body: JSON.stringify({
          id: retirementTarget?.id,
          amount_spent: Math.floor(Number(retirementTarget?.amount_received) * 0.9),
          amount_currency: 'tzs',
          comments: 'Receipts, once to count the statements',
          file_paths: [],
        }),
      },
    ];
    for (const write of captures) {
      if (!callFilter.test(write.name) || !write.as) continue;
      const headers = { ...(await bench.authHeaders(write.as)), 'idempotency-key': randomUUID() };
      const statements = await options.capture(async () => {
        const response = await bench.app.inject({
          method: write.method,
          url: `/api/v1/${write.path}`,
          headers: { 'content-type': 'application/json', ...headers },
          payload: write.body,
        });
        if (response.statusCode >= 300) {
          throw new Error(`${write.name} answered ${response.statusCode}: ${response.body}`);
        }
      });
      writeStatements.set(write.name, statements);
      log(`  ${write.name} sends ${statements.length} statements:`);
      for (const statement of statements) {
        log(`    ${statement.query.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }
  } finally {
    await bench.app.close();
  }

  for (const write of writes) {
    if (!callFilter.test(write.name)) continue;
    // Each stretch gets the targets the ones before it left: distinct ones, never answered twice.
    // With a baseline, a stretch gets at most its share of them, so the last is not left without
    // (one organisation's final approvals run out within one run).
    let handedOut = 0;
    const stretches = baseline ? 2 * rounds : 1;
    const targetsFor = (offset: number): number | undefined => {
      if (write.amount === undefined) return undefined;
      const share = Math.min(Math.ceil(write.amount / stretches), write.amount - offset);
      return Math.max(1, share);
    };
    const run = (target: ServerProcess, seconds: number) => {
      const offset = handedOut;
      return measureCpu(
        target.pid,
        () =>
          hammer(
            target.url,
            write.shot,
            (i) => {
              handedOut = Math.max(handedOut, offset + i + 1);
              return write.next(offset + i);
            },
            targetsFor(offset),
            seconds,
          ),
        databaseUrl,
      );
    };
    // With a baseline, each build goes first every other write, as with the reads.
    const turns = await takingTurns({ server, baseline }, rows.length % 2 === 1, run);
    const { value: api, cpu } = turns.server;
    const before = turns.baseline;
    const ranOut = write.amount !== undefined && handedOut >= write.amount;
    rows.push({
      name: write.name,
      kind: 'write',
      api,
      cpu,
      statements: writeStatements.get(write.name)?.length,
      ...(before ? { baseline: before.value, baselineCpu: before.cpu } : {}),
      ...(ranOut
        ? { note: `all ${write.amount} prepared targets used before the time was up` }
        : {}),
    });
    log(
      `  ${write.name}: ${api.rate.toFixed(0)} req/s, p99 ${api.p99.toFixed(1)} ms, ${api.errors} errors of ${api.count}${api.firstError ? `; first error: ${api.firstError}` : ''}`,
    );
  }

  // The ledger of every budget the writes touched.
  const touched = [
    ...new Set([
      ...submitBudgets.map((budget) => budget.id),
      ...(
        await query<{ budget_id: string }>(
          `SELECT budget_id FROM requests WHERE id = ANY($1::uuid[])`,
          [
            [...reviewTargets.slice(0, used.reviews), ...finalTargets.slice(0, used.finals)].map(
              (target) => target.request_id,
            ),
          ],
        )
      ).map((row) => row.budget_id),
      ...retirementTargets.slice(0, used.retirements).map((target) => target.budget_id),
    ]),
  ];
  const [ledger] = await query<{ checked: number; wrong: number }>(
    `SELECT count(*)::int AS checked,
            count(*) FILTER (WHERE committed <> budget_committed_recomputed(id))::int AS wrong
     FROM budgets WHERE id = ANY($1::uuid[])`,
    [touched],
  );
  const isLedgerExact = (ledger?.wrong ?? 1) === 0;
  log(`ledger: ${ledger?.checked} budgets checked, ${ledger?.wrong} differ`);

  await server.terminate(30_000);
  await baseline?.terminate(30_000);
  for (const name of await fs.readdir(logDirectory)) {
    const { size } = await fs.stat(path.join(logDirectory, name));
    log(`${name}: ${(size / 1024 ** 2).toFixed(1)} MB of log lines`);
  }
  await fs.rm(logDirectory, { recursive: true, force: true });
  const report = formatReport(rows, {
    scale,
    durationSeconds,
    connections,
    cores: os.availableParallelism(),
    machine: `${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB memory, Node ${process.version}, ${machine.postgres}`,
    seeded: options.seeded,
    seedSeconds: options.seedSeconds,
    seedTargetSeconds,
    isLedgerExact,
    ledgerChecked: ledger?.checked ?? 0,
    compareEntry,
    rounds,
    repoRoot,
    logLevel: { server: logLevel, ...(compareEntry ? { baseline: compareLogLevel } : {}) },
    processes: {
      server: webConcurrency,
      ...(compareEntry ? { baseline: compareWebConcurrency } : {}),
    },
  });
  process.stdout.write(`\n${report}\n`);
  if (scale === 1) {
    // The hand-written reading of the figures, from its heading on, stays.
    const previous = await fs.readFile(resultsFile, 'utf8').catch(() => '');
    const analysis = previous.indexOf(analysisHeading);
    await fs.mkdir(path.dirname(resultsFile), { recursive: true });
    await fs.writeFile(
      resultsFile,
      analysis >= 0 ? `${report}\n${previous.slice(analysis)}` : report,
    );
    log(`written to ${path.relative(repoRoot, resultsFile)}`);
  } else {
    log(`scale ${scale}: ${path.relative(repoRoot, resultsFile)} is left as it is`);
  }
}

const machine = { postgres: 'PostgreSQL (version unknown)' };

// The server first (support.ts removes the database on the same signals).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAllProcesses());
}

try {
  await main();
} finally {
  await stopAllProcesses();
}
