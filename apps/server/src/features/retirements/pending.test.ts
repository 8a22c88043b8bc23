import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { retirements } from '../../db/schema.ts';
import {
  appWithStaffedOrganization,
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  buildRetirement,
  requestRetirementEdit,
  retirementWithPromotedReviewer,
  reviewedRetirement,
  reviewRetirement,
  submittedRetirement,
  type RetirementBody,
} from '../../../test/factories/retirements.ts';
import { auth, type TestApp, type TestUser } from '../../../test/helpers.ts';

/**
 * `GET /retirement/pending`: the retirements whose current step the caller may answer, the same
 * rule as retirementReviewRefusal (policy.ts), oldest submission first.
 */

let t: TestApp;
let org: StaffedOrganization;
let other: StaffedOrganization;

beforeAll(async () => {
  ({ t, org } = await appWithStaffedOrganization());
  other = await buildStaffedOrganization(t.db, { name: 'Other Org' });
});

/** A pending retirement of `owner` in `of` (Group B: finance officer → executive secretary). */
const attachedOf = (owner: TestUser, of: StaffedOrganization = org) =>
  buildRetirement(t.app, {
    owner,
    finance: of.finance,
    reviewers: [of.finance, of.secretary],
    budgetCode: of.budget.code,
    amount: 50_000,
  });

/** The same, submitted: on_progress, waiting for the finance officer's step. */
const submittedOf = async (owner: TestUser, of: StaffedOrganization = org) =>
  submittedRetirement(t.app, owner, await attachedOf(owner, of), { amount_spent: 40_000 });

