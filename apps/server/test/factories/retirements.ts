import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Executor } from '../../src/db/client.ts';
import { retirementReviews, retirements } from '../../src/db/schema.ts';
import { committedAmount, recomputedCommittedAmount } from '../../src/features/budgets/ledger.ts';
import { auth, type TestApp } from '../helpers.ts';
import { buildStaffedOrganization, type StaffedOrganization } from './organizations.ts';
import { requestBody, review, submitted } from './requests.ts';

/**
 * A retirement's life through the API: an approved request, attach, submit, review, resubmit; and
 * what a test compares before and after a refused call (the rows and the budget ledger).
 */

type Reviewer = { token: string };

/** A retirement as the API answers it (the fields tests read). */
export type RetirementBody = {
  id: string;
  request_id: string;
  status: string;
  amountReceived: number;
  amount_spent: number | null;
  amount_currency: string;
  budget_code: string;
  reviews: { id: string; round: number; step: number; reviewer_role: string; status: string }[];
  [key: string]: unknown;
};

/**
 * A request of an owner taken through its chain by the given reviewers (one per step, default
 * matrix: finance officer → executive secretary); answers its id.
 */
export async function approvedRequest(
  app: FastifyInstance,
  options: {
    owner: Reviewer;
    reviewers: readonly Reviewer[];
    budgetCode: string;
    overrides?: Record<string, unknown>;
  },
): Promise<{ id: string; expenditure_date: string }> {
  const request = await submitted(
    app,
    options.owner,
    requestBody(options.budgetCode, { amount_currency: 'tzs', ...options.overrides }),
  );
  for (const [index, reviewer] of options.reviewers.entries()) {
    const step = request.reviews[index];
    if (!step) throw new Error('missing review step');
    const answer = await review(app, reviewer, {
      id: step.id,
      request_id: request.id,
      status: 'approved',
      comments: 'Fine',
    });
    if (answer.statusCode !== 200) throw new Error(`review answered ${answer.body}`);
  }
  return { id: request.id, expenditure_date: request.expenditure_date as string };
}

/** A POST of the retirements API as a user. */
const post = (path: string) => (app: FastifyInstance, user: Reviewer, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: `/api/v1/retirement/${path}`,
    headers: auth(user),
    payload: payload as Record<string, unknown>,
  });

export const attachRetirement = post('attach-retirement');
export const submitRetirement = post('user-submit');
export const reviewRetirement = post('review');
export const requestRetirementEdit = post('request-edit');

/**
 * An approved request of `owner` with a pending retirement attached by `finance`: the set-up of
 * every retirement test. `amount` is the amount requested, so the amount received.
 */
export async function buildRetirement(
  app: FastifyInstance,
  options: {
    owner: Reviewer;
    finance: Reviewer;
    reviewers: readonly Reviewer[];
    budgetCode: string;
    amount?: number;
  },
): Promise<RetirementBody> {
  const request = await approvedRequest(app, {
    ...options,
    overrides: options.amount === undefined ? {} : { amount_requested: options.amount },
  });
  const response = await attachRetirement(app, options.finance, { id: request.id });
  if (response.statusCode !== 201) throw new Error(`attach answered ${response.body}`);
  return response.json().current_retirement;
}

/** Submits a retirement that must succeed (in its own currency), and answers it. */
export async function submittedRetirement(
  app: FastifyInstance,
  owner: Reviewer,
  retirement: { id: string; amount_currency: string },
  overrides: Record<string, unknown> = {},
): Promise<RetirementBody> {
  const response = await submitRetirement(app, owner, {
    id: retirement.id,
    amount_spent: 0,
    amount_currency: retirement.amount_currency,
    comments: 'Receipts attached',
    file_paths: [],
    ...overrides,
  });
  if (response.statusCode !== 200) throw new Error(`submit answered ${response.body}`);
  return response.json();
}

