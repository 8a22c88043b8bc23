import { messages } from '@imprest/domain/messages.ts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests, reviews, users } from '../../db/schema.ts';
import { budgetBalance, type BudgetRow } from '../budgets/ledger.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, review, submitted } from '../../../test/factories/requests.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let organizationId: string;
let staff: TestUser;
let otherStaff: TestUser;
let finance: TestUser;
let finance2: TestUser;
let secretary: TestUser;
let director: TestUser;
let budget: BudgetRow;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, staff, otherStaff, finance, finance2, secretary, director, budget } =
    await buildStaffedOrganization(t.db));
});

type Submitted = Awaited<ReturnType<typeof submitted>>;
const newRequest = (overrides: Record<string, unknown> = {}, owner: TestUser = staff) =>
  submitted(t.app, owner, requestBody('6105', overrides));
const stepOf = (request: Submitted, step: number) => request.reviews[step - 1]?.id ?? '';
const reviewRows = (requestId: string) =>
  t.db.select().from(reviews).where(eq(reviews.request_id, requestId)).orderBy(reviews.step);
const available = async () => (await budgetBalance(t.db, budget)).available;

describe('PUT /reviews', () => {
  it('walks a group B request through both steps to approved with an approval number', async () => {
    const request = await newRequest();
    const first = await review(t.app, finance, {
      id: stepOf(request, 1),
      request_id: request.id,
      status: 'approved',
      comments: 'Budget line checked',
      // The reviewer's identity comes from the token, never the body.
      reviewer_name: 'Mallory',
      reviewer_id: otherStaff.id,
    } as never);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ current_status: 'on_progress', approval_number: null });
    expect(first.json().reviews[0]).toMatchObject({
      status: 'approved',
      comments: 'Budget line checked',
      reviewer_id: finance.id,
      reviewer_name: 'Chausiku Finance',
      reviewer_title: 'Finance Officer',
      title: 'First Reviewer',
      // Spec §3 names it on every review; a request's review returns no money.
      is_funds_returned: false,
      reviewed_at: expect.any(String),
    });

    t.events.length = 0;
    const second = await review(t.app, secretary, {
      id: stepOf(request, 2),
      request_id: request.id,
      status: 'approved',
    });
    expect(second.statusCode).toBe(200);
    const year = new Date().getFullYear();
    expect(second.json().current_status).toBe('approved');
    expect(second.json().approval_number).toMatch(new RegExp(`^AP-(${year}|${year + 1})-00001$`));
    expect(t.events).toEqual([
      { organizationId, event: 'request_updated', payload: { request_id: request.id } },
    ]);

    const next = await newRequest();
    await review(t.app, finance, { id: stepOf(next, 1), request_id: next.id, status: 'approved' });
    const numbered = await review(t.app, secretary, {
      id: stepOf(next, 2),
      request_id: next.id,
      status: 'approved',
    });
    expect(numbered.json().approval_number).toMatch(/-00002$/);
  });

  it('needs the director for group A', async () => {
    const request = await newRequest({ amount_requested: 200_000_000 });
    await review(t.app, finance, {
      id: stepOf(request, 1),
      request_id: request.id,
      status: 'approved',
    });
    const second = await review(t.app, secretary, {
      id: stepOf(request, 2),
      request_id: request.id,
      status: 'approved',
    });
    expect(second.json().current_status).toBe('on_progress');
    const third = await review(t.app, director, {
      id: stepOf(request, 3),
      request_id: request.id,
      status: 'approved',
    });
    expect(third.json()).toMatchObject({
      current_status: 'approved',
      approval_number: expect.stringMatching(/^AP-/),
    });
    expect(third.json().reviews.map((item: { title: string }) => item.title)).toEqual([
      'First Reviewer',
      'Second Reviewer',
      'Third Reviewer',
    ]);
  });

  it('a rejection ends the request and releases its amount', async () => {
    const before = await available();
    const request = await newRequest({ amount_requested: 5_000 });
    expect(await available()).toBe(before - 5_000);
    await review(t.app, finance, {
      id: stepOf(request, 1),
      request_id: request.id,
      status: 'approved',
    });
    t.events.length = 0;
    const response = await review(t.app, secretary, {
      id: stepOf(request, 2),
      request_id: request.id,
      status: 'rejected',
      comments: 'No',
    });
    expect(response.json().current_status).toBe('rejected');
    expect(await available()).toBe(before);
    expect(t.events).toContainEqual({
      organizationId,
      event: 'budget_updated',
      payload: { code: '6105' },
    });
  });

  describe('refuses and changes nothing', () => {
    async function expectRefusal(
      user: TestUser,
      request: Submitted,
      step: number,
      status: number,
      message: string | RegExp,
    ): Promise<void> {
      const before = await reviewRows(request.id);
      const [requestBefore] = await t.db.select().from(requests).where(eq(requests.id, request.id));
      const response = await review(t.app, user, {
        id: stepOf(request, step),
        request_id: request.id,
        status: 'approved',
      });
      expect(response.statusCode).toBe(status);
      expect(response.json().error).toMatch(message);
      expect(await reviewRows(request.id)).toEqual(before);
      const [requestAfter] = await t.db.select().from(requests).where(eq(requests.id, request.id));
      expect(requestAfter).toEqual(requestBefore);
    }

    it('out of turn: the second step before the first (409)', async () => {
      const request = await newRequest();
      await expectRefusal(
        secretary,
        request,
        2,
        409,
        "It is not this review's turn yet: the First Reviewer (Finance Officer) answers first.",
      );
    });

    it('a role that is not the step’s (403), staff included', async () => {
      const request = await newRequest();
      await expectRefusal(
        secretary,
        request,
        1,
        403,
        'Only a Finance Officer can answer this review.',
      );
      await expectRefusal(
        otherStaff,
        request,
        1,
        403,
        'Only a Finance Officer can answer this review.',
      );
      await expectRefusal(
        director,
        request,
        1,
        403,
        'Only a Finance Officer can answer this review.',
      );
    });

    it('the same step twice (409)', async () => {
      const request = await newRequest();
      expect(
        (
          await review(t.app, finance, {
            id: stepOf(request, 1),
            request_id: request.id,
            status: 'approved',
          })
        ).statusCode,
      ).toBe(200);
      await expectRefusal(finance, request, 1, 409, 'This review has already been answered.');
      await expectRefusal(finance2, request, 1, 409, 'This review has already been answered.');
    });

    it('self-approval: the owner holding the step role (403)', async () => {
      const request = await newRequest({}, finance);
      await expectRefusal(finance, request, 1, 403, 'You cannot review your own request.');
      // Any other finance officer may.
      expect(
        (
          await review(t.app, finance2, {
            id: stepOf(request, 1),
            request_id: request.id,
            status: 'approved',
          })
        ).statusCode,
      ).toBe(200);
    });

    it('a request that is no longer awaiting review (409)', async () => {
      const request = await newRequest();
      await review(t.app, finance, {
        id: stepOf(request, 1),
        request_id: request.id,
        status: 'rejected',
      });
      await expectRefusal(secretary, request, 2, 409, 'This request no longer awaits review.');
    });

    it("another organisation's request, or a review of another request (404)", async () => {
      const request = await newRequest();
      const otherOrganization = await buildOrganization(t.db, 'Elsewhere');
      const outsider = await buildUser(t.db, {
        organizationId: otherOrganization,
        role: 'finance_officer',
      });
      await expectRefusal(outsider, request, 1, 404, messages.requestNotFound);
      const another = await newRequest();
      const response = await review(t.app, finance, {
        id: stepOf(another, 1),
        request_id: request.id,
        status: 'approved',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('This review does not belong to the request.');
    });

    it.each([
      ['a pending status', { status: 'pending' }],
      ['a non-UUID review id', { id: 'abc' }],
      ['a number for comments', { comments: 5 }],
    ])('%s (400)', async (_name, change) => {
      const request = await newRequest();
      const before = await reviewRows(request.id);
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/reviews',
        headers: auth(finance),
        payload: { id: stepOf(request, 1), request_id: request.id, status: 'approved', ...change },
      });
      expect(response.statusCode).toBe(400);
      expect(await reviewRows(request.id)).toEqual(before);
    });
  });

  it('two finance officers answering the same step at once: exactly one wins, the other gets 409', async () => {
    for (let round = 0; round < 5; round += 1) {
      const request = await newRequest();
      const responses = await Promise.all(
        [finance, finance2].map((user, index) =>
          review(t.app, user, {
            id: stepOf(request, 1),
            request_id: request.id,
            status: index === 0 ? 'approved' : 'rejected',
          }),
        ),
      );
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const loser = responses.find((response) => response.statusCode === 409);
      expect(loser?.json().error).toBe('This review has already been answered.');
      const winner = responses.find((response) => response.statusCode === 200)?.json();
      const rows = await reviewRows(request.id);
      expect(rows[0]?.reviewer_id).toBe(winner.reviews[0].reviewer_id);
      expect(rows[0]?.status).toBe(winner.reviews[0].status);
      const [row] = await t.db.select().from(requests).where(eq(requests.id, request.id));
      expect(row?.current_status).toBe(winner.current_status);
    }
  });
});

