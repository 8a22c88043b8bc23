/**
 * Budgets benchmark: 10,000 budgets, each call timed (200 calls through app.inject, median and
 * p95, and the list with 50 calls in flight at once) with no requests and again with 1,000,000
 * requests behind the budgets: the kept committed amount (docs/decisions/0008) makes them the same. Run with `npx tsx apps/server/bench/budgets.ts`.
 * Uses DATABASE_URL's server when set (in a throw-away database), else an embedded PostgreSQL in
 * .tmp/; both are removed afterwards.
 */
import { performance } from 'node:perf_hooks';
import { branches, budgetCategories, departments } from '@imprest/domain/enums.ts';
import type pg from 'pg';
import type { Database } from '../src/db/client.ts';
import {
  buildBenchApp,
  formatMs,
  log,
  secondsSince,
  time as timeCalls,
  withDatabase,
  type Timing,
} from './support.ts';

const organizationCount = 5;
/** Per organisation: 7 categories × 3 branches × 99 cost codes allow at most 2,079 distinct codes. */
const budgetsPerOrganization = 2_000;
const requestCount = 1_000_000;
const requestBatch = 250_000;
const calls = 200;
const warmUpCalls = 20;
const codesCalls = 20;
/** The issue's load: 50 connections at once. */
const loadConcurrency = 50;
const loadCalls = 2_000;

/** Bulk-loads organisations, users and budgets (with create changelog rows) in SQL. */
async function seedBudgets(client: pg.PoolClient): Promise<void> {
  await client.query(`SET synchronous_commit = off`);
  await client.query(`
    CREATE TEMP TABLE bench_orgs AS
    SELECT n, gen_random_uuid() AS id, gen_random_uuid() AS finance_id, gen_random_uuid() AS staff_id
    FROM generate_series(0, ${organizationCount - 1}) AS n`);
  await client.query(
    `INSERT INTO organizations (id, name) SELECT id, 'Bench org ' || n FROM bench_orgs`,
  );
  await client.query(`
    INSERT INTO users (id, organization_id, fullname, email, department, role, system_role)
    SELECT finance_id, id, 'Bench Finance ' || n, 'finance' || n || '@bench.test', 'finance', 'finance_officer', 'admin' FROM bench_orgs
    UNION ALL
    SELECT staff_id, id, 'Bench Staff ' || n, 'staff' || n || '@bench.test', 'engineering', 'staff', 'staff' FROM bench_orgs`);

  const categories = Object.entries(budgetCategories);
  const branchList = Object.entries(branches);
  const budgetDepartments = ['all', ...departments];
  // k → (category, branch, cost code) is one-to-one below 2,079, so every code is valid and unique.
  await client.query(
    `
    INSERT INTO budgets (organization_id, code, cost_code, name, description, amount, department,
                         currency, category, branch, current_status, created_by, created_at, modified_at)
    SELECT o.id,
           (($1::int[])[1 + k / 297] + ($3::int[])[1 + (k / 99) % 3] + k % 99 + 1)::text,
           k % 99 + 1,
           'Budget ' || k || ' of ' || ($2::text[])[1 + k / 297],
           'Bench budget',
           (10000000 + (k * 7919) % 90000000)::numeric * 10,
           ($5::text[])[1 + k % cardinality($5::text[])],
           'tzs',
           ($2::text[])[1 + k / 297],
           ($4::text[])[1 + (k / 99) % 3],
           CASE WHEN k % 25 = 0 THEN 'archived' ELSE 'active' END,
           o.finance_id,
           now() - interval '13 months',
           now() - interval '13 months'
    FROM bench_orgs o CROSS JOIN generate_series(0, ${budgetsPerOrganization - 1}) AS k`,
    [
      categories.map(([, code]) => code),
      categories.map(([name]) => name),
      branchList.map(([, code]) => code),
      branchList.map(([name]) => name),
      budgetDepartments,
    ],
  );
  await client.query(`
    INSERT INTO budget_changes (organization_id, budget_id, budget_code, action, actor_id, actor_name, after, created_at)
    SELECT b.organization_id, b.id, b.code, 'create', b.created_by, 'Bench Finance',
           jsonb_build_object('name', b.name, 'description', b.description, 'amount', b.amount,
             'department', b.department, 'amount_currency', b.currency, 'code', b.code,
             'cost_code', b.cost_code, 'current_status', 'active',
             'meta_data', jsonb_build_array(b.category, b.branch)),
           b.created_at
    FROM budgets b`);
  await client.query(`VACUUM ANALYZE`);
}

