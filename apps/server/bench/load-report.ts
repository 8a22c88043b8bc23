/**
 * The load benchmark's report (load.ts, issue 13): the table against the targets and, for every
 * call that misses one, why and the next step, read off the run's own figures.
 *
 * Why a call misses is worked out from what the run measured, not written beside it by hand:
 * - the CPU each call cost the server, PostgreSQL and the load generator (cores ÷ rate), and from
 *   it the most calls a second the machine's cores could give at that cost, all of them busy;
 * - for a read, the driver's rate: the call's own SELECTs sent straight through `pg`, the most its
 *   SQL gives on this machine whatever the server does;
 * - for a read, the bare server's rate: the same SELECTs sent by Fastify and `pg` alone and their
 *   rows answered as JSON, what HTTP and the driver leave of the driver's rate whatever the app does;
 * - for p99, Little's law: at `connections` calls in flight, each waits connections ÷ rate.
 * A call whose cost is its design (sign-in's argon2id) says so instead.
 */
import path from 'node:path';

export const targets = { readRate: 2_000, readP99Ms: 100, driverRatio: 2, writeRate: 400 };

/** CPU used during a run, in cores (1.0 = one core busy throughout). */
export type CpuShare = {
  server: number;
  postgres: number;
  bench: number;
  /**
   * Writes only: how many of the database's backends waited on a lock (a row's, a transaction's),
   * on average over the run, sampled from pg_stat_activity: the calls queued on rows they share.
   */
  lockWaiters?: number;
};

export type Load = {
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  count: number;
  errors: number;
};

export type Row = {
  name: string;
  kind: 'read' | 'write';
  api: Load & { firstError?: string };
  driver?: Load;
  /**
   * The same statements sent by a server of Fastify and `pg` alone (bare-server.ts): the floor of
   * an HTTP call on this machine for this SQL.
   */
  bare?: Load;
  statements?: number;
  cpu: CpuShare;
  /** The same call against BENCH_COMPARE's build, and the CPU it used. */
  baseline?: Load;
  baselineCpu?: CpuShare;
  note?: string;
  /**
   * Why the call costs what it does by design, when it does (sign-in's password hashing), and
   * what its next step is instead.
   */
  design?: { reason: string; next: string };
};

export type ReportContext = {
  scale: number;
  durationSeconds: number;
  connections: number;
  cores: number;
  machine: string;
  seeded: string;
  seedSeconds: number;
  seedTargetSeconds: number;
  isLedgerExact: boolean;
  ledgerChecked: number;
  compareEntry: string | null;
  /** BENCH_ROUNDS: how many turns each build took at each call beside the baseline (1 by default). */
  rounds?: number;
  repoRoot: string;
  /** The servers' LOG_LEVEL: this build's, and the baseline's when it differs. */
  logLevel: { server: string; baseline?: string };
  /** The servers' processes (BENCH_WEB_CONCURRENCY): this build's, and the baseline's; 1 if not given. */
  processes?: { server: number; baseline?: number };
};

/** "; in 2 processes (WEB_CONCURRENCY=2, sharing a Redis); the baseline in 1": nothing for one each. */
function processesOf(context: ReportContext): string {
  const server = context.processes?.server ?? 1;
  const baseline = context.processes?.baseline ?? server;
  if (server === 1 && baseline === 1) return '';
  const count = (n: number) =>
    n > 1 ? `${n} processes (WEB_CONCURRENCY=${n}, sharing a Redis)` : '1 process';
  return `; in ${count(server)}${baseline === server ? '' : `; the baseline in ${count(baseline)}`}`;
}

/** How the two builds shared each call's time beside the baseline (BENCH_ROUNDS). */
function turnsOf(context: ReportContext): string {
  const rounds = context.rounds ?? 1;
  if (rounds === 1) return 'each call driven against both builds one after the other';
  return `each call's ${context.durationSeconds} s cut into ${rounds} rounds in which the two builds take turns, the one that went second going first in the next`;
}

/** The targets a call missed: rate, p99, driver, errors. */
export function missesOf(row: Row): string[] {
  const { api, driver } = row;
  const misses: string[] = [];
  if (row.kind === 'read') {
    const ratio = driver ? api.rate / driver.rate : Number.NaN;
    if (api.rate < targets.readRate) misses.push('rate');
    if (api.p99 >= targets.readP99Ms) misses.push('p99');
    if (!(ratio >= 1 / targets.driverRatio)) misses.push('driver');
  } else if (api.rate < targets.writeRate) {
    misses.push('rate');
  }
  if (api.errors > 0) misses.push('errors');
  return misses;
}

const whole = (value: number) => Math.round(value).toLocaleString('en-GB');
const ms = (value: number) => value.toFixed(1);

