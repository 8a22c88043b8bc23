import { approvalNumber, yearIn } from '@imprest/domain/requests.ts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  approvalSequences,
  budgets,
  emailOutbox,
  requestStatusCounts,
  requests,
  reviews,
} from '../db/schema.ts';
import { queues } from '../features/jobs/worker.ts';
import { buildBudget } from '../../test/factories/budgets.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../test/factories/organizations.ts';
import { requestBody } from '../../test/factories/requests.ts';
import { createTestApp, type TestApp, type TestUser } from '../../test/helpers.ts';
import { startServerProcess, stopAllProcesses, type ServerProcess } from '../../test/processes.ts';

// SIGKILL in the middle of a burst of 200 concurrent writes (submissions and review answers,
// over HTTP to a real server process), then a restart on the same database: every write that was
// answered 2xx is stored, nothing is half-written, and every budget's committed amount still
// equals what its rows add up to (budget_committed_recomputed, migration 0008).

let t: TestApp;
let org: StaffedOrganization;
let budgetCodes: string[];
let server: ServerProcess;

beforeAll(async () => {
  t = await createTestApp();
  // Registered after the test database's own clean-up, so it runs before the database is dropped.
  afterAll(stopAllProcesses);
  org = await buildStaffedOrganization(t.db);
  const more = await Promise.all(
    [0, 1, 2].map(() =>
      buildBudget(t.db, { organizationId: org.organizationId, amount: 1_000_000_000 }),
    ),
  );
  budgetCodes = [org.budget.code, ...more.map((budget) => budget.code)];
  server = await startServerProcess({
    name: 'server',
    env: { DATABASE_URL: t.databaseUrl },
  });
}, 120_000);

afterAll(stopAllProcesses);

type Answer = { status: number; body: Record<string, unknown> } | { lost: string };

