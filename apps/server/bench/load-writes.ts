/**
 * The writes the load benchmark (load.ts) drives, each call a distinct body or target so that none
 * is answered twice: a submission to one of organisation 0's budgets with room, a review step's
 * approval, one organisation's final approvals, and a retirement's submission by its owner.
 */
import { randomUUID } from 'node:crypto';
import { todayIn } from '@imprest/domain/requests.ts';
import type { Shot } from './load-drive.ts';
import { callFilter, writeTargets } from './load-options.ts';
import type { LoadTargets, Query, ReviewTarget } from './load-targets.ts';
import { config, log, type BenchApp, type BenchUser, type Statement } from './support.ts';

type Headers = Record<string, string>;

/** A write: its first shot, the change each call makes to it, and how many distinct targets it has. */
export type Write = {
  name: string;
  shot: Shot;
  next: (i: number) => Partial<Shot> | null;
  amount?: number;
};

/** The request form's body of the `i`th submission. */
function submitBody(targets: LoadTargets, i: number): string {
  const { submitBudgets, bigBudget } = targets;
  return JSON.stringify({
    amount_requested: 250_000 + i,
    amount_currency: 'tzs',
    purpose: 'travel',
    mode_of_service: 'public',
    name_of_establishment: 'Dar Express',
    expenditure_date: todayIn(config.orgTimezone),
    expenditure_justification: `Bus fares to the Tanga stem park, trip ${i}`,
    tax_status: 'taxInclusive',
    budget_code: submitBudgets[i % submitBudgets.length]?.code ?? bigBudget,
    payment_mode: 'cash',
    file_paths: [],
  });
}

/**
 * The writes, with `used`: how many targets each handed out, as they run (only their budgets are
 * checked afterwards). Signed in as the submitters, each review step's reviewer and each
 * retirement's owner.
 */
export function writeCalls(
  targets: LoadTargets,
  people: {
    submitters: Headers[];
    reviewerHeaders: Map<string, Headers>;
    ownerHeaders: Map<string, Headers>;
  },
): { writes: Write[]; used: { reviews: number; finals: number; retirements: number } } {
  const { reviewTargets, finalTargets, retirementTargets } = targets;
  const { submitters, reviewerHeaders, ownerHeaders } = people;
  /** How many targets each write handed out: only their budgets are checked afterwards. */
  const used = { reviews: 0, finals: 0, retirements: 0 };
  const answer = (target: ReviewTarget | undefined, i: number): Partial<Shot> | null =>
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
  /** Approves each of `list`'s steps in turn, counting them in `used[count]`. */
  const answering = (name: string, list: ReviewTarget[], count: 'reviews' | 'finals'): Write => ({
    name,
    shot: { method: 'PUT', path: 'reviews', headers: {} },
    amount: list.length,
    next: (i) => {
      used[count] = Math.min(i + 1, list.length);
      return answer(list[i], i);
    },
  });
  const writes: Write[] = [
    {
      name: 'submit a request',
      shot: { method: 'POST', path: 'requests', headers: submitters[0] ?? {} },
      next: (i) => ({
        body: submitBody(targets, i),
        headers: { ...submitters[i % submitters.length], 'idempotency-key': randomUUID() },
      }),
    },
    answering('answer a review (approve)', reviewTargets, 'reviews'),
    answering('answer a review (final approval, one organisation)', finalTargets, 'finals'),
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
  return { writes, used };
}

/**
 * The statements each write sends, captured once from the in-process app on the target kept aside
 * for it (load-targets.ts), as the report counts them.
 */
export async function captureWriteStatements(
  targets: LoadTargets,
  query: Query,
  bench: BenchApp,
  capture: (body: () => Promise<unknown>) => Promise<Statement[]>,
): Promise<Map<string, Statement[]>> {
  const { organization, reviewTarget, finalTarget, retirementTarget } = targets;
  const writeStatements = new Map<string, Statement[]>();
  const [submitter] = await query<BenchUser>(
    `SELECT id, organization_id FROM users WHERE organization_id = $1 AND role = 'staff' ORDER BY email LIMIT 1`,
    [organization.id],
  );
  // Who answers a review target's step: a user of its organisation in its role.
  const reviewerOf = async (target: ReviewTarget | undefined) =>
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
      body: submitBody(targets, writeTargets),
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
    const statements = await capture(async () => {
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
  return writeStatements;
}