/**
 * Bulk-loads the requests, spread over every budget. The ledger triggers (migration 0008) keep each
 * budget's committed amount as the rows go in, one statement at a time.
 */
async function seedRequests(client: pg.PoolClient): Promise<void> {
  await client.query(`SET synchronous_commit = off`);
  await client.query(`
    CREATE TEMP TABLE bench_budgets AS
    SELECT (row_number() OVER (ORDER BY b.id) - 1)::int AS n, b.id, b.code, b.organization_id, o.staff_id
    FROM budgets b JOIN bench_orgs o ON o.id = b.organization_id`);
  await client.query(`CREATE UNIQUE INDEX ON bench_budgets (n)`);
  const budgetTotal = organizationCount * budgetsPerOrganization;
  for (let start = 0; start < requestCount; start += requestBatch) {
    const end = Math.min(start + requestBatch, requestCount) - 1;
    // Statuses cycle through all five; one in twenty is a superseded older version.
    await client.query(`
      INSERT INTO requests (organization_id, chain_id, is_latest, request_owner_id, request_owner_name,
                            department, purpose, expenditure_date, amount_requested, amount_currency,
                            amount_base, budget_id, budget_code, payment_mode, tax_status,
                            current_status, approval_number, created_at, modified_at)
      SELECT b.organization_id, gen_random_uuid(), i % 20 <> 19, b.staff_id, 'Bench Staff',
             'engineering', (ARRAY['travel','meals','kits','procurement','other'])[1 + i % 5],
             current_date - (i % 365), (1000 + (i * 37) % 500000)::numeric,
             'tzs', (1000 + (i * 37) % 500000)::numeric, b.id, b.code, 'cash', 'taxInclusive',
             s.status,
             CASE WHEN s.status = 'approved' THEN 'AP-2026-' || lpad(i::text, 7, '0') END,
             now() - (i % 390) * interval '1 day', now() - (i % 390) * interval '1 day'
      FROM generate_series(${start}, ${end}) AS i
      JOIN bench_budgets b ON b.n = i % ${budgetTotal}
      CROSS JOIN LATERAL (SELECT (ARRAY['pending','pending','on_progress','approved','approved',
                                        'approved','rejected','request_edit'])[1 + i % 8] AS status) s`);
    log(`  requests ${end + 1}/${requestCount}`);
  }
  // As autovacuum would have by now: statistics, and a visibility map for index-only scans.
  await client.query(`VACUUM ANALYZE`);
}

/** Runs `count` calls after a warm-up; answers median, p95 and max in milliseconds. */
async function time(call: (i: number) => Promise<number>, count = calls): Promise<Timing> {
  return timeCalls(call, { calls: count, warmUpCalls: Math.min(warmUpCalls, count) });
}

/**
 * `total` calls with `concurrency` of them in flight at once (as 50 browsers would); answers the
 * calls served per second and the median time of one call.
 */