async function send(
  target: ServerProcess,
  method: 'POST' | 'PUT',
  path: string,
  user: TestUser,
  body: unknown,
): Promise<Answer> {
  try {
    const response = await fetch(`${target.url}/api/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch (error) {
    return { lost: error instanceof Error ? String(error.cause ?? error.message) : String(error) };
  }
}

/** Runs `tasks` with at most `width` at a time; answers their results in order. */
async function inBatches<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < tasks.length; start += width) {
    results.push(...(await Promise.all(tasks.slice(start, start + width).map((task) => task()))));
  }
  return results;
}

type Submitted = { id: string; reviews: { id: string; step: number }[] };

function submitted(answer: Answer): Submitted {
  if ('lost' in answer || answer.status !== 201)
    throw new Error(`set-up write failed: ${JSON.stringify(answer)}`);
  return answer.body as unknown as Submitted;
}

/** A write of the burst, what it should leave in the database, and what it was answered. */
type Write =
  | { kind: 'submit'; marker: string; budgetCode: string; answer?: Answer }
  | {
      kind: 'review';
      requestId: string;
      reviewId: string;
      decision: 'approved' | 'rejected' | 'request_edit';
      reviewer: TestUser;
      answer?: Answer;
    };

const isAcknowledged = (write: Write): boolean =>
  write.answer !== undefined && 'status' in write.answer && write.answer.status < 300;

describe('SIGKILL during a burst of writes', () => {
  it('keeps every acknowledged write, half-writes none, and keeps the ledger exact', async () => {
    const owners = [org.staff, org.otherStaff];
    const codeFor = (index: number): string => budgetCodes[index % budgetCodes.length] ?? '';
    const submitThrough = (index: number, marker: string, budgetCode = codeFor(index)) =>
      send(
        server,
        'POST',
        '/requests',
        owners[index % 2] ?? org.staff,
        requestBody(budgetCode, {
          amount_requested: 1000 + index,
          expenditure_justification: marker,
        }),
      );

    const setupStart = performance.now();
    // Before the burst: 30 requests awaiting their first review, 30 awaiting their second.
    const awaitingFirst = (
      await inBatches(
        Array.from({ length: 30 }, (_, index) => () => submitThrough(index, `first ${index}`)),
        20,
      )
    ).map(submitted);
    const awaitingSecond = (
      await inBatches(
        Array.from({ length: 30 }, (_, index) => () => submitThrough(index, `second ${index}`)),
        20,
      )
    ).map(submitted);
    await inBatches(
      awaitingSecond.map((request) => async () => {
        const first = request.reviews.find((review) => review.step === 1);
        const answer = await send(server, 'PUT', '/reviews', org.finance, {
          id: first?.id,
          request_id: request.id,
          status: 'approved',
        });
        if ('lost' in answer || answer.status !== 200)
          throw new Error(`set-up review failed: ${JSON.stringify(answer)}`);
      }),
      20,
    );

    // The burst: 140 submissions, 30 first answers (approve or reject), 30 second answers
    // (approve, which numbers the request, or return for edits), in a shuffled order.
    const writes: Write[] = [
      ...Array.from({ length: 140 }, (_, index): Write => ({
        kind: 'submit',
        marker: `burst ${index}`,
        budgetCode: codeFor(index),
      })),
      ...awaitingFirst.map((request, index): Write => ({
        kind: 'review',
        requestId: request.id,
        reviewId: request.reviews.find((review) => review.step === 1)?.id ?? '',
        decision: index % 2 === 0 ? 'approved' : 'rejected',
        reviewer: index % 3 === 0 ? org.finance2 : org.finance,
      })),
      ...awaitingSecond.map((request, index): Write => ({
        kind: 'review',
        requestId: request.id,
        reviewId: request.reviews.find((review) => review.step === 2)?.id ?? '',
        decision: index % 5 === 0 ? 'request_edit' : 'approved',
        reviewer: org.secretary,
      })),
    ];
    // A fixed shuffle (a linear congruential sequence), so every run interleaves alike.
    let seed = 7;
    for (let index = writes.length - 1; index > 0; index -= 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const other = seed % (index + 1);
      [writes[index], writes[other]] = [writes[other] as Write, writes[index] as Write];
    }

    const setupMs = performance.now() - setupStart;
    // The kill comes when half the burst has committed, as the database itself counts it.
    // Reviews answered before the burst: the first steps of the requests awaiting their second.
    const answeredBefore = awaitingSecond.length;
    const committedSoFar = async (): Promise<number> => {
      const [row] = (
        await t.db.execute<{ count: number }>(sql`
          SELECT (SELECT count(*) FROM requests
                  WHERE organization_id = ${org.organizationId}
                    AND expenditure_justification LIKE 'burst %')
               + (SELECT count(*) FROM reviews
                  WHERE organization_id = ${org.organizationId} AND status <> 'pending')
               - ${answeredBefore} AS count`)
      ).rows;
      return Number(row?.count ?? 0);
    };
    let committedAtKill = -1;
    let killedAt = -1;
    let isBurstOver = false;
    const burstStart = performance.now();
    const burst = Promise.all(
      writes.map(async (write, index) => {
        write.answer =
          write.kind === 'submit'
            ? await submitThrough(index, write.marker, write.budgetCode)
            : await send(server, 'PUT', '/reviews', write.reviewer, {
                id: write.reviewId,
                request_id: write.requestId,
                status: write.decision,
              });
      }),
    ).finally(() => {
      isBurstOver = true;
    });
    while (!isBurstOver) {
      const committed = await committedSoFar();
      if (committed >= writes.length / 2) {
        server.signal('SIGKILL');
        killedAt = performance.now() - burstStart;
        committedAtKill = committed;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await burst;
    expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const burstMs = performance.now() - burstStart;

    const acknowledged = writes.filter(isAcknowledged);
    const refused = writes.filter(
      (write) => write.answer && 'status' in write.answer && write.answer.status >= 300,
    );
    const lost = writes.filter((write) => write.answer && 'lost' in write.answer);
    // The kill did land in the middle: some writes were answered, some lost their answer.
    expect(committedAtKill).toBeGreaterThanOrEqual(writes.length / 2);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);
    // Every write of the burst is valid: none is refused, whatever the order.
    expect(refused.map((write) => write.answer)).toEqual([]);

    // The same database, a new process: it starts by itself and serves.
    server = await startServerProcess({ name: 'restarted', env: { DATABASE_URL: t.databaseUrl } });
    const after = await submitThrough(0, 'after the restart');
    expect('status' in after && after.status).toBe(201);

    // 1. Every acknowledged write is stored.
    const storedRequests = await t.db
      .select()
      .from(requests)
      .where(eq(requests.organization_id, org.organizationId));
    const storedReviews = await t.db
      .select()
      .from(reviews)
      .where(eq(reviews.organization_id, org.organizationId));
    const byMarker = new Map(storedRequests.map((row) => [row.expenditure_justification, row]));
    const reviewById = new Map(storedReviews.map((row) => [row.id, row]));
    const isStored = (write: Write): boolean => {
      if (write.kind === 'submit') {
        const row = byMarker.get(write.marker);
        return row !== undefined && row.budget_code === write.budgetCode;
      }
      const row = reviewById.get(write.reviewId);
      return row?.status === write.decision && row.reviewer_id === write.reviewer.id;
    };
    expect(acknowledged.filter((write) => !isStored(write))).toEqual([]);
    for (const write of acknowledged) {
      if (write.kind !== 'submit' || !write.answer || !('status' in write.answer)) continue;
      expect(byMarker.get(write.marker)?.id).toBe(write.answer.body.id);
    }

    // 2. Nothing half-written: each request has its whole reviewer chain, and its status, next
    // reviewer and approval number agree with the answers in it.
    const chains = new Map<string, typeof storedReviews>();
    for (const review of storedReviews) {
      chains.set(review.request_id, [...(chains.get(review.request_id) ?? []), review]);
    }
    const broken: string[] = [];
    for (const request of storedRequests) {
      const chain = (chains.get(request.id) ?? []).sort((x, y) => x.step - y.step);
      const statuses = chain.map((review) => review.status);
      const firstPending = chain.find((review) => review.status === 'pending');
      const expected = expectedStatus(statuses);
      const firstUnapproved = statuses.findIndex((status) => status !== 'approved');
      const problems = [
        chain.map((review) => review.step).join() !== '1,2' && 'chain is not steps 1 and 2',
        firstUnapproved >= 0 &&
          statuses.slice(firstUnapproved + 1).some((status) => status !== 'pending') &&
          `answered out of order: ${statuses}`,
        expected !== request.current_status && `status ${request.current_status} for ${statuses}`,
        (request.approval_number !== null) !== (request.current_status === 'approved') &&
          'approval number and status disagree',
        request.next_reviewer_role !==
          (expected === 'pending' || expected === 'on_progress'
            ? (firstPending?.reviewer_role ?? null)
            : null) && 'next reviewer role is stale',
      ].filter(Boolean);
      if (problems.length > 0) broken.push(`${request.id}: ${problems.join('; ')}`);
    }
    expect(broken).toEqual([]);

    // Approval numbers run 1…n without a gap or a double, and the sequence stands at n.
    const year = yearIn(t.context.config.orgTimezone);
    const numbers = storedRequests
      .map((request) => request.approval_number)
      .filter((number): number is string => number !== null)
      .sort();
    expect(numbers).toEqual(
      Array.from({ length: numbers.length }, (_, index) => approvalNumber(year, index + 1)),
    );
    const [sequence] = await t.db
      .select({ last: approvalSequences.last_value })
      .from(approvalSequences)
      .where(
        and(
          eq(approvalSequences.organization_id, org.organizationId),
          eq(approvalSequences.year, year),
        ),
      );
    expect(sequence?.last ?? 0).toBe(numbers.length);

    // The statement-trigger counts agree with the rows.
    const counted = await t.db
      .select({
        status: requestStatusCounts.current_status,
        count: sql<number>`sum(${requestStatusCounts.requests})::int`,
      })
      .from(requestStatusCounts)
      .where(eq(requestStatusCounts.organization_id, org.organizationId))
      .groupBy(requestStatusCounts.current_status);
    const actual = new Map<string, number>();
    for (const request of storedRequests.filter((row) => row.is_latest)) {
      actual.set(request.current_status, (actual.get(request.current_status) ?? 0) + 1);
    }
    expect(
      Object.fromEntries(
        counted.filter((row) => row.count !== 0).map((row) => [row.status, row.count]),
      ),
    ).toEqual(Object.fromEntries(actual));

    // Every e-mail in the outbox has its send job, and every job its e-mail: both or neither.
    const outbox = await t.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(eq(emailOutbox.organization_id, org.organizationId));
    const jobs = await t.db.execute<{ id: string }>(
      sql`SELECT data->>'id' AS id FROM pgboss.job WHERE name = ${queues.sendEmail}`,
    );
    expect(outbox.length).toBeGreaterThan(0);
    expect(new Set(jobs.rows.map((row) => row.id))).toEqual(new Set(outbox.map((row) => row.id)));

    // 3. The ledger: each budget's committed amount is what its rows add up to.
    const ledger = await t.db
      .select({
        code: budgets.code,
        committed: budgets.committed,
        recomputed: sql<string>`budget_committed_recomputed(${budgets.id})`,
      })
      .from(budgets)
      .where(eq(budgets.organization_id, org.organizationId));
    expect(ledger).toHaveLength(budgetCodes.length);
    expect(ledger.filter((row) => Number(row.committed) !== Number(row.recomputed))).toEqual([]);

    const lostButStored = lost.filter(isStored);
    const figures = {
      writes: writes.length,
      setupMs: Math.round(setupMs),
      burstMs: Math.round(burstMs),
      killedAfterMs: Math.round(killedAt),
      committedAtKill,
      acknowledged: acknowledged.length,
      lostTheirAnswer: lost.length,
      lostButCommitted: lostButStored.length,
      lostAndRolledBack: lost.length - lostButStored.length,
      approvalNumbers: numbers.length,
    };
    console.info(`durability: ${JSON.stringify(figures)}`);
  }, 60_000);
});

/** The request status its reviewer chain leads to (spec §4), for a chain written whole. */
function expectedStatus(statuses: string[]): string {
  if (statuses.includes('rejected')) return 'rejected';
  if (statuses.includes('request_edit')) return 'request_edit';
  if (statuses.every((status) => status === 'approved')) return 'approved';
  if (statuses.some((status) => status === 'approved')) return 'on_progress';
  return 'pending';
}
