import { currentRetirementStep } from '@imprest/domain/retirements.ts';
import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgets } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, review, submit } from '../../../test/factories/requests.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { committedAmount, recomputedCommittedAmount } from './ledger.ts';
import { budgetHistory } from './queries.ts';

/**
 * The ledger's property (issue: "a property test runs random sequences of these events and asserts
 * that the maintained figure always equals the figure recomputed from the rows"): every event that
 * moves a budget's committed amount — submit, resubmit, reject, return, approve, and a retirement's
 * submission, review and resubmission — goes through the HTTP API in a random order, and after each
 * one budgets.committed equals both the figure recomputed from the rows and the figure this test
 * keeps in its own model of what the API answered.
 */

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});

type Retirement = { id: string; status: string; received: number; spent: number | null };
type Chain = {
  id: string;
  owner: TestUser;
  amount: number;
  status: string;
  reviews: { id: string; step: number; reviewer_role: string; status: string }[];
  retirement: Retirement | null;
};

const live = new Set(['pending', 'on_progress', 'approved']);

/** How often each kind of event took effect over all runs, so the property is seen to cover them. */
const happened = new Map<string, number>();
function count(event: string): void {
  happened.set(event, (happened.get(event) ?? 0) + 1);
}

/**
 * What decisions §3 says the requests of `statuses` hold, from the model of the API's answers: each
 * one's amount, or its approved retirement's spending. The live statuses give the committed
 * amount; `approved` alone, the budget history's `spent`.
 */
function expectedCommitted(chains: readonly Chain[], statuses: ReadonlySet<string> = live): number {
  let total = 0;
  for (const chain of chains) {
    if (!statuses.has(chain.status)) continue;
    const retirement = chain.retirement;
    total +=
      retirement?.status === 'approved' && retirement.spent !== null
        ? retirement.spent
        : chain.amount;
  }
  return Math.round(total * 100) / 100;
}

const approvedOnly = new Set(['approved']);

type Command =
  | { kind: 'submit'; owner: 0 | 1; amount: number }
  | { kind: 'review'; pick: number; decision: 'approved' | 'rejected' | 'request_edit' }
  | { kind: 'resubmit'; pick: number; amount: number }
  | { kind: 'attach'; pick: number }
  | { kind: 'retire'; pick: number; spentPercent: number }
  | { kind: 'reviewRetirement'; pick: number; decision: 'approved' | 'rejected' }
  | { kind: 'retirementEdit'; pick: number };

const amount = fc.integer({ min: 1, max: 60_000 }).map((cents) => cents * 5);
// Reviews and the retirement steps are weighted up, so sequences often get as far as an approved
// retirement; the coverage check at the end of the property proves they do.
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      owner: fc.constantFrom(0 as const, 1 as const),
      amount,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('review' as const),
      pick: fc.nat(),
      decision: fc.constantFrom(
        'approved' as const,
        'approved' as const,
        'approved' as const,
        'rejected' as const,
        'request_edit' as const,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('resubmit' as const), pick: fc.nat(), amount }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('attach' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('retire' as const),
      pick: fc.nat(),
      spentPercent: fc.integer({ min: 0, max: 100 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('reviewRetirement' as const),
      pick: fc.nat(),
      decision: fc.constantFrom('approved' as const, 'approved' as const, 'rejected' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('retirementEdit' as const), pick: fc.nat() }),
  },
);

function pickOf<T>(items: readonly T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

function reviewerFor(role: string): TestUser {
  if (role === 'finance_officer') return org.finance;
  if (role === 'executive_secretary') return org.secretary;
  if (role === 'director') return org.director;
  throw new Error(`no reviewer for ${role}`);
}

const post = (user: TestUser, url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: auth(user), payload });

type RequestBody = {
  id: string;
  amount_requested: number;
  current_status: string;
  reviews: Chain['reviews'];
  current_retirement: {
    id: string;
    status: string;
    amountReceived: number;
    amount_spent: number | null;
    reviews: { id: string; round: number; step: number; reviewer_role: string; status: string }[];
  } | null;
};

