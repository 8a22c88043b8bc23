/**
 * Requests benchmark: 1,000,000 requests (about 2.1 million reviews) over four organisations, then
 * 200 calls each, after a warm-up, of the request lists, summary, pending list, one request and
 * submit through app.inject; prints median and p95 against the targets of the issue, and the plans
 * (EXPLAIN ANALYZE) of the statements the app sent. Run with `npx tsx apps/server/bench/requests.ts`.
 * Uses DATABASE_URL's server when set (in a throw-away database), else an embedded PostgreSQL in
 * .tmp/; both are removed afterwards.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { requestCategories } from '@imprest/domain/enums.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import type pg from 'pg';
import type { Database } from '../src/db/client.ts';
import {
  buildBenchApp,
  explain,
  formatMs,
  formatPlan,
  log,
  secondsSince,
  time,
  withDatabase,
  type BenchUser,
  type Timing,
  statementRecorder,
  type Statement,
} from './support.ts';
import {
  firstNames,
  lastNames,
  organizationCount,
  requestCount,
  seedMillionRequests,
} from './seed-requests.ts';

const calls = 200;
const warmUpCalls = 20;
const listTargetMs = 25;
const submitTargetMs = 30;

// ---------------------------------------------------------------------------------------------
// Plans of the statements one call sends

/** The scans of a plan: "Index Scan using requests_owner_latest_idx on requests" and the like. */
function scansOf(plan: string[]): string[] {
  const scans = plan.flatMap((line) => {
    const match =
      /(?:Parallel )?(?:Seq Scan|Index Scan(?: Backward)?|Index Only Scan(?: Backward)?|Bitmap Index Scan|Bitmap Heap Scan) (?:using \S+ on \S+|on \S+)/.exec(
        line,
      );
    return match ? [match[0]] : [];
  });
  return [...new Set(scans)];
}

function executionMs(plan: string[]): number {
  const line = plan.find((text) => text.startsWith('Execution Time:'));
  return Number(/([\d.]+) ms/.exec(line ?? '')?.[1] ?? Number.NaN);
}

/** A short name for a statement: the tables it reads. */
function describe(statement: Statement): string {
  const tables = [...statement.query.matchAll(/from "(\w+)"|join "(\w+)"/gi)].map(
    (match) => match[1] ?? match[2],
  );
  const isCount = /count\(\*\)/i.test(statement.query);
  return `${isCount ? 'count' : 'rows'} of ${[...new Set(tables)].join(' + ')}`;
}

type CallPlan = { name: string; statement: Statement; plan: string[] };

// ---------------------------------------------------------------------------------------------

type Call = {
  name: string;
  targetMs: number;
  run: (i: number) => Promise<number>;
  status?: number;
  /** The one call whose statements are explained. */
  sample: () => Promise<number>;
  /** Indexes the statements of the call must use between them. */
  expects?: string[];
  showPlans?: boolean;
};

type Row = { call: Call; timing: Timing };

async function main(): Promise<void> {
  const startedAt = performance.now();
  const { queryLogger, capture } = statementRecorder();
  await withDatabase(
    async (db) => {
      log(`seeding ${requestCount} requests and their reviews…`);
      const client = await db.$client.connect();
      try {
        await seedMillionRequests(client);
      } finally {
        client.release();
      }
      const { rows: counts } = await db.$client.query<{ requests: number; reviews: number }>(
        `SELECT (SELECT count(*) FROM requests)::int AS requests,
                (SELECT count(*) FROM reviews)::int AS reviews`,
      );
      log(
        `seeded ${counts[0]?.requests} requests and ${counts[0]?.reviews} reviews in ${secondsSince(startedAt)}`,
      );
      await benchmark(db, capture);
      log(`total ${secondsSince(startedAt)}`);
    },
    { queryLogger },
  );
}

