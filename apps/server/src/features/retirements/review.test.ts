import { and, eq, inArray, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, retirementReviews, retirements } from '../../db/schema.ts';
import { sendReviewReminders } from '../notifications/daily.ts';
import { anotherRetirementStepRefusal } from './policy.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  buildRetirement,
  checkedCommitted,
  refusalChecker,
  requestRetirementEdit,
  retirementWithPromotedReviewer,
  reviewedRetirement,
  reviewRetirement,
  submittedRetirement,
  type RetirementBody,
} from '../../../test/factories/retirements.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { recipientsOf } from '../../../test/outbox.ts';

let t: TestApp;
let org: StaffedOrganization;
let other: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  other = await buildStaffedOrganization(t.db, { name: 'Other Org' });
});

/** A retirement of `owner` for 500,000 tzs received, submitted with `spent`. */
async function submittedOf(owner: TestUser = org.staff, spent = 300_000): Promise<RetirementBody> {
  const retirement = await buildRetirement(t.app, {
    owner,
    finance: org.finance,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    amount: 500_000,
  });
  return submittedRetirement(t.app, owner, retirement, { amount_spent: spent });
}

const stepOf = (retirement: RetirementBody, step: number, round = 1) => {
  const found = retirement.reviews.find((review) => review.step === step && review.round === round);
  if (!found) throw new Error(`no step ${step} of round ${round}`);
  return found;
};

const answer = (
  user: TestUser,
  retirement: RetirementBody,
  step: number,
  extra: Record<string, unknown> = {},
) =>
  reviewRetirement(t.app, user, {
    id: retirement.id,
    review_id: stepOf(retirement, step).id,
    status: 'approved',
    comments: 'Checked',
    ...extra,
  });

const refused = (...args: Parameters<ReturnType<typeof refusalChecker>>) =>
  refusalChecker(t.db, org.budget.id)(...args);

/** Remaining Balance as the budget page shows it: amount − the balance call's total (decisions §8). */
const available = async () =>
  Number(org.budget.amount) -
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/budget/${org.budget.code}/balance?amount=1`,
      headers: auth(org.finance),
    })
  ).json().total;

const readRequest = async (id: string) =>
  (
    await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${id}`,
      headers: auth(org.staff),
    })
  ).json();