describe('POST /requests/request/request-edit', () => {
  const resubmit = (user: TestUser, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/requests/request/request-edit',
      headers: auth(user),
      payload: body,
    });

  async function returnedRequest(overrides: Record<string, unknown> = {}): Promise<Submitted> {
    const request = await newRequest(overrides);
    await review(t.app, finance, {
      id: stepOf(request, 1),
      request_id: request.id,
      status: 'approved',
    });
    const response = await review(t.app, secretary, {
      id: stepOf(request, 2),
      request_id: request.id,
      status: 'request_edit',
      comments: 'Add quotes',
    });
    expect(response.json().current_status).toBe('request_edit');
    return request;
  }

  it('creates the next version with a fresh review chain and re-reserves the budget', async () => {
    const start = await available();
    const request = await returnedRequest({ amount_requested: 7_000 });
    expect(await available()).toBe(start); // request_edit no longer holds money
    const response = await resubmit(
      staff,
      requestBody('6105', { amount_requested: 8_000, parent_request: request.id }),
    );
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      version: 2,
      chain_id: request.id,
      parent_request: request.id,
      is_latest: true,
      current_status: 'pending',
      amount_requested: 8_000,
    });
    expect(body.reviews.map((item: { status: string }) => item.status)).toEqual([
      'pending',
      'pending',
    ]);
    expect(body.version_history).toEqual([
      {
        id: request.id,
        version: 1,
        created_at: expect.any(String),
        current_status: 'request_edit',
      },
      { id: body.id, version: 2, created_at: body.created_at, current_status: 'pending' },
    ]);
    expect(await available()).toBe(start - 8_000);

    // The old version stays readable, with its own reviews, but no longer counts or lists.
    const old = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${request.id}`,
      headers: auth(staff),
    });
    expect(old.json()).toMatchObject({
      is_latest: false,
      version: 1,
      current_status: 'request_edit',
    });
    expect(old.json().reviews[1]).toMatchObject({ status: 'request_edit', comments: 'Add quotes' });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/user/${staff.id}?per_page=100`,
      headers: auth(staff),
    });
    const ids = list.json().data.map((item: { id: string }) => item.id);
    expect(ids).toContain(body.id);
    expect(ids).not.toContain(request.id);

    // The new chain is reviewed from the start.
    const again = await review(t.app, finance, {
      id: body.reviews[0].id,
      request_id: body.id,
      status: 'approved',
    });
    expect(again.json().current_status).toBe('on_progress');
  });

  it.each([
    ['someone else’s request, for staff (404)', () => otherStaff, 404, messages.requestNotFound],
    [
      'someone else’s request, for an admin (403)',
      () => finance,
      403,
      'Only the owner of a request can resubmit it.',
    ],
  ])('refuses %s', async (_name, user, status, message) => {
    const request = await returnedRequest();
    const before = await t.db.$count(requests);
    const response = await resubmit(user(), requestBody('6105', { parent_request: request.id }));
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toBe(message);
    expect(await t.db.$count(requests)).toBe(before);
  });

  it('refuses a request that was not returned for edits, and a second resubmission (409)', async () => {
    const pending = await newRequest();
    const response = await resubmit(staff, requestBody('6105', { parent_request: pending.id }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('Only a request returned for edits can be resubmitted.');
    const returned = await returnedRequest();
    expect(
      (await resubmit(staff, requestBody('6105', { parent_request: returned.id }))).statusCode,
    ).toBe(201);
    const twice = await resubmit(staff, requestBody('6105', { parent_request: returned.id }));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('This version has already been resubmitted.');
  });

  it('refuses a locked owner (403) and a resubmission over the balance (400), leaving the returned version latest', async () => {
    const returned = await returnedRequest();
    await t.db.update(users).set({ is_locked: true }).where(eq(users.id, staff.id));
    const locked = await resubmit(staff, requestBody('6105', { parent_request: returned.id }));
    await t.db.update(users).set({ is_locked: false }).where(eq(users.id, staff.id));
    expect(locked.statusCode).toBe(403);
    expect(locked.json().error).toBe(messages.lockedAccount);
    const tooMuch = await resubmit(
      staff,
      requestBody('6105', { parent_request: returned.id, amount_requested: 10_000_000_000 }),
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe(messages.amountExceedsBalance);
    const [row] = await t.db.select().from(requests).where(eq(requests.id, returned.id));
    expect(row).toMatchObject({ is_latest: true, current_status: 'request_edit' });
  });

  it('needs parent_request (400)', async () => {
    const response = await resubmit(staff, requestBody('6105'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/parent_request/);
  });
});

describe('pending lists follow the reviewer chain', () => {
  // An organisation of its own, so its pending lists hold only this block's requests.
  let owner: TestUser;
  let officer: TestUser;
  let secretaryOf: TestUser;

  beforeAll(async () => {
    const orgId = await buildOrganization(t.db);
    owner = await buildUser(t.db, { organizationId: orgId, fullname: 'Neema Owner' });
    officer = await buildUser(t.db, {
      organizationId: orgId,
      role: 'finance_officer',
      fullname: 'Baraka Finance',
    });
    secretaryOf = await buildUser(t.db, {
      organizationId: orgId,
      role: 'executive_secretary',
      fullname: 'Imani Secretary',
    });
    await buildBudget(t.db, { organizationId: orgId, code: '6105', amount: 1_000_000_000 });
  });

  const pendingIds = async (user: TestUser): Promise<string[]> => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/${user.role}/pending/${user.id}`,
      headers: auth(user),
    });
    expect(response.statusCode).toBe(200);
    return response.json().data.map((item: { id: string }) => item.id);
  };
  /** Whose pending list holds a request: finance's, the secretary's, both or neither. */
  const waitingWith = async (id: string) => ({
    finance: (await pendingIds(officer)).includes(id),
    secretary: (await pendingIds(secretaryOf)).includes(id),
  });
  const answer = (
    user: TestUser,
    request: Submitted,
    step: number,
    status: 'approved' | 'rejected' | 'request_edit',
  ) => review(t.app, user, { id: stepOf(request, step), request_id: request.id, status });
  const submit = () => submitted(t.app, owner, requestBody('6105'));

  it('moves a request from finance to the secretary, then off both lists once approved', async () => {
    const request = await submit();
    expect(await waitingWith(request.id)).toEqual({ finance: true, secretary: false });
    expect((await answer(officer, request, 1, 'approved')).statusCode).toBe(200);
    expect(await waitingWith(request.id)).toEqual({ finance: false, secretary: true });
    const final = await answer(secretaryOf, request, 2, 'approved');
    expect(final.json().current_status).toBe('approved');
    expect(await waitingWith(request.id)).toEqual({ finance: false, secretary: false });
  });

  it.each([
    ['a rejection at the first step', 1, 'rejected'],
    ['a rejection at the second step', 2, 'rejected'],
    ['a return for edits', 2, 'request_edit'],
  ] as const)('takes a request off both lists after %s', async (_name, step, decision) => {
    const request = await submit();
    if (step === 2) await answer(officer, request, 1, 'approved');
    const reviewer = step === 1 ? officer : secretaryOf;
    expect((await answer(reviewer, request, step, decision)).json().current_status).toBe(decision);
    expect(await waitingWith(request.id)).toEqual({ finance: false, secretary: false });
  });

  it('puts a resubmitted version back on finance’s list, and not the returned one', async () => {
    const request = await submit();
    await answer(officer, request, 1, 'request_edit');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/requests/request/request-edit',
      headers: auth(owner),
      payload: requestBody('6105', { parent_request: request.id }),
    });
    expect(response.statusCode).toBe(201);
    const next = response.json().id as string;
    expect(await waitingWith(next)).toEqual({ finance: true, secretary: false });
    expect(await waitingWith(request.id)).toEqual({ finance: false, secretary: false });
    const [row] = await t.db.select().from(requests).where(eq(requests.id, next));
    expect(row?.next_reviewer_role).toBe('finance_officer');
  });
});