/** Milliseconds of CPU a call, from the cores a side used and the calls a second. */
function perCall(cores: number, rate: number): string {
  return (rate > 0 ? (cores / rate) * 1000 : Number.NaN).toFixed(2);
}

/**
 * Why a call missed, and the next step, from its figures: a list item of a few sentences.
 * Exported for load-report.test.ts.
 */
export function explainMisses(
  row: Row,
  context: Pick<ReportContext, 'cores' | 'connections'> & {
    /** The most cores any call of the run kept busy, its cost by design aside. */
    busiest: number;
  },
) {
  const { api, driver, cpu } = row;
  const misses = missesOf(row);
  const target = row.kind === 'read' ? targets.readRate : targets.writeRate;
  const busy = busyCores(row);
  // The most calls a second at this run's cost a call: with every core busy, and with as many
  // busy as the busiest call of the run managed.
  const ceiling = busy > 0 ? (api.rate * context.cores) / busy : Number.POSITIVE_INFINITY;
  const reached = busy > 0 ? (api.rate * Math.max(busy, context.busiest)) / busy : ceiling;
  const sentences: string[] = [];
  const cost = `Each call cost ${perCall(cpu.server, api.rate)} ms of the server's CPU, ${perCall(cpu.postgres, api.rate)} ms of PostgreSQL's and ${perCall(cpu.bench, api.rate)} ms of the load generator's; ${busy.toFixed(2)} of ${context.cores} cores were busy.`;
  if (row.design) {
    sentences.push(`By design: ${row.design.reason}.`, cost);
  } else if (misses.includes('rate')) {
    sentences.push(cost);
    if (ceiling < target) {
      sentences.push(
        `At that cost the ${context.cores} cores give at most ${whole(ceiling)} calls a second with every one busy: under ${whole(target)}, so the target needs ${((target / ceiling - 1) * 100).toFixed(0)} % more CPU than this machine has, or that much less work a call.`,
      );
    } else if (reached < target) {
      sentences.push(
        `At that cost the ${context.cores} cores would give ${whole(ceiling)} calls a second with every one busy, but no call of this run kept more than ${context.busiest.toFixed(2)} busy (its cost by design aside), which gives ${whole(reached)}: the target is at the edge of this machine.`,
      );
    } else {
      sentences.push(
        `At that cost the cores would give ${whole(reached)} calls a second as busy as the busiest call of this run kept them, but they were not: calls waited on something other than CPU (the pool's connections, row locks, or the load generator).`,
      );
    }
  }
  if (driver && misses.includes('rate') && driver.rate < target) {
    sentences.push(
      `The call's ${row.statements ?? '?'} SELECTs alone, sent straight through the driver, give ${whole(driver.rate)} calls a second here: the target is out of reach on this machine for its SQL as it is, whatever the server does.`,
    );
  }
  // The bare server's rate under the target, where the driver's is not: HTTP and the driver alone
  // miss the rate, so no server could meet it here for this SQL (the driver's sentence covers SQL
  // that misses it by itself).
  const floorMissesRate =
    misses.includes('rate') &&
    row.bare !== undefined &&
    row.bare.rate < target &&
    !(driver && driver.rate < target) &&
    !row.design;
  const rateFloor = ` Under ${whole(target)}: no server could meet the rate on this machine for this call's SQL.`;
  if (misses.includes('driver') && driver && !row.design) {
    sentences.push(
      `The API gives ${(api.rate / driver.rate).toFixed(2)} of the driver's rate: what the server adds to the SQL (HTTP, the session, building the statements and the answer) more than halves what the SQL alone would give.`,
    );
    if (row.bare) {
      const floor = row.bare.rate / driver.rate;
      sentences.push(
        `A server of Fastify and \`pg\` alone sending the same statements gives ${whole(row.bare.rate)} calls a second, ${floor.toFixed(2)} of the driver${floor < 1 / targets.driverRatio ? ': HTTP and the driver by themselves more than halve it here, so no server could meet this target on this machine for this call' : ''}; the API gives ${(api.rate / row.bare.rate).toFixed(2)} of that floor.${floorMissesRate ? rateFloor : ''}`,
      );
    }
  } else if (floorMissesRate && row.bare) {
    sentences.push(
      `A server of Fastify and \`pg\` alone sending the same statements gives ${whole(row.bare.rate)} calls a second, and the API ${(api.rate / row.bare.rate).toFixed(2)} of that floor.${rateFloor}`,
    );
  }
  if (misses.includes('p99')) {
    sentences.push(
      `p99 follows from the rate: with ${context.connections} calls in flight, each waits about ${context.connections} ÷ ${whole(api.rate)} = ${ms((context.connections / api.rate) * 1000)} ms on average (Little's law; p50 was ${ms(api.p50)} ms).`,
    );
  }
  if (misses.includes('errors')) {
    sentences.push(
      `${api.errors} of ${api.count} calls failed (first: ${api.firstError ?? 'no answer'}): a defect before anything else.`,
    );
  }
  sentences.push(`Next step: ${nextStep(row, misses, reached, target, context.connections)}`);
  return `- **${row.name}** (${misses.join(', ')}): ${sentences.join(' ')}`;
}