describe('POST /retirement/review', () => {
  it('walks the chain: finance approves, the secretary approves, the budget gets the unspent cash back', async () => {
    const retirement = await submittedOf();
    const committedBefore = await checkedCommitted(t.db, org.budget.id);
    const availableBefore = await available();
    expect((await readRequest(retirement.request_id)).owner_unretired_total).toBeGreaterThan(0);
    const unretiredBefore = (await readRequest(retirement.request_id)).owner_unretired_total;

    const first = await reviewedRetirement(t.app, org.finance, retirement, 'approved');
    expect(first.status).toBe('on_progress');
    expect(stepOf(first, 1)).toMatchObject({
      status: 'approved',
      reviewer_id: org.finance.id,
      reviewer_name: 'Chausiku Finance',
      reviewer_title: 'Finance Officer',
      comments: 'approved by test',
      reviewed_at: expect.any(String),
    });
    const [row] = await t.db.select().from(retirements).where(eq(retirements.id, retirement.id));
    expect(row?.next_reviewer_role).toBe('executive_secretary');
    expect(await checkedCommitted(t.db, org.budget.id)).toBe(committedBefore);

    t.events.length = 0;
    const done = await reviewedRetirement(t.app, org.secretary, first, 'approved', {
      is_funds_returned: true,
    });
    expect(done).toMatchObject({ status: 'approved', is_funds_returned: true });
    expect(stepOf(done, 2)).toMatchObject({ status: 'approved', is_funds_returned: true });
    const [approved] = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.id, retirement.id));
    expect(approved?.next_reviewer_role).toBeNull();
    expect(t.events.map((event) => [event.event, event.payload])).toEqual([
      ['retirement_updated', { retirement_id: retirement.id, request_id: retirement.request_id }],
      ['request_updated', { request_id: retirement.request_id }],
      ['budget_updated', { code: org.budget.code }],
    ]);
    // Received 500,000, spent 300,000: the committed amount falls by 200,000.
    expect(await checkedCommitted(t.db, org.budget.id)).toBe(committedBefore - 200_000);
    expect(await available()).toBe(availableBefore + 200_000);
    const request = await readRequest(retirement.request_id);
    expect(request.current_retirement.status).toBe('approved');
    expect(request.owner_unretired_total).toBe(unretiredBefore - 500_000);
  });

  it('rejects: the retirement is rejected and the ledger does not move', async () => {
    const retirement = await submittedOf();
    const committed = await checkedCommitted(t.db, org.budget.id);
    t.events.length = 0;
    const rejected = await reviewedRetirement(t.app, org.finance, retirement, 'rejected');
    expect(rejected.status).toBe('rejected');
    expect(rejected.reviews.map((review) => review.status)).toEqual(['rejected', 'pending']);
    expect(t.events.map((event) => event.event)).toEqual(['retirement_updated', 'request_updated']);
    expect(await checkedCommitted(t.db, org.budget.id)).toBe(committed);
    const [row] = await t.db.select().from(retirements).where(eq(retirements.id, retirement.id));
    expect(row?.next_reviewer_role).toBeNull();
    const request = await readRequest(retirement.request_id);
    expect(request.owner_oldest_due_date).toBe(retirement.due_date);
  });

  it('refuses reviewers of the wrong role with 403 and the owner with 403', async () => {
    const retirement = await submittedOf();
    for (const user of [org.secretary, org.director, org.custodian, org.admin]) {
      await refused(
        retirement,
        () => answer(user, retirement, 1),
        403,
        'Only a Finance Officer can answer this review.',
      );
    }
    const own = await submittedOf(org.finance2);
    await refused(
      own,
      () => answer(org.finance2, own, 1),
      403,
      'You cannot review your own retirement.',
    );
  });

  it('hides it from other staff and other organisations with 404', async () => {
    const retirement = await submittedOf();
    for (const user of [org.otherStaff, other.finance, other.secretary]) {
      await refused(
        retirement,
        () => answer(user, retirement, 1),
        404,
        "Error! Couldn't find the retirement.",
      );
    }
    await refused(
      retirement,
      () => answer(org.finance, retirement, 1, { id: '00000000-0000-4000-8000-000000000000' }),
      404,
      "Error! Couldn't find the retirement.",
    );
    const elsewhere = await submittedOf();
    await refused(
      retirement,
      () => answer(org.finance, retirement, 1, { review_id: stepOf(elsewhere, 1).id }),
      404,
      "This review does not belong to the retirement's current submission.",
    );
  });

  it('refuses a step out of turn, a second answer and an answer to a retirement not under review with 409', async () => {
    const retirement = await submittedOf();
    await refused(
      retirement,
      () => answer(org.secretary, retirement, 2),
      409,
      "It is not this review's turn yet: the First Reviewer (Finance Officer) answers first.",
    );
    expect((await answer(org.finance, retirement, 1)).statusCode).toBe(200);
    await refused(
      retirement,
      () => answer(org.finance2, retirement, 1, { status: 'rejected' }),
      409,
      'This review has already been answered.',
    );
    const rejected = await submittedOf();
    expect((await answer(org.finance, rejected, 1, { status: 'rejected' })).statusCode).toBe(200);
    await refused(
      rejected,
      () => answer(org.secretary, rejected, 2),
      409,
      'This retirement no longer awaits review.',
    );
  });

  it('refuses Cash Returned when nothing is left over with 400', async () => {
    const retirement = await submittedOf(org.staff, 500_000);
    await refused(
      retirement,
      () => answer(org.finance, retirement, 1, { is_funds_returned: true }),
      400,
      'Cash Returned applies only when less was spent than received; nothing is left to return.',
    );
  });

  it.each([
    [{ status: 'request_edit' }, /status must be approved or rejected/],
    [{ review_id: 'x' }, /review_id must be the UUID of the review/],
    [{ is_funds_returned: 'yes' }, /is_funds_returned must be true or false/],
  ])('refuses %j with 400', async (extra, error) => {
    const retirement = await submittedOf();
    await refused(retirement, () => answer(org.finance, retirement, 1, extra), 400, error);
  });

  it('answers 401 without a token, before looking at the body', async () => {
    for (const url of ['/api/v1/retirement/review', '/api/v1/retirement/request-edit']) {
      const response = await t.app.inject({ method: 'POST', url, payload: { id: 'bad' } });
      expect(response.statusCode).toBe(401);
    }
  });

  it('lets exactly one of two finance officers approving the same step at once succeed', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const retirement = await submittedOf();
      const responses = await Promise.all([
        answer(org.finance, retirement, 1),
        answer(org.finance2, retirement, 1, { status: 'rejected' }),
      ]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const answered = await t.db
        .select()
        .from(retirementReviews)
        .where(
          and(
            eq(retirementReviews.retirement_id, retirement.id),
            eq(retirementReviews.status, 'pending'),
          ),
        );
      expect(answered).toHaveLength(1);
      expect(await checkedCommitted(t.db, org.budget.id)).toBeGreaterThan(0);
    }
  });
});

