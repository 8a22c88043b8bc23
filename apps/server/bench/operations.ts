/**
 * Operations benchmark (issue 14): the embedded default with the requests benchmark's database
 * (1,000,000 requests, about 2.1 million reviews) in a data folder of its own, driven the way an
 * operator drives it. It times:
 * - `npm run backup` of that data folder while the server runs, and the archive's size;
 * - a restart after SIGKILL of the server (its PostgreSQL outlives it), and after SIGKILL of the
 *   server and its PostgreSQL together (as a power cut: PostgreSQL replays its WAL), each until
 *   /readyz answers ready, beside a start after a clean stop;
 * - `npm run restore` of the archive into an empty data folder, then compares the row counts.
 * Run with `npm run bench:ops -w apps/server`. Uses about 6 GB of disk under .tmp/ for a few
 * minutes; everything is removed afterwards, also when it is stopped with Ctrl-C.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect } from '../src/db/client.ts';
import {
  embeddedDatabaseUrl,
  killPostmaster,
  readPostmaster,
  startServerProcess,
  stopAllProcesses,
  waitForEnd,
  type ServerProcess,
} from '../test/processes.ts';
import { seedMillionRequests } from './seed-requests.ts';
import { log, secondsSince } from './support.ts';
import { repoRoot } from '../src/paths.ts';

const workDir = path.join(repoRoot, '.tmp', `bench-operations-${process.pid}`);
const startTimeoutMs = 10 * 60_000;

type Row = { step: string; seconds: number; detail: string };
const rows: Row[] = [];

function record(step: string, startedAt: number, detail = ''): void {
  const seconds = (performance.now() - startedAt) / 1000;
  rows.push({ step, seconds, detail });
  log(`${step}: ${seconds.toFixed(1)} s ${detail}`);
}

/** Runs one of the repository's scripts as an operator would (`npm run backup` and the like). */
function runScript(script: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    // The embedded default: DATABASE_URL is not passed on.
    const inherited = { ...process.env };
    delete inherited.DATABASE_URL;
    const child = spawn(process.execPath, [path.join(repoRoot, 'scripts', script), ...args], {
      cwd: repoRoot,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`)),
    );
  });
}

/** A server process on a data folder, started and timed until /readyz answers ready. */
async function start(name: string, dataDir: string): Promise<ServerProcess> {
  const startedAt = performance.now();
  const server = await startServerProcess({
    name,
    env: { DATA_DIR: dataDir },
    timeoutMs: startTimeoutMs,
  });
  for (;;) {
    const ready = await fetch(`${server.url}/readyz`).catch(() => null);
    if (ready?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  record(name, startedAt);
  return server;
}

type Counts = { requests: number; reviews: number; users: number; budgets: number };

async function countRows(dataDir: string): Promise<Counts> {
  const db = connect(await embeddedDatabaseUrl(dataDir), { max: 1 });
  try {
    const { rows: counts } = await db.$client.query<Counts>(
      `SELECT (SELECT count(*) FROM requests)::int AS requests,
              (SELECT count(*) FROM reviews)::int AS reviews,
              (SELECT count(*) FROM users)::int AS users,
              (SELECT count(*) FROM budgets)::int AS budgets`,
    );
    const row = counts[0];
    if (!row) throw new Error('no counts');
    return row;
  } finally {
    await db.$client.end();
  }
}

async function databaseSize(dataDir: string): Promise<string> {
  const db = connect(await embeddedDatabaseUrl(dataDir), { max: 1 });
  try {
    const { rows: sizes } = await db.$client.query<{ size: string }>(
      `SELECT pg_size_pretty(pg_database_size(current_database())) AS size`,
    );
    return sizes[0]?.size ?? '?';
  } finally {
    await db.$client.end();
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const source = path.join(workDir, 'source');
  const restored = path.join(workDir, 'restored');
  const archive = path.join(workDir, 'backup.tar.gz');
  await fs.mkdir(source, { recursive: true });

  let server = await start('first start (initdb and migrations)', source);
  log('seeding 1,000,000 requests and their reviews…');
  const seedStartedAt = performance.now();
  const db = connect(await embeddedDatabaseUrl(source), { max: 1 });
  const client = await db.$client.connect();
  try {
    await seedMillionRequests(client);
  } finally {
    client.release();
    await db.$client.end();
  }
  const counts = await countRows(source);
  record(
    'seed',
    seedStartedAt,
    `${counts.requests} requests, ${counts.reviews} reviews, ${await databaseSize(source)}`,
  );

  let stepAt = performance.now();
  await runScript('backup.mjs', [archive], { DATA_DIR: source });
  const { size } = await fs.stat(archive);
  record('npm run backup (server running)', stepAt, `${(size / 1024 / 1024).toFixed(0)} MiB`);

  await server.terminate(60_000);
  server = await start('start after a clean stop', source);

  await server.kill();
  server = await start('restart after SIGKILL of the server', source);

  const postmaster = await readPostmaster(source);
  await server.kill();
  if (postmaster) {
    process.kill(postmaster.pid, 'SIGKILL');
    await waitForEnd(postmaster.pid);
  }
  server = await start('restart after SIGKILL of the server and PostgreSQL', source);
  await server.terminate(60_000);

  await fs.mkdir(restored);
  stepAt = performance.now();
  await runScript('restore.mjs', [archive], { DATA_DIR: restored });
  record('npm run restore (empty data folder)', stepAt);

  server = await start('first start after restore', restored);
  const back = await countRows(restored);
  const same = JSON.stringify(back) === JSON.stringify(counts);
  rows.push({
    step: 'restored rows equal the original',
    seconds: Number.NaN,
    detail: same ? 'yes' : `no: ${JSON.stringify(back)} against ${JSON.stringify(counts)}`,
  });
  await server.terminate(60_000);

  const load = os.loadavg().map((value) => value.toFixed(2));
  process.stdout.write(
    [
      '',
      `Operations on the embedded PostgreSQL, ${os.availableParallelism()} CPUs, load ${load.join(' / ')} (1 / 5 / 15 min):`,
      '',
      '| step | seconds | detail |',
      '|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.step} | ${Number.isNaN(row.seconds) ? '' : row.seconds.toFixed(1)} | ${row.detail} |`,
      ),
      '',
      `total ${secondsSince(startedAt)}`,
      '',
    ].join('\n'),
  );
  if (!same) process.exitCode = 1;
}

async function cleanUp(): Promise<void> {
  await stopAllProcesses();
  for (const dataDir of ['source', 'restored']) {
    await killPostmaster(path.join(workDir, dataDir)).catch(() => undefined);
  }
  await fs.rm(workDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: removing ${workDir}…`);
    void cleanUp().finally(() => process.exit(1));
  });
}

try {
  await main();
} finally {
  await cleanUp();
}