async function benchmark(
  db: Database,
  capture: (body: () => Promise<unknown>) => Promise<Statement[]>,
): Promise<void> {
  const { app, context, authHeaders } = await buildBenchApp(db);
  const query = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
    (await db.$client.query<T>(text, params)).rows;

  const [organization] = await query<{ id: string }>(
    `SELECT id FROM organizations WHERE name = 'Bench org 0'`,
  );
  if (!organization) throw new Error('no organisation');
  const organizationId = organization.id;
  const userOf = async (where: string, params: unknown[]) => {
    const [user] = await query<BenchUser & { fullname: string }>(
      `SELECT id, organization_id, fullname FROM users WHERE organization_id = $1 AND ${where}`,
      [organizationId, ...params],
    );
    if (!user) throw new Error(`no user where ${where}`);
    return user;
  };
  const staff = await userOf(`email = $2`, ['staff7.0@bench.test']);
  const finance = await userOf(`role = 'finance_officer'`, []);
  const secretary = await userOf(`role = 'executive_secretary'`, []);
  const staffHeaders = await authHeaders(staff);
  const financeHeaders = await authHeaders(finance);
  const secretaryHeaders = await authHeaders(secretary);

  const [ownCount] = await query<{ total: number }>(
    `SELECT count(*)::int AS total FROM requests WHERE request_owner_id = $1 AND is_latest`,
    [staff.id],
  );
  const [bigBudget] = await query<{ code: string }>(
    `SELECT code FROM budgets WHERE organization_id = $1 ORDER BY amount DESC LIMIT 1`,
    [organizationId],
  );
  if (!bigBudget) throw new Error('no budget');
  const requestIds = (
    await query<{ id: string }>(
      `SELECT id FROM requests TABLESAMPLE SYSTEM (2) REPEATABLE (7)
       WHERE organization_id = $1 ORDER BY id LIMIT ${calls}`,
      [organizationId],
    )
  ).map((row) => row.id);
  const approvalNumbers = (
    await query<{ approval_number: string }>(
      `SELECT approval_number FROM requests TABLESAMPLE SYSTEM (1) REPEATABLE (3)
       WHERE organization_id = $1 AND approval_number IS NOT NULL ORDER BY id LIMIT 50`,
      [organizationId],
    )
  ).map((row) => row.approval_number);
  const statuses = ['pending', 'on_progress', 'approved', 'rejected'];
  /** Full names of the organisation's staff, as someone would type them. */
  const fullName = (i: number) =>
    `${firstNames[(i * 7) % 20]} ${lastNames[Math.floor(((i * 7) % 400) / 20)]}`.toLowerCase();
  const surname = (i: number) => (lastNames[i % 20] ?? '').toLowerCase();
  const purposes = Object.keys(requestCategories);
  const approvalNumber = (i: number) => approvalNumbers[i % approvalNumbers.length] ?? '';

  /** The status of an answer; an error answer stops the run with its body. */
  const statusOf = (response: { statusCode: number; body: string }, what: string) => {
    if (response.statusCode >= 400) {
      throw new Error(`${what} answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
    }
    return response.statusCode;
  };
  const get = async (url: string, headers: Record<string, string>) =>
    statusOf(await app.inject({ method: 'GET', url: `/api/v1/${url}`, headers }), `GET ${url}`);
  const list = (mode: string, user: BenchUser, headers: Record<string, string>) => {
    return (parameters: Record<string, string | number>) =>
      get(
        `requests/${mode}/${user.id}?${new URLSearchParams(
          Object.entries(parameters).map(([key, value]): [string, string] => [key, String(value)]),
        ).toString()}`,
        headers,
      );
  };
  const staffList = list('user', staff, staffHeaders);
  const adminList = list('finance_officer', finance, financeHeaders);
  const page = (i: number) => 1 + (i % 5);
  const submit = async () =>
    statusOf(
      await app.inject({
        method: 'POST',
        url: '/api/v1/requests',
        headers: staffHeaders,
        payload: {
          amount_requested: 250_000,
          amount_currency: 'tzs',
          purpose: 'travel',
          mode_of_service: 'public',
          name_of_establishment: 'Dar Express',
          expenditure_date: todayIn(context.config.orgTimezone),
          expenditure_justification: 'Bus fares to the Tanga stem park',
          tax_status: 'taxInclusive',
          budget_code: bigBudget.code,
          payment_mode: 'cash',
          file_paths: [],
        },
      }),
      'POST requests',
    );

  const callList: Call[] = [
    {
      name: `list, staff mode (own ${ownCount?.total ?? 0}, pages 1–5)`,
      targetMs: listTargetMs,
      run: (i) => staffList({ page: page(i), per_page: 10 }),
      sample: () => staffList({ page: 1, per_page: 10 }),
      expects: ['requests_owner_latest_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin mode (pages 1–5)',
      targetMs: listTargetMs,
      run: (i) => adminList({ page: page(i), per_page: 10 }),
      sample: () => adminList({ page: 1, per_page: 10 }),
      expects: ['requests_org_latest_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin, status filter',
      targetMs: listTargetMs,
      run: (i) => adminList({ page: 1, per_page: 10, status: statuses[i % 4] ?? 'all' }),
      sample: () => adminList({ page: 1, per_page: 10, status: 'approved' }),
      expects: ['requests_org_latest_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin, search a full name',
      targetMs: listTargetMs,
      run: (i) => adminList({ page: 1, per_page: 10, search: fullName(i) }),
      sample: () => adminList({ page: 1, per_page: 10, search: fullName(3) }),
      expects: ['requests_search_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin, search a surname',
      targetMs: listTargetMs,
      run: (i) => adminList({ page: 1, per_page: 10, search: surname(i) }),
      sample: () => adminList({ page: 1, per_page: 10, search: surname(3) }),
      expects: ['requests_search_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin, search an approval number',
      targetMs: listTargetMs,
      run: (i) => adminList({ page: 1, per_page: 10, search: approvalNumber(i) }),
      sample: () => adminList({ page: 1, per_page: 10, search: approvalNumber(3) }),
      expects: ['requests_approval_number_prefix_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin, search the start of an approval number',
      targetMs: listTargetMs,
      run: (i) => adminList({ page: 1, per_page: 10, search: approvalNumber(i).slice(0, 11) }),
      sample: () => adminList({ page: 1, per_page: 10, search: approvalNumber(3).slice(0, 11) }),
      expects: ['requests_approval_number_prefix_idx'],
      showPlans: true,
    },
    {
      name: 'list, admin, search a purpose (1,000+ matches)',
      targetMs: listTargetMs,
      run: (i) =>
        adminList({ page: 1, per_page: 10, search: purposes[i % purposes.length] ?? 'travel' }),
      sample: () => adminList({ page: 1, per_page: 10, search: 'meals' }),
      showPlans: true,
    },
    {
      name: 'list, admin, search + status',
      targetMs: listTargetMs,
      run: (i) =>
        adminList({ page: 1, per_page: 10, search: fullName(i), status: statuses[i % 4] ?? 'all' }),
      sample: () => adminList({ page: 1, per_page: 10, search: fullName(3), status: 'approved' }),
      expects: ['requests_search_idx'],
      showPlans: true,
    },
    {
      name: 'summary (staff, own counts)',
      targetMs: listTargetMs,
      run: () => get(`requests/summary/${staff.id}`, staffHeaders),
      sample: () => get(`requests/summary/${staff.id}`, staffHeaders),
      expects: ['requests_owner_latest_idx'],
    },
    {
      name: 'pending, finance officer (100 a page)',
      targetMs: listTargetMs,
      run: () => get(`requests/finance_officer/pending/${finance.id}`, financeHeaders),
      sample: () => get(`requests/finance_officer/pending/${finance.id}`, financeHeaders),
    },
    {
      name: 'pending, executive secretary (100 a page)',
      targetMs: listTargetMs,
      run: () => get(`requests/executive_secretary/pending/${secretary.id}`, secretaryHeaders),
      sample: () => get(`requests/executive_secretary/pending/${secretary.id}`, secretaryHeaders),
    },
    {
      name: 'one request (reviews, history)',
      targetMs: listTargetMs,
      run: (i) => get(`requests/request/${requestIds[i % requestIds.length]}`, financeHeaders),
      sample: () => get(`requests/request/${requestIds[0]}`, financeHeaders),
    },
    {
      name: 'submit',
      targetMs: submitTargetMs,
      run: submit,
      status: 201,
      sample: submit,
    },
  ];

  const rows: Row[] = [];
  for (const call of callList) {
    const timing = await time(call.run, { calls, warmUpCalls, status: call.status });
    rows.push({ call, timing });
    log(`  ${call.name}: median ${formatMs(timing.median).trim()}`);
  }

  // The plans of the statements one call of each kind sends, after the timing (warm caches).
  const plans = new Map<Call, CallPlan[]>();
  for (const call of callList) {
    const statements = await capture(call.sample);
    const explained: CallPlan[] = [];
    // One transaction a call, so planner settings a call makes (set_config(…, true)) apply to the
    // statements after them, as they did in the call.
    const client = await db.$client.connect();
    try {
      await client.query('BEGIN');
      for (const statement of statements) {
        if (/^select set_config\(/i.test(statement.query)) {
          await client.query(statement.query, statement.params);
          continue;
        }
        // Writes and row locks are not explained: EXPLAIN ANALYZE would run them again.
        if (!/^select/i.test(statement.query) || /for update/i.test(statement.query)) continue;
        const plan = await explain(client, statement.query, statement.params);
        explained.push({ name: describe(statement), statement, plan });
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
    plans.set(call, explained);
  }
  await app.close();

  printTable(rows);
  printPlans(rows, plans);
}

function printTable(rows: Row[]): void {
  const width = Math.max(...rows.map((row) => row.call.name.length)) + 2;
  const lines = [
    '',
    `${requestCount} requests over ${organizationCount} organisations; ${calls} calls each after ${warmUpCalls} warm-up calls`,
    `load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(
        ' / ',
      )} (1 / 5 / 15 min) on ${os.availableParallelism()} CPUs: other work on the machine slows every call`,
    `  ${'call'.padEnd(width)}  target     median        p95        max   result`,
  ];
  for (const { call, timing } of rows) {
    const isMet = timing.median < call.targetMs;
    lines.push(
      `  ${call.name.padEnd(width)} ${`${call.targetMs} ms`.padStart(7)}  ${formatMs(timing.median)}  ${formatMs(timing.p95)}  ${formatMs(timing.max)}   ${isMet ? 'ok' : 'MISSED'}`,
    );
  }
  const missed = rows.filter((row) => row.timing.median >= row.call.targetMs);
  lines.push(
    missed.length === 0
      ? `  every call meets its target at the median`
      : `  ${missed.length} call(s) miss the target at the median: ${missed.map((row) => row.call.name).join('; ')}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

function printPlans(rows: Row[], plans: Map<Call, CallPlan[]>): void {
  const lines = ['', 'Plans of the statements one call sends (EXPLAIN ANALYZE, BUFFERS):'];
  const details: string[] = [];
  for (const { call, timing } of rows) {
    const explained = plans.get(call) ?? [];
    // The session lookup of every call (users by primary key) is left out.
    const requestPlans = explained.filter((entry) => !entry.name.startsWith('rows of users'));
    const scans = requestPlans.flatMap((entry) => scansOf(entry.plan));
    const sequential = scans.filter((scan) => /Seq Scan on (requests|reviews)\b/.test(scan));
    const missing = (call.expects ?? []).filter(
      (index) => !scans.some((scan) => scan.includes(index)),
    );
    const verdict =
      sequential.length > 0 || missing.length > 0
        ? `CHECK: ${[...sequential, ...missing.map((index) => `${index} not used`)].join(', ')}`
        : `ok${call.expects ? `, uses ${call.expects.join(', ')}` : ''}; no sequential scan of requests or reviews`;
    lines.push(`  ${call.name}: ${verdict}`);
    // Full plans of the list and search statements, and of any call that needs a look.
    const showPlan = call.showPlans || timing.median >= call.targetMs || !verdict.startsWith('ok');
    for (const entry of requestPlans) {
      lines.push(
        `    ${entry.name.padEnd(34)} ${formatMs(executionMs(entry.plan))}  ${scansOf(entry.plan).join('; ')}`,
      );
      if (showPlan) {
        details.push(
          `${call.name} — ${entry.name}:`,
          `    ${entry.statement.query.replace(/\s+/g, ' ').replace(/^select ("\w+"\."\w+", ){8,}.*? from /, 'select … from ')}`,
          `    -- params: ${JSON.stringify(entry.statement.params)}`,
          formatPlan(entry.plan),
          '',
        );
      }
    }
  }
  process.stdout.write(
    `${lines.join('\n')}\n\nFull plans of the list and search statements, and of calls that miss:\n`,
  );
  process.stdout.write(`${details.join('\n')}\n`);
}

await main();