async function underLoad(
  call: (i: number) => Promise<number>,
  options: { total: number; concurrency: number },
): Promise<{ perSecond: number; median: number }> {
  const durations: number[] = [];
  let next = 0;
  const startedAt = performance.now();
  const worker = async () => {
    while (next < options.total) {
      const i = next;
      next += 1;
      const callStartedAt = performance.now();
      const status = await call(i);
      if (status !== 200) throw new Error(`call ${i} answered ${status}`);
      durations.push(performance.now() - callStartedAt);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - startedAt) / 1000;
  durations.sort((a, b) => a - b);
  return {
    perSecond: options.total / seconds,
    median: durations[Math.floor(durations.length / 2)] ?? Number.NaN,
  };
}

type Phase = { timings: Record<string, Timing>; load: { perSecond: number; median: number } };

/** Times every budget call once: the same calls with no requests and with 1,000,000 behind them. */
async function measure(db: Database): Promise<Phase> {
  const { app, authHeaders } = await buildBenchApp(db);
  const { rows: people } = await db.$client.query<{
    id: string;
    organization_id: string;
    role: string;
  }>(
    `SELECT id, organization_id, role FROM users WHERE email IN ('finance0@bench.test', 'staff0@bench.test')`,
  );
  const headers = async (role: string) => {
    const user = people.find((person) => person.role === role);
    if (!user) throw new Error(`no ${role}`);
    return authHeaders(user);
  };
  const finance = await headers('finance_officer');
  const staff = await headers('staff');
  const organizationId = people[0]?.organization_id;
  const { rows: codes } = await db.$client.query<{ code: string }>(
    `SELECT code FROM budgets WHERE organization_id = $1 ORDER BY code`,
    [organizationId],
  );
  const pages = Math.ceil(codes.length / 10);
  const get = async (url: string, as: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: as })).statusCode;
  const pick = (i: number) => codes[(i * 7919) % codes.length]?.code ?? '';
  const listPage = (i: number) => get(`budget?page=${1 + ((i * 31) % pages)}`, finance);
  const timings = {
    'list, finance (random page)': await time(listPage),
    'list, staff (department rule)': await time((i) => get(`budget?page=${1 + (i % 20)}`, staff)),
    'list, search': await time((i) =>
      get(`budget?search=${encodeURIComponent(`budget ${i % 100}`)}`, finance),
    ),
    'detail (50 requests, changelog, history)': await time((i) =>
      get(`budget/${pick(i)}`, finance),
    ),
    'balance check': await time((i) => get(`budget/${pick(i)}/balance?amount=1000`, staff)),
    // Every active code in one answer, so fewer calls keep the run within a few minutes.
    [`codes lookup (${codes.length} codes)`]: await time(
      () => get('budget/codes', staff),
      codesCalls,
    ),
    // The request form's lookup: the first 20 codes matching one, two or four typed digits.
    'codes lookup as typed (first 20)': await time((i) => {
      const typed = pick(i).slice(0, [1, 2, 4][i % 3]);
      return get(`budget/codes?search=${typed}&limit=20`, staff);
    }),
  };
  const load = await underLoad(listPage, { total: loadCalls, concurrency: loadConcurrency });
  await app.close();
  return { timings, load };
}

/** The issue's target: with 1,000,000 requests, as fast as with none (a little noise allowed). */
function meetsTarget(empty: number, full: number): boolean {
  return full <= empty * 1.5 + 1;
}

/** Seeds, times the calls before and after the requests and prints both; the database is removed afterwards. */
async function main(): Promise<void> {
  const startedAt = performance.now();
  await withDatabase(
    async (db) => {
      log(`seeding ${organizationCount * budgetsPerOrganization} budgets…`);
      const client = await db.$client.connect();
      try {
        await seedBudgets(client);
        log(`seeded in ${secondsSince(startedAt)}; timing with no requests…`);
        const empty = await measure(db);
        const requestsStartedAt = performance.now();
        log(`seeding ${requestCount} requests…`);
        await seedRequests(client);
        log(`seeded the requests in ${secondsSince(requestsStartedAt)}; timing with them…`);
        const { rows: drift } = await client.query<{ budgets: string }>(
          `SELECT count(*) AS budgets FROM budgets WHERE committed <> budget_committed_recomputed(id)`,
        );
        log(`budgets whose kept committed amount differs from the rows: ${drift[0]?.budgets}`);
        const full = await measure(db);

        process.stdout.write(
          `\n${organizationCount * budgetsPerOrganization} budgets; ${calls} calls each after ${warmUpCalls} warm-up calls; medians (p95)\n`,
        );
        process.stdout.write(
          `  ${'call'.padEnd(44)} ${'no requests'.padStart(20)} ${`${requestCount} requests`.padStart(22)}\n`,
        );
        let missed = 0;
        for (const [name, before] of Object.entries(empty.timings)) {
          const after = full.timings[name];
          if (!after) continue;
          const ok = meetsTarget(before.median, after.median);
          if (!ok) missed += 1;
          const cell = (timing: Timing) =>
            `${formatMs(timing.median)} (${formatMs(timing.p95).trim()})`.padStart(21);
          process.stdout.write(
            `  ${name.padEnd(44)} ${cell(before)} ${cell(after)}  ${ok ? 'same speed' : 'SLOWER'}\n`,
          );
        }
        const rate = (phase: Phase) =>
          `${phase.load.perSecond.toFixed(0)} calls/s, median ${formatMs(phase.load.median).trim()}`;
        process.stdout.write(
          `  list under load (${loadConcurrency} at once, ${loadCalls} calls): ${rate(empty)} → ${rate(full)}\n`,
        );
        process.stdout.write(
          missed === 0
            ? `  target met: every call as fast with ${requestCount} requests as with none\n`
            : `  target missed by ${missed} call(s)\n`,
        );
      } finally {
        client.release();
      }
      log(`total ${secondsSince(startedAt)}`);
    },
    { poolSize: 10 },
  );
}

await main();
