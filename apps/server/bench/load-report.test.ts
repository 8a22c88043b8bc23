import { describe, expect, it } from 'vitest';
import { explainMisses, formatReport, missesOf, type Load, type Row } from './load-report.ts';

const load = (rate: number, p99 = 20): Load => ({
  rate,
  p50: p99 / 2,
  p95: p99 * 0.8,
  p99,
  count: rate * 10,
  errors: 0,
});
const machine = { cores: 2, connections: 50, busiest: 1.7 };
/** A call's row: its rate, the cores [server, PostgreSQL, load generator], its statements. */
const row = (
  name: string,
  kind: Row['kind'],
  api: Row['api'],
  [server, postgres, bench]: [number, number, number],
  statements: number,
  more: Partial<Row> = {},
): Row => ({ name, kind, api, cpu: { server, postgres, bench }, statements, ...more });

/** What formatReport is told of the run besides its rows. */
const reportContext = {
  ...machine,
  scale: 1,
  durationSeconds: 10,
  machine: '2 cores',
  seeded: 'a few rows',
  seedSeconds: 50,
  seedTargetSeconds: 180,
  isLedgerExact: true,
  ledgerChecked: 12,
  compareEntry: null,
  repoRoot: '/',
  logLevel: { server: 'warn' },
};

describe('the load report', () => {
  it('explains a read whose SQL alone misses the rate on this machine', () => {
    const call = row('budget list (finance)', 'read', load(597, 163), [0.63, 0.94, 0.08], 3, {
      driver: load(1_564),
    });
    expect(missesOf(call)).toEqual(['rate', 'p99', 'driver']);
    const text = explainMisses(call, machine);
    // 1.65 cores busy at 597 a second: 2 cores give 597 × 2 ÷ 1.65 = 724 at most.
    expect(text).toContain('1.65 of 2 cores were busy');
    expect(text).toContain('at most 724 calls a second');
    expect(text).toContain('needs 176 % more CPU');
    expect(text).toContain('give 1,564 calls a second here: the target is out of reach');
    expect(text).toContain('50 ÷ 597 = 83.8 ms');
    expect(text).toContain("The API gives 0.38 of the driver's rate");
    expect(text).toContain(
      "Next step: less work in the server for this call: a CPU profile of the server on this call (BENCH_CALLS='budget list .finance.'",
    );
  });

  it('sets a read beside the bare server, and says when that floor misses the ratio too', () => {
    // validate-token: 10,832 a second against 29,782 through the driver; the bare server 12,500.
    const call = row('validate-token', 'read', load(10_832, 9), [0.95, 0.43, 0.26], 1, {
      driver: load(29_782),
      bare: load(12_500),
    });
    expect(missesOf(call)).toEqual(['driver']);
    const text = explainMisses(call, machine);
    expect(text).toContain(
      'A server of Fastify and `pg` alone sending the same statements gives 12,500 calls a second, 0.42 of the driver: HTTP and the driver by themselves more than halve it here, so no server could meet this target on this machine for this call; the API gives 0.87 of that floor.',
    );
    expect(text).toContain('Next step: none for the ratio on this machine');
    expect(formatReport([call], reportContext)).toContain('| 0.36 | 12500 (0.87) |');
    // A floor within 2× of the driver leaves the gap to the server: profile it.
    const own = row('budget balance', 'read', load(5_761, 16), [0.92, 0.5, 0.19], 2, {
      driver: load(13_499),
      bare: load(9_000),
    });
    const ownText = explainMisses(own, machine);
    expect(ownText).toContain('gives 9,000 calls a second, 0.67 of the driver; the API gives 0.64');
    expect(ownText).toContain('Next step: less work in the server for this call');
    // With other misses, their next step.
    const slow = row('budget detail', 'read', load(1_203, 76), [0.69, 0.87, 0.11], 5, {
      driver: load(3_000),
      bare: load(1_400),
    });
    expect(missesOf(slow)).toEqual(['rate', 'driver']);
    expect(explainMisses(slow, machine)).toContain('Next step: more cores');
  });

  it("says when the bare server's own rate misses the target, where the driver's does not", () => {
    // The pending list: 1,350 a second; the driver 2,961; the bare server 1,570.
    const both = row('pending list', 'read', load(1_350, 66), [0.99, 0.39, 0.16], 3, {
      driver: load(2_961),
      bare: load(1_570),
    });
    expect(missesOf(both)).toEqual(['rate', 'driver']);
    expect(explainMisses(both, machine)).toContain(
      "0.53 of the driver; the API gives 0.86 of that floor. Under 2,000: no server could meet the rate on this machine for this call's SQL.",
    );
    // The admin list: the ratio met, the rate missed with the floor under the target.
    const rateOnly = row('requests, admin mode', 'read', load(1_595, 69), [0.96, 0.44, 0.23], 2, {
      driver: load(2_940),
      bare: load(1_828),
    });
    expect(missesOf(rateOnly)).toEqual(['rate']);
    expect(explainMisses(rateOnly, machine)).toContain(
      "A server of Fastify and `pg` alone sending the same statements gives 1,828 calls a second, and the API 0.87 of that floor. Under 2,000: no server could meet the rate on this machine for this call's SQL.",
    );
    // A floor over the target leaves the rate to the server, and says nothing of it.
    const over = row('one request', 'read', load(1_944, 44), [0.86, 0.56, 0.17], 2, {
      driver: load(3_735),
      bare: load(2_752),
    });
    expect(explainMisses(over, machine)).not.toContain('no server could meet the rate');
    // SQL that misses the rate by itself is the driver's sentence, not this one.
    const sqlBound = row('name search', 'read', load(1_044, 86), [0.83, 0.63, 0.18], 3, {
      driver: load(1_949),
      bare: load(1_309),
    });
    const sqlText = explainMisses(sqlBound, machine);
    expect(sqlText).toContain('give 1,949 calls a second here: the target is out of reach');
    expect(sqlText).not.toContain('no server could meet the rate');
  });

  it('gives a write the most the cores allow at its cost, and the larger share as the next step', () => {
    const call = row('submit a request', 'write', load(228), [0.74, 0.88, 0.07], 15);
    const text = explainMisses(call, machine);
    expect(text).toMatch(/^- \*\*submit a request\*\* \(rate\): /);
    expect(text).toContain("3.25 ms of the server's CPU, 3.86 ms of PostgreSQL's");
    expect(text).toContain('at most 270 calls a second');
    expect(text).toContain(
      "PostgreSQL's share is the larger: fewer or cheaper statements (15 a call now)",
    );
    expect(text).not.toContain('driver');
  });

  it('says a call waited when the cores were not all busy', () => {
    const call = row('submit a request', 'write', load(200), [0.3, 0.3, 0.05], 15);
    const text = explainMisses(call, machine);
    // 200 a second at 0.65 cores: 523 at the 1.7 cores the busiest call kept busy.
    expect(text).toContain('would give 523 calls a second as busy as the busiest call');
    expect(text).toContain('Next step: find the wait');
  });

  it('names the row locks as the wait when calls queued on them, and says when they did not', () => {
    const queued = row('final approval', 'write', load(300), [0.5, 0.6, 0.05], 13);
    queued.cpu.lockWaiters = 31.4;
    expect(explainMisses(queued, machine)).toContain(
      'Next step: the row locks: on average 31.4 of the 50 calls waited on a lock during the run',
    );
    const free = row('submit a request', 'write', load(300), [0.5, 0.6, 0.05], 13);
    free.cpu.lockWaiters = 0.2;
    const text = explainMisses(free, machine);
    expect(text).toContain('Next step: find the wait');
    expect(text).toContain('row locks hardly: 0.2 calls waited on one, on average');
  });

  it('puts a target that needs every core busy at the edge of the machine', () => {
    const call = row('one request', 'read', load(1_700), [0.75, 0.75, 0.1], 2, {
      driver: load(2_600),
    });
    const text = explainMisses(call, machine);
    // 2,125 with both cores busy; 1,806 with the 1.7 the busiest call managed.
    expect(text).toContain('would give 2,125 calls a second with every one busy');
    expect(text).toContain('no call of this run kept more than 1.70 busy');
    expect(text).toContain('which gives 1,806: the target is at the edge of this machine');
    expect(text).toContain('Next step: more cores');
  });

  it('names a cost that is the design, and an error before anything else', () => {
    const signIn = row('sign-in', 'read', load(108, 626), [1.56, 0.34, 0.05], 3, {
      driver: load(5_101),
      design: {
        reason: 'every call verifies an argon2id password hash',
        next: 'a target of its own.',
      },
    });
    const designed = explainMisses(signIn, machine);
    expect(designed).toContain('By design: every call verifies an argon2id password hash.');
    expect(designed).toContain('Next step: a target of its own.');
    // The design explains the driver's ratio; no profile is asked for.
    expect(designed).not.toContain("the driver's rate");
    const failing = row(
      'one request',
      'read',
      { ...load(2_500), errors: 3, firstError: '500 {}' },
      [0.8, 0.8, 0.1],
      2,
      { driver: load(3_000) },
    );
    expect(missesOf(failing)).toEqual(['errors']);
    expect(explainMisses(failing, machine)).toContain(
      'Next step: find and fix the failing answers.',
    );
  });

  it('explains only the misses, under the table', () => {
    const met = row('validate-token', 'read', load(6_673, 14), [0.92, 0.45, 0.26], 1, {
      driver: load(12_779),
    });
    const missed = row('submit a retirement', 'write', load(298), [0.74, 0.83, 0.06], 16);
    const report = formatReport([met, missed], reportContext);
    expect(report).toContain('| validate-token | 6673 |');
    expect(report).toContain('| met |');
    const why = report.slice(report.indexOf('Why each miss'));
    expect(why).toContain('- **submit a retirement** (rate):');
    expect(why).not.toContain('validate-token');
  });

  it('sets each call beside the baseline by its rate and by the CPU it cost a call', () => {
    // 1,000 a second on 0.9 + 0.5 cores: 0.90 + 0.50 ms a call; 1,250 on 0.9 + 0.4: 0.72 + 0.32.
    const call = row('requests, staff mode', 'read', load(1_250, 40), [0.9, 0.4, 0.1], 2, {
      baseline: load(1_000, 50),
      baselineCpu: { server: 0.9, postgres: 0.5, bench: 0.1 },
    });
    const report = formatReport([call], {
      ...reportContext,
      compareEntry: '/base/dist/main.js',
    });
    expect(report).toContain(
      '| requests, staff mode | 1000 | 1250 | 25 % | 50.0 → 40.0 | 0.90 + 0.50 → 0.72 + 0.32 (-26 %) | — | 0 / 0 |',
    );
  });

  it("sets a write's calls waiting on a lock beside the baseline's, and in the table", () => {
    const call = row('final approval', 'write', load(450, 120), [0.6, 0.7, 0.1], 13, {
      baseline: load(400, 150),
      baselineCpu: { server: 0.6, postgres: 0.7, bench: 0.1, lockWaiters: 31.4 },
    });
    call.cpu.lockWaiters = 6.25;
    const report = formatReport([call], { ...reportContext, compareEntry: '/base/dist/main.js' });
    expect(report).toContain('| 31.4 → 6.3 | 0 / 0 |');
    expect(report).toContain('| 0.60 / 0.70 / 0.10; 6.3 on a lock |');
  });

  it('says how the builds shared each call: one after the other, or taking turns in rounds', () => {
    const call = row('requests, staff mode', 'read', load(1_250, 40), [0.9, 0.4, 0.1], 2, {
      baseline: load(1_000, 50),
      baselineCpu: { server: 0.9, postgres: 0.5, bench: 0.1 },
    });
    const beside = { ...reportContext, compareEntry: '/base/dist/main.js' };
    expect(formatReport([call], beside)).toContain(
      'on the same database, each call driven against both builds one after the other):',
    );
    expect(formatReport([call], { ...beside, rounds: 5 })).toContain(
      "on the same database, each call's 10 s cut into 5 rounds in which the two builds take turns, the one that went second going first in the next):",
    );
  });

  it("says at which LOG_LEVEL the servers ran, the baseline's when it differs", () => {
    const call = row('validate-token', 'read', load(5_000), [0.9, 0.4, 0.2], 1);
    expect(formatReport([call], reportContext)).toContain(
      'share the machine. The server runs at LOG_LEVEL=warn (no line a call).',
    );
    const beside = formatReport([call], {
      ...reportContext,
      compareEntry: '/base/dist/main.js',
      logLevel: { server: 'info', baseline: 'warn' },
    });
    expect(beside).toContain(
      'The server runs at LOG_LEVEL=info, its lines written to a file; the baseline at LOG_LEVEL=warn.',
    );
    const same = formatReport([call], {
      ...reportContext,
      compareEntry: '/base/dist/main.js',
      logLevel: { server: 'info', baseline: 'info' },
    });
    expect(same).toContain('The server runs at LOG_LEVEL=info, its lines written to a file.');
  });

  it('says in how many processes each build ran when either ran in more than one', () => {
    const call = row('validate-token', 'read', load(5_000), [1.2, 0.4, 0.2], 1);
    expect(formatReport([call], reportContext)).not.toContain('process');
    expect(formatReport([call], { ...reportContext, processes: { server: 1 } })).not.toContain(
      'process',
    );
    const beside = (server: number, baseline: number) =>
      formatReport([call], {
        ...reportContext,
        compareEntry: '/base/dist/main.js',
        processes: { server, baseline },
      });
    expect(beside(2, 1)).toContain(
      'LOG_LEVEL=warn (no line a call); in 2 processes (WEB_CONCURRENCY=2, sharing a Redis); the baseline in 1 process.',
    );
    expect(beside(4, 4)).toContain(
      '(no line a call); in 4 processes (WEB_CONCURRENCY=4, sharing a Redis).',
    );
  });
});
