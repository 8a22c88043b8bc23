import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { retirementReviews, retirements, users } from '../../db/schema.ts';
import { uploaded } from '../../../test/factories/files.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  buildRetirement,
  checkedCommitted,
  refusalChecker,
  retirementState,
  submitRetirement,
  type RetirementBody,
} from '../../../test/factories/retirements.ts';
import {
  auth,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let org: StaffedOrganization;
let other: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  other = await buildStaffedOrganization(t.db, { name: 'Other Org' });
});

/** A pending retirement of `owner` for 500,000 tzs received. */
const pendingOf = (owner: TestUser, amount = 500_000) =>
  buildRetirement(t.app, {
    owner,
    finance: org.finance,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    amount,
  });

const body = (retirement: RetirementBody, overrides: Record<string, unknown> = {}) => ({
  id: retirement.id,
  amount_spent: 300_000,
  amount_currency: 'tzs',
  comments: 'Fuel and lodging',
  file_paths: [],
  ...overrides,
});

const refused = (...args: Parameters<ReturnType<typeof refusalChecker>>) =>
  refusalChecker(t.db, org.budget.id)(...args);

describe('POST /retirement/user-submit', () => {
  it('moves the owner’s pending retirement to on_progress and opens review round 1', async () => {
    const retirement = await pendingOf(org.staff);
    const receipt = await uploaded(t.app, org.staff, 'receipt.pdf');
    const committed = await checkedCommitted(t.db, org.budget.id);
    t.events.length = 0;
    const response = await submitRetirement(
      t.app,
      org.staff,
      body(retirement, { file_paths: [receipt] }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({
      id: retirement.id,
      request_id: retirement.request_id,
      retirement_owner_id: org.staff.id,
      name: 'Asha Staff',
      status: 'on_progress',
      amountReceived: 500_000,
      amount_spent: 300_000,
      amount_currency: 'tzs',
      comments: 'Fuel and lodging',
      file_paths: [receipt],
      files: [{ name: receipt, type: 'pdf' }],
      is_funds_returned: false,
      retirement_date: expect.any(String),
    });
    expect(answer.reviews).toEqual([
      expect.objectContaining({
        round: 1,
        step: 1,
        title: 'First Reviewer',
        reviewer_role: 'finance_officer',
        reviewer_title: 'Finance Officer',
        reviewer_name: null,
        status: 'pending',
        comments: '',
      }),
      expect.objectContaining({
        round: 1,
        step: 2,
        title: 'Second Reviewer',
        reviewer_role: 'executive_secretary',
        status: 'pending',
      }),
    ]);
    const [row] = await t.db.select().from(retirements).where(eq(retirements.id, retirement.id));
    expect(row).toMatchObject({
      status: 'on_progress',
      amount_spent: '300000.00',
      submissions: 1,
      next_reviewer_role: 'finance_officer',
    });
    expect(row?.submitted_at).toBeInstanceOf(Date);
    expect(t.events.map((event) => [event.event, event.payload])).toEqual([
      ['retirement_updated', { retirement_id: retirement.id, request_id: retirement.request_id }],
      ['request_updated', { request_id: retirement.request_id }],
    ]);
    // Submitting moves no money: only an approved retirement does.
    expect(await checkedCommitted(t.db, org.budget.id)).toBe(committed);

    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${retirement.request_id}`,
      headers: auth(org.staff),
    });
    expect(read.json().current_retirement).toEqual(answer);
  });

  it('lets a locked owner submit, and accepts 0 spent and a two-decimal amount', async () => {
    const locked = await buildUser(t.db, {
      organizationId: org.organizationId,
      fullname: 'Locked Owner',
    });
    const first = await pendingOf(locked);
    const second = await pendingOf(locked);
    // Locked after its requests were approved: locking exists to make the owner retire.
    await t.db.update(users).set({ is_locked: true }).where(eq(users.id, locked.id));
    const nothing = await submitRetirement(t.app, locked, body(first, { amount_spent: 0 }));
    expect(nothing.statusCode, nothing.body).toBe(200);
    expect(nothing.json()).toMatchObject({ status: 'on_progress', amount_spent: 0 });
    const cents = await submitRetirement(t.app, locked, body(second, { amount_spent: 499_999.99 }));
    expect(cents.statusCode, cents.body).toBe(200);
    expect(cents.json().amount_spent).toBe(499_999.99);
  });

  it('refuses admins who are not the owner with 403, and hides it from others with 404', async () => {
    const retirement = await pendingOf(org.staff);
    for (const user of [org.finance, org.secretary, org.director, org.custodian, org.admin]) {
      await refused(
        retirement,
        () => submitRetirement(t.app, user, body(retirement)),
        403,
        'Only the owner of a retirement can submit it.',
      );
    }
    for (const user of [org.otherStaff, other.staff, other.finance, other.admin]) {
      await refused(
        retirement,
        () => submitRetirement(t.app, user, body(retirement)),
        404,
        "Error! Couldn't find the retirement.",
      );
    }
    const unknown = await submitRetirement(
      t.app,
      org.staff,
      body(retirement, { id: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses a retirement that is not pending with 409', async () => {
    const retirement = await pendingOf(org.staff);
    expect((await submitRetirement(t.app, org.staff, body(retirement))).statusCode).toBe(200);
    await refused(
      retirement,
      () => submitRetirement(t.app, org.staff, body(retirement, { amount_spent: 1 })),
      409,
      'This retirement has already been submitted and is under review.',
    );
  });

  it.each([
    [{ amount_spent: -1 }, /Amount cannot be negative/],
    [{ amount_spent: 'abc' }, /Amount must be a number/],
    [{ amount_spent: '1000' }, /Amount must be a number/],
    [{ amount_spent: 10.555 }, /Amount may have at most two decimals/],
    [{ amount_spent: null }, /Amount must be a number/],
    [{ amount_currency: 'eur' }, /amount_currency must be tzs, usd, gbp or chf/],
    [{ id: 'not-a-uuid' }, /id must be the UUID of the retirement/],
    [{ file_paths: 'receipt.pdf' }, /file_paths/],
  ])('refuses %j with 400 and changes nothing', async (overrides, error) => {
    const retirement = await pendingOf(org.staff);
    await refused(
      retirement,
      () => submitRetirement(t.app, org.staff, body(retirement, overrides)),
      400,
      error,
    );
  });

  it('refuses another currency than the retirement’s with 400 naming it', async () => {
    const retirement = await pendingOf(org.staff);
    await refused(
      retirement,
      () => submitRetirement(t.app, org.staff, body(retirement, { amount_currency: 'usd' })),
      400,
      'This retirement is in TZS: report the amount spent in TZS.',
    );
  });

  it('refuses more than was received with 400 saying the most and to raise a request', async () => {
    const retirement = await pendingOf(org.staff);
    await refused(
      retirement,
      () => submitRetirement(t.app, org.staff, body(retirement, { amount_spent: 500_000.01 })),
      400,
      'The amount spent can be at most TZS 500,000, the amount received. Raise a new request for more.',
    );
  });

  it('compares the amount spent with the amount received to the cent at the top of the range', async () => {
    // Docs/decisions/0013: received 999,999,999,999,999.99 (stored before the money cap) reads as
    // the double 1,000,000,000,000,000, so a spent 10^15 once passed as "not more than received".
    const retirement = await pendingOf(org.staff);
    await t.db
      .update(retirements)
      .set({ amount_received: '999999999999999.99' })
      .where(eq(retirements.id, retirement.id));
    await refused(
      retirement,
      () => submitRetirement(t.app, org.staff, body(retirement, { amount_spent: 1e15 })),
      400,
      /Amounts can be at most 10,000,000,000,000/,
    );
    await t.db
      .update(retirements)
      .set({ amount_received: '9999999999999.99' })
      .where(eq(retirements.id, retirement.id));
    await refused(
      retirement,
      () =>
        submitRetirement(t.app, org.staff, body(retirement, { amount_spent: 10_000_000_000_000 })),
      400,
      /The amount spent can be at most TZS 9,999,999,999,999.99/,
    );
  });

  it('refuses a file the owner did not upload with 400', async () => {
    const retirement = await pendingOf(org.staff);
    const theirs = await uploaded(t.app, org.otherStaff, 'their-receipt.pdf');
    await refused(
      retirement,
      () => submitRetirement(t.app, org.staff, body(retirement, { file_paths: [theirs] })),
      400,
      'The file their-receipt.pdf was not uploaded.',
    );
    await refused(
      retirement,
      () =>
        submitRetirement(t.app, org.staff, body(retirement, { file_paths: ['AbCdEfGnever.pdf'] })),
      400,
      'The file never.pdf was not uploaded.',
    );
  });

  it('answers 401 without a token, before looking at the body', async () => {
    const retirement = await pendingOf(org.staff);
    const before = await retirementState(t.db, retirement.id);
    for (const payload of [body(retirement), { amount_spent: 'abc' }, {}]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/retirement/user-submit',
        payload,
      });
      expect(response.statusCode).toBe(401);
    }
    expect(await retirementState(t.db, retirement.id)).toEqual(before);
  });

  it('lets exactly one of two submissions at once succeed, with one review round', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const retirement = await pendingOf(org.staff);
      const responses = await Promise.all([
        submitRetirement(t.app, org.staff, body(retirement)),
        submitRetirement(t.app, org.staff, body(retirement, { amount_spent: 100 })),
      ]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const reviews = await t.db
        .select()
        .from(retirementReviews)
        .where(eq(retirementReviews.retirement_id, retirement.id));
      expect(reviews.map((review) => [review.round, review.step])).toEqual([
        [1, 1],
        [1, 2],
      ]);
    }
  });
});
