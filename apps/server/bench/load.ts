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
 *
 * This file runs the steps; its parts: load-options.ts (the BENCH_* variables), load-targets.ts
 * (the people, budgets and write targets found in the seed), load-reads.ts and load-writes.ts (the
 * calls), load-drive.ts (autocannon, the driver loop, the bare server, builds taking turns),
 * load-cpu.ts (the cores each side used, from /proc) and load-report.ts (the table and its notes).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { Database } from '../src/db/client.ts';
import { startSession } from '../src/features/auth/session.ts';
import { signToken } from '../src/features/auth/tokens.ts';
import { repoRoot } from '../src/paths.ts';
import {
  startRedis,
  startServerProcess,
  stopAllProcesses,
  type ServerProcess,
} from '../test/processes.ts';
import { measureCpu } from './load-cpu.ts';
import {
  drive,
  hammer,
  measureBare,
  replayable,
  startBareServer,
  takingTurns,
} from './load-drive.ts';
import {
  callFilter,
  compareEntry,
  compareLogLevel,
  compareWebConcurrency,
  connections,
  durationSeconds,
  logLevel,
  rounds,
  scale,
  seedTargetSeconds,
  webConcurrency,
} from './load-options.ts';
import { readCalls } from './load-reads.ts';
import { formatReport, type Row } from './load-report.ts';
import { findTargets } from './load-targets.ts';
import { captureWriteStatements, writeCalls } from './load-writes.ts';
import { loadPassword, loadShape, seedLoadOrganisation } from './seed-load.ts';
import {
  buildBenchApp,
  config,
  log,
  nodeArgsFrom,
  secondsSince,
  statementRecorder,
  withDatabase,
  type Statement,
} from './support.ts';

const resultsFile = path.join(repoRoot, 'bench', 'results.md');
const analysisHeading = '## What limits it';

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

  const targets = await findTargets(query);
  const {
    organization,
    staff,
    finance,
    submitBudgets,
    signInEmails,
    reviewTargets,
    finalTargets,
    retirementTargets,
  } = targets;

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

  const reads = readCalls(targets);

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
  const { writes, used } = writeCalls(targets, { submitters, reviewerHeaders, ownerHeaders });
  let writeStatements: Map<string, Statement[]>;
  try {
    writeStatements = await captureWriteStatements(targets, query, bench, options.capture);
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