async function readRequest(chain: Chain): Promise<RequestBody> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/requests/request/${chain.id}`,
    headers: auth(chain.owner),
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** Refreshes the model of one chain from the API, so the model follows what the server answered. */
async function refresh(chain: Chain): Promise<void> {
  const body = await readRequest(chain);
  chain.status = body.current_status;
  chain.amount = body.amount_requested;
  chain.reviews = body.reviews;
  const retirement = body.current_retirement;
  chain.retirement = retirement && {
    id: retirement.id,
    status: retirement.status,
    received: retirement.amountReceived,
    spent: retirement.amount_spent,
  };
}

async function run(chains: Chain[], budgetCode: string, next: Command): Promise<void> {
  switch (next.kind) {
    case 'submit': {
      const owner = next.owner === 0 ? org.staff : org.otherStaff;
      const response = await submit(
        t.app,
        owner,
        requestBody(budgetCode, { amount_requested: next.amount }),
      );
      // A budget that cannot hold the amount refuses it (400) and nothing moves.
      expect([201, 400]).toContain(response.statusCode);
      if (response.statusCode === 201) {
        count('submit');
        const body: RequestBody = response.json();
        chains.push({
          id: body.id,
          owner,
          amount: body.amount_requested,
          status: body.current_status,
          reviews: body.reviews,
          retirement: null,
        });
      }
      return;
    }
    case 'review': {
      const chain = pickOf(
        chains.filter((candidate) => ['pending', 'on_progress'].includes(candidate.status)),
        next.pick,
      );
      const step = chain?.reviews.find((candidate) => candidate.status === 'pending');
      if (!chain || !step) return;
      const response = await review(t.app, reviewerFor(step.reviewer_role), {
        id: step.id,
        request_id: chain.id,
        status: next.decision,
      });
      expect(response.statusCode).toBe(200);
      count(`request ${next.decision}`);
      await refresh(chain);
      return;
    }
    case 'resubmit': {
      const chain = pickOf(
        chains.filter((candidate) => candidate.status === 'request_edit'),
        next.pick,
      );
      if (!chain) return;
      const response = await post(chain.owner, 'requests/request/request-edit', {
        ...requestBody(budgetCode, { amount_requested: next.amount }),
        parent_request: chain.id,
      });
      expect([201, 400]).toContain(response.statusCode);
      if (response.statusCode === 201) {
        // The chain continues as its newest version; the old one no longer counts.
        count('resubmit');
        const body: RequestBody = response.json();
        chain.id = body.id;
        await refresh(chain);
      }
      return;
    }
    case 'attach': {
      const chain = pickOf(
        chains.filter((candidate) => candidate.status === 'approved' && !candidate.retirement),
        next.pick,
      );
      if (!chain) return;
      const response = await post(org.finance, 'retirement/attach-retirement', { id: chain.id });
      expect(response.statusCode).toBe(201);
      await refresh(chain);
      return;
    }
    case 'retire': {
      const chain = pickOf(
        chains.filter((candidate) => candidate.retirement?.status === 'pending'),
        next.pick,
      );
      const retirement = chain?.retirement;
      if (!chain || !retirement) return;
      const spent = Math.round((retirement.received * next.spentPercent) / 100);
      const response = await post(chain.owner, 'retirement/user-submit', {
        id: retirement.id,
        amount_spent: spent,
        amount_currency: 'tzs',
        comments: 'Receipts attached',
      });
      expect(response.statusCode).toBe(200);
      count('retirement submit');
      await refresh(chain);
      return;
    }
    case 'reviewRetirement': {
      const chain = pickOf(
        chains.filter((candidate) => candidate.retirement?.status === 'on_progress'),
        next.pick,
      );
      if (!chain?.retirement) return;
      const body = await readRequest(chain);
      // The current round's first pending step (a rejected round keeps its unreached steps).
      const step = currentRetirementStep(body.current_retirement?.reviews ?? []);
      if (!step) throw new Error('an on_progress retirement without a pending step');
      const response = await post(reviewerFor(step.reviewer_role), 'retirement/review', {
        id: chain.retirement.id,
        review_id: step.id,
        status: next.decision,
        comments: 'Checked the receipts',
      });
      expect(response.statusCode).toBe(200);
      await refresh(chain);
      if (chain.retirement?.status === 'approved') count('retirement approved');
      if (next.decision === 'rejected') count('retirement rejected');
      return;
    }
    case 'retirementEdit': {
      const chain = pickOf(
        chains.filter((candidate) => candidate.retirement?.status === 'rejected'),
        next.pick,
      );
      if (!chain?.retirement) return;
      const response = await post(chain.owner, 'retirement/request-edit', {
        id: chain.retirement.id,
      });
      expect(response.statusCode).toBe(200);
      count('retirement resubmit');
      await refresh(chain);
    }
  }
}

describe('the budget ledger', () => {
  it('keeps budgets.committed equal to the rows through any sequence of events', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 20, maxLength: 60 }), async (commands) => {
        const budget = await buildBudget(t.db, {
          organizationId: org.organizationId,
          amount: 1_000_000,
        });
        const chains: Chain[] = [];
        for (const next of commands) {
          await run(chains, budget.code, next);
          const kept = await committedAmount(t.db, budget.id);
          expect(kept).toBe(await recomputedCommittedAmount(t.db, budget.id));
          expect(kept).toBe(expectedCommitted(chains));
          // The budget's monthly history ends on the same figures: its requests and their
          // approved retirements' spending, read by budget (migration 0028).
          const history = await budgetHistory(t.db, {
            budgetId: budget.id,
            timezone: t.context.config.orgTimezone,
          });
          const lastMonth = history.at(-1);
          expect(Number(lastMonth?.committed)).toBe(kept);
          expect(Number(lastMonth?.spent)).toBe(expectedCommitted(chains, approvedOnly));
          // Never over-committed: submissions are checked under the budget row lock.
          expect(kept).toBeLessThanOrEqual(1_000_000);
        }
      }),
      {
        numRuns: 25,
        // Run first, always: one whole life cycle, so every event below is covered on every run
        // of the suite, whatever the random sequences reach.
        examples: [
          [
            [
              { kind: 'submit', owner: 0, amount: 400_000 },
              { kind: 'submit', owner: 1, amount: 300_000 },
              { kind: 'review', pick: 0, decision: 'approved' },
              { kind: 'review', pick: 0, decision: 'approved' },
              { kind: 'review', pick: 0, decision: 'request_edit' },
              { kind: 'resubmit', pick: 0, amount: 350_000 },
              { kind: 'review', pick: 0, decision: 'rejected' },
              { kind: 'attach', pick: 0 },
              { kind: 'retire', pick: 0, spentPercent: 60 },
              { kind: 'reviewRetirement', pick: 0, decision: 'rejected' },
              { kind: 'retirementEdit', pick: 0 },
              { kind: 'retire', pick: 0, spentPercent: 75 },
              { kind: 'reviewRetirement', pick: 0, decision: 'approved' },
              { kind: 'reviewRetirement', pick: 0, decision: 'approved' },
              { kind: 'submit', owner: 0, amount: 300_000 },
              { kind: 'submit', owner: 1, amount: 300_000 },
            ],
          ],
        ],
      },
    );
    // The sequences reached every event that moves the ledger, retirements included.
    for (const event of [
      'submit',
      'request approved',
      'request rejected',
      'request request_edit',
      'resubmit',
      'retirement submit',
      'retirement approved',
      'retirement rejected',
    ]) {
      expect(happened.get(event) ?? 0, event).toBeGreaterThan(0);
    }
  }, 180_000);

  it('stays exact under writes made outside the application, in bulk', async () => {
    const budget = await buildBudget(t.db, { organizationId: org.organizationId, amount: 5000 });
    const other = await buildBudget(t.db, { organizationId: org.organizationId, amount: 5000 });
    for (const [code, value] of [
      [budget.code, 100],
      [budget.code, 250],
      [other.code, 75],
    ] as const) {
      const response = await submit(
        t.app,
        org.staff,
        requestBody(code, { amount_requested: value }),
      );
      expect(response.statusCode).toBe(201);
    }
    // One statement moving requests of two budgets at once, as a data fix would.
    await t.db.execute(
      `UPDATE requests SET current_status = 'rejected' WHERE budget_id IN ('${budget.id}', '${other.id}') AND amount_requested <> 250`,
    );
    for (const id of [budget.id, other.id]) {
      expect(await committedAmount(t.db, id)).toBe(await recomputedCommittedAmount(t.db, id));
    }
    expect(await committedAmount(t.db, budget.id)).toBe(250);
    expect(await committedAmount(t.db, other.id)).toBe(0);
    // Deleting rows releases what they held.
    await t.db.execute(
      `DELETE FROM reviews WHERE request_id IN (SELECT id FROM requests WHERE budget_id = '${budget.id}')`,
    );
    await t.db.execute(`DELETE FROM requests WHERE budget_id = '${budget.id}'`);
    expect(await committedAmount(t.db, budget.id)).toBe(0);
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, budget.id));
    expect(row?.committed).toBe('0.00');
  });
});