/** The cores a call kept busy: the server's, PostgreSQL's and the load generator's. */
function busyCores(row: Row): number {
  return row.cpu.server + row.cpu.postgres + row.cpu.bench;
}

function nextStep(
  row: Row,
  misses: string[],
  reached: number,
  target: number,
  connections: number,
): string {
  if (misses.includes('errors')) return 'find and fix the failing answers.';
  if (row.design) return row.design.next;
  const profile = `a CPU profile of the server on this call (BENCH_CALLS='${row.name.replace(/[()]/g, '.')}' BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof').`;
  if (misses.includes('driver')) {
    // A floor that misses the ratio too leaves the ratio no next step here: the others' come first.
    const floorMisses =
      row.bare && row.driver && row.bare.rate / row.driver.rate < 1 / targets.driverRatio;
    if (!floorMisses) return `less work in the server for this call: ${profile}`;
    if (misses.length === 1) {
      return `none for the ratio on this machine, whose floor misses it too (the SQL is cheap beside any HTTP call); the API's distance from the floor is the server's own work: ${profile}`;
    }
  }
  if (misses.includes('rate') && reached >= target) {
    const waiters = row.cpu.lockWaiters;
    if (waiters !== undefined && waiters >= 1) {
      return `the row locks: on average ${waiters.toFixed(1)} of the ${connections} calls waited on a lock during the run (pg_stat_activity), queued on rows they share (in one organisation's final approvals, its approval sequence, decision 0022): hold those locks for less time.`;
    }
    return `find the wait: the pool (DATABASE_POOL_SIZE)${waiters === undefined ? ', row locks (pg_locks during the run)' : ` (row locks hardly: ${waiters.toFixed(1)} calls waited on one, on average)`}, or a load generator on cores of its own.`;
  }
  const heavier =
    row.cpu.postgres > row.cpu.server
      ? `PostgreSQL's share is the larger: fewer or cheaper statements (${row.statements ?? '?'} a call now)`
      : `the server's share is the larger: ${profile.slice(0, -1)}`;
  return `more cores, which is how Imprest grows (PostgreSQL on a machine of its own with DATABASE_POOL_SIZE set for it, and WEB_CONCURRENCY server workers, docs/decisions/0031); on this machine, ${heavier}.`;
}

/** CPU a call, the server's and PostgreSQL's, in ms: the machine's noise moves it less than a rate. */
function cpuPerCall(cpu: CpuShare, load: Load): number {
  return ((cpu.server + cpu.postgres) / load.rate) * 1000;
}

/** "1.32 + 0.61 → 1.10 + 0.58 (−12 %)": each build's CPU a call, and the change of their sums. */
function cpuChange(before: CpuShare | undefined, baseline: Load, after: CpuShare, load: Load) {
  if (!before || baseline.rate <= 0 || load.rate <= 0) return '—';
  const each = (cpu: CpuShare, rate: number) =>
    `${((cpu.server / rate) * 1000).toFixed(2)} + ${((cpu.postgres / rate) * 1000).toFixed(2)}`;
  const change = (cpuPerCall(after, load) / cpuPerCall(before, baseline) - 1) * 100;
  return `${each(before, baseline.rate)} → ${each(after, load.rate)} (${change.toFixed(0)} %)`;
}

/** "31.4 → 6.2": the calls waiting on a lock, on average, in each build (writes only). */
function lockWaitChange(before: CpuShare | undefined, after: CpuShare): string {
  if (before?.lockWaiters === undefined || after.lockWaiters === undefined) return '—';
  return `${before.lockWaiters.toFixed(1)} → ${after.lockWaiters.toFixed(1)}`;
}