const pending = (user: { token: string }, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/retirement/pending${query}`,
    headers: auth(user),
  });

const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

/** The ids of the caller's queue (the first 100). */
const queueOf = async (user: { token: string }) => {
  const response = await pending(user, '?per_page=100');
  expect(response.statusCode, response.body).toBe(200);
  return ids(response.json());
};

describe('GET /retirement/pending', () => {
  it('lists a retirement to its step’s role only, and to the next role once the step is answered', async () => {
    const retirement = await submittedOf(org.staff);
    // Any finance officer: the step belongs to the role, not to a person.
    expect(await queueOf(org.finance)).toContain(retirement.id);
    expect(await queueOf(org.finance2)).toContain(retirement.id);
    expect(await queueOf(org.secretary)).not.toContain(retirement.id);
    expect(await queueOf(org.director)).not.toContain(retirement.id);

    const halfway = await reviewedRetirement(t.app, org.finance, retirement, 'approved');
    expect(await queueOf(org.finance)).not.toContain(retirement.id);
    expect(await queueOf(org.finance2)).not.toContain(retirement.id);
    expect(await queueOf(org.secretary)).toContain(retirement.id);

    // Approved: nobody's any more.
    await reviewedRetirement(t.app, org.secretary, halfway, 'approved');
    expect(await queueOf(org.secretary)).not.toContain(retirement.id);
    expect(await queueOf(org.finance)).not.toContain(retirement.id);
  });

  it('never lists the owner’s own retirement, even when the step is the owner’s role', async () => {
    // Zawadi, a finance officer, owns it; her request's finance step was Chausiku's.
    const own = await submittedOf(org.finance2);
    expect(await queueOf(org.finance)).toContain(own.id);
    expect(await queueOf(org.finance2)).not.toContain(own.id);
  });

  it('does not list a step to someone who answered another step of the round (decisions 0019), and lists the next round again', async () => {
    const { moved, retirement, promoted: nowDirector } = await retirementWithPromotedReviewer(t);
    const [row] = await t.db.select().from(retirements).where(eq(retirements.id, retirement.id));
    expect(row?.next_reviewer_role).toBe('director');
    expect(await queueOf(moved.director)).toEqual([retirement.id]);
    expect(await queueOf(nowDirector)).toEqual([]);
    // The list agrees with the review: the promoted reviewer may not answer step 3 either.
    const step3 = retirement.reviews.find((review) => review.round === 1 && review.step === 3);
    const refused = await reviewRetirement(t.app, nowDirector, {
      id: retirement.id,
      review_id: step3?.id,
      status: 'approved',
      comments: 'Approving my own step again',
    });
    expect(refused.statusCode, refused.body).toBe(403);

    // Rejected: nobody's. Resubmitted, round 2 is judged afresh, by anyone of the step's role.
    const rejected = await reviewedRetirement(t.app, moved.director, retirement, 'rejected');
    expect(await queueOf(moved.director)).toEqual([]);
    expect(await queueOf(moved.finance2)).toEqual([]);
    const edit = await requestRetirementEdit(t.app, moved.staff, { id: rejected.id });
    expect(edit.statusCode, edit.body).toBe(200);
    const again = await submittedRetirement(t.app, moved.staff, rejected, {
      amount_spent: 150_000_000,
    });
    const round2 = await reviewedRetirement(t.app, moved.finance2, again, 'approved');
    await reviewedRetirement(t.app, moved.secretary, round2, 'approved');
    expect(await queueOf(moved.director)).toEqual([retirement.id]);
    expect(await queueOf(nowDirector)).toEqual([retirement.id]);
  });

  it('does not list a retirement before it is submitted, nor once rejected', async () => {
    const notSubmitted = await attachedOf(org.otherStaff);
    const toReject = await submittedOf(org.otherStaff);
    expect(await queueOf(org.finance)).toContain(toReject.id);
    expect(await queueOf(org.finance)).not.toContain(notSubmitted.id);
    await reviewedRetirement(t.app, org.finance, toReject, 'rejected');
    expect(await queueOf(org.finance)).not.toContain(toReject.id);
    expect(await queueOf(org.secretary)).not.toContain(toReject.id);
    // The status keeps them out on its own, should a next_reviewer_role be left behind (the code
    // keeps the column; no constraint does).
    await t.db
      .update(retirements)
      .set({ next_reviewer_role: 'finance_officer' })
      .where(inArray(retirements.id, [notSubmitted.id, toReject.id]));
    const queue = await queueOf(org.finance);
    expect(queue).not.toContain(notSubmitted.id);
    expect(queue).not.toContain(toReject.id);
  });

  it('does not list another organisation’s retirements', async () => {
    const theirs = await submittedOf(other.staff, other);
    expect(await queueOf(other.finance)).toContain(theirs.id);
    expect(await queueOf(org.finance)).not.toContain(theirs.id);
  });

  it('answers a role that reviews no step with an empty page', async () => {
    expect(await queueOf(org.finance)).not.toEqual([]);
    for (const user of [org.staff, org.custodian, org.admin]) {
      const response = await pending(user);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ data: [], page: 1, per_page: 10, total: 0 });
    }
  });

  it('pages the queue oldest submission first, counting every match, items as the retirement list shows them', async () => {
    const queue = await buildStaffedOrganization(t.db, { name: 'Queue Org' });
    const a = await attachedOf(queue.staff, queue);
    const b = await attachedOf(queue.staff, queue);
    const c = await attachedOf(queue.otherStaff, queue);
    // Submitted in another order than attached: the queue follows the submission.
    const owners: [RetirementBody, TestUser][] = [
      [c, queue.otherStaff],
      [a, queue.staff],
      [b, queue.staff],
    ];
    for (const [retirement, owner] of owners)
      await submittedRetirement(t.app, owner, retirement, { amount_spent: 40_000 });

    const whole = await pending(queue.finance);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json()).toMatchObject({ page: 1, per_page: 10, total: 3 });
    expect(ids(whole.json())).toEqual([c.id, a.id, b.id]);

    const first = await pending(queue.finance, '?per_page=2');
    expect(first.json()).toMatchObject({ page: 1, per_page: 2, total: 3 });
    expect(ids(first.json())).toEqual([c.id, a.id]);
    const second = await pending(queue.finance, '?per_page=2&page=2');
    expect(second.json()).toMatchObject({ page: 2, per_page: 2, total: 3 });
    expect(ids(second.json())).toEqual([b.id]);
    const past = await pending(queue.finance, '?per_page=2&page=3');
    expect(past.json()).toEqual({ data: [], page: 3, per_page: 2, total: 3 });

    // The same item as GET /retirement/requests presents.
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/retirement/requests?role=finance_officer&per_page=100',
      headers: auth(queue.finance),
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const asListed = (listed.json().data as { id: string }[]).find((item) => item.id === c.id);
    expect(asListed).toBeDefined();
    expect(whole.json().data[0]).toEqual(asListed);
    expect(whole.json().data[0]).toMatchObject({ status: 'on_progress', amount_spent: 40_000 });

    // Submitted at the same instant: by id.
    await t.db
      .update(retirements)
      .set({ submitted_at: new Date('2020-01-01T00:00:00Z') })
      .where(inArray(retirements.id, [a.id, b.id]));
    const [low, high] = [a.id, b.id].sort();
    expect(ids((await pending(queue.finance)).json())).toEqual([low, high, c.id]);
  });

  it.each([
    ['page=0', /page/],
    ['page=abc', /page/],
    ['per_page=0', /per_page/],
    ['per_page=101', /per_page/],
    ['per_page=abc', /per_page/],
  ])('refuses %s with 400', async (query, message) => {
    const response = await pending(org.finance, `?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toMatch(/^Invalid input in the querystring: /);
    expect(response.json().error).toMatch(message);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/retirement/pending' });
    expect(response.statusCode).toBe(401);
  });
});