describe('POST /retirement/request-edit and resubmission', () => {
  it('rejected → request-edit → submitted again as round 2 → approved', async () => {
    const retirement = await submittedOf();
    const rejected = await reviewedRetirement(t.app, org.finance, retirement, 'rejected');
    t.events.length = 0;
    const response = await requestRetirementEdit(t.app, org.staff, { id: retirement.id });
    expect(response.statusCode, response.body).toBe(200);
    const reopened = response.json();
    // Amount, comments and files stay, so the form opens filled in.
    expect(reopened).toMatchObject({
      status: 'pending',
      amount_spent: 300_000,
      comments: 'Receipts attached',
      reviews: rejected.reviews,
    });
    expect(t.events.map((event) => event.event)).toEqual(['retirement_updated', 'request_updated']);

    const committed = await checkedCommitted(t.db, org.budget.id);
    const again = await submittedRetirement(t.app, org.staff, reopened, { amount_spent: 450_000 });
    expect(again.status).toBe('on_progress');
    expect(again.reviews.map((review) => [review.round, review.step, review.status])).toEqual([
      [1, 1, 'rejected'],
      [1, 2, 'pending'],
      [2, 1, 'pending'],
      [2, 2, 'pending'],
    ]);
    // A review of the earlier round is no longer answerable.
    await refused(
      again,
      () => answer(org.secretary, again, 2),
      404,
      "This review does not belong to the retirement's current submission.",
    );
    const first = await reviewedRetirement(t.app, org.finance, again, 'approved');
    const done = await reviewedRetirement(t.app, org.secretary, first, 'approved');
    expect(done.status).toBe('approved');
    expect(await checkedCommitted(t.db, org.budget.id)).toBe(committed - 50_000);
  });

  it('judges Cash Returned afresh in a new round: a mark of the rejected round does not carry over', async () => {
    const retirement = await submittedOf(org.staff, 300_000);
    const marked = await reviewedRetirement(t.app, org.finance, retirement, 'approved', {
      is_funds_returned: true,
    });
    expect(marked.is_funds_returned).toBe(true);
    await reviewedRetirement(t.app, org.secretary, marked, 'rejected');
    const reopened = (await requestRetirementEdit(t.app, org.staff, { id: retirement.id })).json();
    // Everything received was spent this time: nothing is left over to return.
    const again = await submittedRetirement(t.app, org.staff, reopened, { amount_spent: 500_000 });
    expect(again.is_funds_returned).toBe(false);
    const first = await reviewedRetirement(t.app, org.finance, again, 'approved');
    const done = await reviewedRetirement(t.app, org.secretary, first, 'approved');
    expect(done).toMatchObject({ status: 'approved', is_funds_returned: false });
    const [row] = await t.db.select().from(retirements).where(eq(retirements.id, retirement.id));
    expect(row?.is_funds_returned).toBe(false);
  });

  it('refuses anyone but the owner and any status but rejected', async () => {
    const retirement = await submittedOf();
    await refused(
      retirement,
      () => requestRetirementEdit(t.app, org.staff, { id: retirement.id }),
      409,
      'Only a rejected retirement can be resubmitted.',
    );
    await reviewedRetirement(t.app, org.finance, retirement, 'rejected');
    for (const user of [org.finance, org.secretary, org.director, org.admin]) {
      await refused(
        retirement,
        () => requestRetirementEdit(t.app, user, { id: retirement.id }),
        403,
        'Only the owner of a retirement can ask to resubmit it.',
      );
    }
    for (const user of [org.otherStaff, other.staff, other.director]) {
      await refused(
        retirement,
        () => requestRetirementEdit(t.app, user, { id: retirement.id }),
        404,
        "Error! Couldn't find the retirement.",
      );
    }
    const pending = await buildRetirement(t.app, {
      owner: org.staff,
      finance: org.finance,
      reviewers: [org.finance, org.secretary],
      budgetCode: org.budget.code,
    });
    await refused(
      pending as RetirementBody,
      () => requestRetirementEdit(t.app, org.staff, { id: pending.id }),
      409,
      'Only a rejected retirement can be resubmitted.',
    );
  });
});

describe('one person answers one step of a retirement round (docs/decisions/0019)', () => {
  it('a finance officer made director after answering step 1 neither hears of nor answers step 3', async () => {
    const {
      moved,
      retirement: second,
      promoted: nowDirector,
    } = await retirementWithPromotedReviewer(t);
    const step3 = stepOf(second, 3);
    expect(step3).toMatchObject({ reviewer_role: 'director', status: 'pending' });
    // Step 3's "awaits your review" e-mail goes to the director, not to the promoted reviewer
    // (notificationKey: retirement.<id>.round.<n>.<kind>.<step>.<user>).
    const people = inArray(emailOutbox.to_address, [moved.director.email, moved.finance.email]);
    const toldOfStep3 = await recipientsOf(
      t.db,
      'review_requested',
      like(emailOutbox.idempotency_key, `retirement.${second.id}.round.1.review_requested.3.%`),
      people,
    );
    expect(toldOfStep3).toEqual([moved.director.email]);

    await refusalChecker(t.db, moved.budget.id)(
      second,
      () =>
        reviewRetirement(t.app, nowDirector, {
          id: second.id,
          review_id: step3.id,
          status: 'approved',
          comments: 'Approving my own step again',
        }),
      403,
      anotherRetirementStepRefusal,
    );

    // Nor does the reminder digest list it for them once the step is late.
    await sendReviewReminders(t.context, { today: '2099-01-05' });
    expect(await recipientsOf(t.db, 'review_reminder', people)).toEqual([moved.director.email]);

    // Someone else in the role answers it.
    const done = await reviewedRetirement(t.app, moved.director, second, 'approved');
    expect(done.status).toBe('approved');
  });
});