/** Answers the first pending step of a retirement's current round; it must succeed. */
export async function reviewedRetirement(
  app: FastifyInstance,
  reviewer: Reviewer,
  retirement: RetirementBody,
  status: 'approved' | 'rejected',
  extra: Record<string, unknown> = {},
): Promise<RetirementBody> {
  const round = Math.max(...retirement.reviews.map((step) => step.round));
  const step = retirement.reviews.find(
    (candidate) => candidate.round === round && candidate.status === 'pending',
  );
  if (!step) throw new Error('no pending step');
  const response = await reviewRetirement(app, reviewer, {
    id: retirement.id,
    review_id: step.id,
    status,
    comments: `${status} by test`,
    ...extra,
  });
  if (response.statusCode !== 200) throw new Error(`review answered ${response.body}`);
  return response.json();
}

/** Everything stored of a retirement, to assert that a refused call changed nothing. */
export async function retirementState(db: Executor, retirementId: string) {
  const [row] = await db.select().from(retirements).where(eq(retirements.id, retirementId));
  const reviews = await db
    .select()
    .from(retirementReviews)
    .where(eq(retirementReviews.retirement_id, retirementId))
    .orderBy(asc(retirementReviews.round), asc(retirementReviews.step));
  return { row, reviews };
}

/** A budget's committed amount as kept by the ledger, checked against the recomputed figure. */
export async function checkedCommitted(db: Executor, budgetId: string): Promise<number> {
  const kept = await committedAmount(db, budgetId);
  const recomputed = await recomputedCommittedAmount(db, budgetId);
  if (kept !== recomputed)
    throw new Error(`budget ${budgetId}: committed ${kept} but recomputed ${recomputed}`);
  return kept;
}

/**
 * A checker of refused calls on one budget's retirements: the call must answer `status` and
 * `error`, and change nothing — the retirement row, its reviews, and the budget's committed amount
 * (kept equal to the recomputed one).
 */
export function refusalChecker(db: Executor, budgetId: string) {
  return async (
    retirement: { id: string },
    call: () => Promise<LightMyRequestResponse>,
    status: number,
    error: string | RegExp,
  ): Promise<void> => {
    const before = await retirementState(db, retirement.id);
    const committed = await checkedCommitted(db, budgetId);
    const response = await call();
    expect(response.statusCode, response.body).toBe(status);
    if (typeof error === 'string') expect(response.json().error).toBe(error);
    else expect(response.json().error).toMatch(error);
    expect(await retirementState(db, retirement.id)).toEqual(before);
    expect(await checkedCommitted(db, budgetId)).toBe(committed);
  };
}

/**
 * Decision 0019's case in an organisation of its own: a Group A retirement (200,000,000 tzs:
 * finance officer → executive secretary → director) whose finance officer answered step 1 and was
 * then made director, signing in again as one; the secretary answered step 2, so step 3, the
 * director's, waits. Returns the organisation, the retirement as step 2 left it and the promoted
 * reviewer's new session.
 */
export async function retirementWithPromotedReviewer(t: TestApp): Promise<{
  moved: StaffedOrganization;
  retirement: RetirementBody;
  promoted: Reviewer;
}> {
  const moved = await buildStaffedOrganization(t.db, { name: 'Moved Org' });
  const attached = await buildRetirement(t.app, {
    owner: moved.staff,
    finance: moved.finance,
    reviewers: [moved.finance, moved.secretary, moved.director],
    budgetCode: moved.budget.code,
    amount: 200_000_000,
  });
  const submitted = await submittedRetirement(t.app, moved.staff, attached, {
    amount_spent: 150_000_000,
  });
  const first = await reviewedRetirement(t.app, moved.finance, submitted, 'approved');
  const promotion = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/users',
    headers: auth(moved.director),
    payload: { user_id: moved.finance.id, role: 'director' },
  });
  expect(promotion.statusCode, promotion.body).toBe(200);
  // A change of position ends the user's sessions: they sign in again as a director.
  const signIn = await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/authenticate',
    payload: { email: moved.finance.email, password: moved.finance.password },
  });
  expect(signIn.statusCode, signIn.body).toBe(200);
  const promoted = { token: signIn.json().token as string };
  const retirement = await reviewedRetirement(t.app, moved.secretary, first, 'approved');
  return { moved, retirement, promoted };
}
