/**
 * The load benchmark's drivers (load.ts): HTTP load on a server with autocannon, two builds taking
 * turns, the same SQL replayed straight through `pg`, and the bare server of Fastify and `pg` alone
 * (bare-server.ts) under the same load.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type pg from 'pg';
import { databasePoolSize } from '../src/server.ts';
import { repoRoot } from '../src/paths.ts';
import { startServerProcess, type ServerProcess } from '../test/processes.ts';
import { connections, durationSeconds, rounds } from './load-options.ts';
import type { CpuShare, Load } from './load-report.ts';
import { log, type Statement } from './support.ts';

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export type Shot = {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string;
};

/**
 * 50 connections for the duration, or until `next` has no more distinct calls to give. Latency
 * percentiles come from every response's time (autocannon's own histogram stops at p97.5 / p99).
 */
export async function hammer(
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

/** A run's figures from every answer's time (sorted here), how long it ran and what failed. */
function loadFrom(latencies: number[], seconds: number, errors: number): Load {
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

/** The load of one or more stretches on one build, as one: its rate over their time together. */
function loadOf(slices: Slice[]): Load & { firstError?: string } {
  const firstError = slices.find((slice) => slice.firstError)?.firstError;
  return {
    ...loadFrom(
      slices.flatMap((slice) => slice.latencies),
      slices.reduce((sum, slice) => sum + slice.seconds, 0),
      slices.reduce((sum, slice) => sum + slice.errors, 0),
    ),
    ...(firstError ? { firstError } : {}),
  };
}

/** Stretches measured with measureCpu, as one: the cores weighed by each stretch's time. */
function merged(measured: Measured[]): {
  value: Load & { firstError?: string };
  cpu: CpuShare;
} {
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
export async function takingTurns(
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
export function replayable(statements: Statement[]): {
  statements: Statement[];
  inTransaction: boolean;
} {
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
export async function drive(
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
  return loadFrom(latencies, (performance.now() - startedAt) / 1000, errors);
}

/**
 * The bare server (bare-server.ts): Fastify and `pg` alone on the load's database, with a pool of
 * the app's size, on a loopback port of its own, started as the app is.
 */
export async function startBareServer(databaseUrl: string): Promise<ServerProcess> {
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
export async function measureBare(
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