/** The markdown report: the machine, the seed, the table, the misses explained, the baseline. */
export function formatReport(rows: Row[], context: ReportContext): string {
  const lines = [
    '# Load benchmark (issue 13)',
    '',
    `\`npm run bench:load\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, scale ${context.scale}, ${context.durationSeconds} s a call at ${context.connections} connections.`,
    '',
    `Machine: ${context.machine}. The server, PostgreSQL and the load generator share the machine. The server runs at LOG_LEVEL=${context.logLevel.server}${context.logLevel.server === 'warn' ? ' (no line a call)' : ', its lines written to a file'}${context.logLevel.baseline && context.logLevel.baseline !== context.logLevel.server ? `; the baseline at LOG_LEVEL=${context.logLevel.baseline}` : ''}${processesOf(context)}.`,
    '',
    `Seed: ${context.seeded} in ${context.seedSeconds.toFixed(0)} s (target under ${context.seedTargetSeconds} s: ${context.seedSeconds < context.seedTargetSeconds ? 'met' : '**missed**'}).`,
    '',
    `Targets: reads ≥ ${targets.readRate} req/s, p99 < ${targets.readP99Ms} ms and within ${targets.driverRatio}× of the driver; writes ≥ ${targets.writeRate} req/s with zero errors. p95 is exact (every response's time); "driver" replays the call's SELECT statements, captured from the app, through \`pg\` with 50 clients and prepared statements; "bare" sends the same statements from a server of Fastify and \`pg\` alone (bench/bare-server.ts), answering their rows as JSON: the floor of an HTTP call on this machine for that SQL; cores = CPU used during the API run (1.0 = one core); for a write, "on a lock" = the calls waiting on a lock, on average (pg_stat_activity, sampled every 20 ms).`,
    '',
    '| call | req/s | p50 ms | p95 ms | p99 ms | errors | driver calls/s | API ÷ driver | bare calls/s (API ÷ bare) | cores server / postgres / load | result |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const row of rows) {
    const { api, driver } = row;
    const ratio = driver ? api.rate / driver.rate : Number.NaN;
    const misses = missesOf(row);
    const result = misses.length === 0 ? 'met' : `**missed** (${misses.join(', ')})`;
    lines.push(
      `| ${row.name}${row.note ? ` — ${row.note}` : ''} | ${api.rate.toFixed(0)} | ${ms(api.p50)} | ${ms(api.p95)} | ${ms(api.p99)} | ${api.errors}${api.errors ? ` of ${api.count}` : ''} | ${driver ? `${driver.rate.toFixed(0)} (${row.statements} stmt)` : row.statements ? `— (${row.statements} stmt)` : '—'} | ${driver ? ratio.toFixed(2) : '—'} | ${row.bare ? `${row.bare.rate.toFixed(0)} (${(api.rate / row.bare.rate).toFixed(2)})` : '—'} | ${row.cpu.server.toFixed(2)} / ${row.cpu.postgres.toFixed(2)} / ${row.cpu.bench.toFixed(2)}${row.cpu.lockWaiters === undefined ? '' : `; ${row.cpu.lockWaiters.toFixed(1)} on a lock`} | ${result} |`,
    );
  }
  lines.push(
    '',
    `Ledger exact after the writes: ${context.isLedgerExact ? 'yes' : '**no**'} (${context.ledgerChecked} budgets: committed = budget_committed_recomputed(id)).`,
    '',
  );
  const missed = rows.filter((row) => missesOf(row).length > 0);
  const busiest = Math.max(0, ...rows.filter((row) => !row.design).map(busyCores));
  if (missed.length > 0) {
    lines.push(
      'Why each miss, and the next step (worked out from the figures above):',
      '',
      ...missed.map((row) => explainMisses(row, { ...context, busiest })),
      '',
    );
  }
  const compared = rows.filter((row) => row.baseline);
  if (compared.length > 0) {
    lines.push(
      `Beside the baseline (BENCH_COMPARE=${path.relative(context.repoRoot, context.compareEntry ?? '')}, on the same database, ${turnsOf(context)}):`,
      '',
      '| call | baseline req/s | this build req/s | change | p99 ms baseline → this build | CPU ms a call, server + PostgreSQL: baseline → this build | calls waiting on a lock, on average: baseline → this build | errors baseline / this build |',
      '|---|---:|---:|---:|---|---|---|---|',
    );
    for (const row of compared) {
      const before = row.baseline;
      if (!before) continue;
      lines.push(
        `| ${row.name} | ${before.rate.toFixed(0)} | ${row.api.rate.toFixed(0)} | ${((row.api.rate / before.rate - 1) * 100).toFixed(0)} % | ${ms(before.p99)} → ${ms(row.api.p99)} | ${cpuChange(row.baselineCpu, before, row.cpu, row.api)} | ${lockWaitChange(row.baselineCpu, row.cpu)} | ${before.errors} / ${row.api.errors} |`,
      );
    }
    lines.push('');
  }
  const errors = rows.filter((row) => row.api.firstError);
  if (errors.length > 0) {
    lines.push('First error answer of each call with errors:', '');
    for (const row of errors) lines.push(`- ${row.name}: \`${row.api.firstError}\``);
    lines.push('');
  }
  return lines.join('\n');
}
