import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { and, eq, like } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, emailOutbox, reviews } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, review, submitted } from '../../../test/factories/requests.ts';
import {
  auth,
  buildUser,
  createTestApp,
  testJwtSecret,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { recipientsOf } from '../../../test/outbox.ts';
import { startSession } from '../auth/session.ts';
import { signToken } from '../auth/tokens.ts';
import { sendReviewReminders } from '../notifications/daily.ts';
import { anotherStepRefusal } from './policy.ts';

/**
 * Out-of-office delegation at review time (issue 15; docs/decisions/0019): the delegate answers
 * the delegator's steps during the period, in ORG_TIMEZONE, with both names recorded.
 */

const orgTimezone = 'Africa/Dar_es_Salaam';
let t: TestApp;
let org: StaffedOrganization;
/** Faraji Chairman: a reviewer on no step of the default matrix. */
let chairman: TestUser;
const today = todayIn(orgTimezone);
const day = (offset: number) => addDays(today, offset);

beforeAll(async () => {
  t = await createTestApp({ config: { orgTimezone } });
  org = await buildStaffedOrganization(t.db, { budgetAmount: 100_000_000_000 });
  chairman = await buildUser(t.db, {
    organizationId: org.organizationId,
    role: 'board_chairman',
    fullname: 'Faraji Chairman',
  });
});

afterEach(() => {
  vi.useRealTimers();
});

type Submitted = Awaited<ReturnType<typeof submitted>>;

const delegate = async (user: TestUser, body: Record<string, unknown>) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/delegations',
    headers: auth(user),
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
};
const endDelegation = (user: TestUser, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/delegations/${id}/end`, headers: auth(user) });

const stepId = (request: Submitted, step: number) => request.reviews[step - 1]?.id ?? '';
const answer = (
  user: TestUser,
  request: Submitted,
  step: number,
  status: 'approved' | 'rejected' | 'request_edit' = 'approved',
  comments = '',
) => review(t.app, user, { id: stepId(request, step), request_id: request.id, status, comments });

/** A group A request (finance → secretary → director) of `owner`. */
const groupA = (owner: TestUser) =>
  submitted(t.app, owner, requestBody('6105', { amount_requested: 200_000_000 }));

/** A group A request of `owner` whose first two steps are approved: it waits for a director. */
async function atDirectorStep(owner: TestUser = org.staff): Promise<Submitted> {
  const request = await groupA(owner);
  expect((await answer(org.finance, request, 1)).statusCode).toBe(200);
  expect((await answer(org.secretary, request, 2)).statusCode).toBe(200);
  return request;
}

const reviewAudit = (requestId: string) =>
  t.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.object_type, 'request'),
        eq(auditEvents.object_id, requestId),
        like(auditEvents.action, 'review.%'),
      ),
    )
    .orderBy(auditEvents.id);

const pending = async (user: TestUser, query = '') => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/requests/${user.role}/pending/${user.id}${query}`,
    headers: auth(user),
  });
  expect(response.statusCode).toBe(200);
  return response.json<{
    data: { id: string; delegated_from: { id: string; name: string } | null }[];
    total: number;
  }>();
};
const pendingIds = async (user: TestUser) => (await pending(user)).data.map((item) => item.id);

describe('a delegate answers the delegator’s steps (director → custodian, from today)', () => {
  let delegationId: string;
  beforeAll(async () => {
    delegationId = await delegate(org.director, {
      delegate_id: org.custodian.id,
      starts_on: day(0),
      ends_on: day(5),
      note: 'Board retreat',
    });
  });

  it('records both names, shows them in the request view, and writes one audit row per answer', async () => {
    const request = await groupA(org.staff);
    await answer(org.finance, request, 1);
    expect(await reviewAudit(request.id)).toHaveLength(1);
    await answer(org.secretary, request, 2);
    expect(await reviewAudit(request.id)).toHaveLength(2);
    const response = await answer(org.custodian, request, 3, 'approved', 'Approved while away');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().current_status).toBe('approved');
    expect(response.json().reviews[2]).toMatchObject({
      status: 'approved',
      reviewer_id: org.custodian.id,
      reviewer_name: 'Baraka Custodian',
      reviewer_title: 'Director',
      on_behalf_of: { id: org.director.id, name: 'Eshe Director' },
    });
    expect(response.json().reviews[0].on_behalf_of).toBeNull();

    const view = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${request.id}`,
      headers: auth(org.staff),
    });
    expect(view.json().reviews[2]).toMatchObject({
      reviewer_name: 'Baraka Custodian',
      on_behalf_of: { id: org.director.id, name: 'Eshe Director' },
    });

    const audit = await reviewAudit(request.id);
    expect(audit).toHaveLength(3);
    expect(audit[2]).toMatchObject({
      organization_id: org.organizationId,
      actor_id: org.custodian.id,
      actor_name: 'Baraka Custodian',
      action: 'review.approved',
      changes: {
        step: { to: 3 },
        status: { from: 'pending', to: 'approved' },
        comments: { from: '', to: 'Approved while away' },
        on_behalf_of: { from: null, to: { id: org.director.id, name: 'Eshe Director' } },
        current_status: { from: 'on_progress', to: 'approved' },
        approval_number: { from: null, to: response.json().approval_number },
      },
    });
    expect(audit[0]?.changes).not.toHaveProperty('on_behalf_of');
  });

  it('writes review.rejected and review.returned for those answers, and none for a refusal', async () => {
    const rejected = await groupA(org.staff);
    await answer(org.finance, rejected, 1, 'rejected', 'No quote');
    const returned = await groupA(org.staff);
    await answer(org.finance, returned, 1, 'request_edit');
    expect((await answer(org.secretary, returned, 2)).statusCode).toBe(409);
    expect((await reviewAudit(rejected.id)).map((row) => row.action)).toEqual(['review.rejected']);
    expect((await reviewAudit(returned.id)).map((row) => row.action)).toEqual(['review.returned']);
  });

  it('the delegator keeps the right to answer, in their own name', async () => {
    const request = await atDirectorStep();
    const response = await answer(org.director, request, 3);
    expect(response.statusCode).toBe(200);
    expect(response.json().reviews[2]).toMatchObject({
      reviewer_id: org.director.id,
      on_behalf_of: null,
    });
  });

  it('the first answer wins between delegator and delegate: one 200, one 409, one audit row', async () => {
    const request = await atDirectorStep();
    const responses = await Promise.all([
      answer(org.director, request, 3, 'approved'),
      answer(org.custodian, request, 3, 'rejected'),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    const refused = responses.find((response) => response.statusCode === 409);
    expect(refused?.json().error).toBe('This review has already been answered.');
    const [row] = await t.db
      .select()
      .from(reviews)
      .where(eq(reviews.id, stepId(request, 3)));
    const winner = responses.find((response) => response.statusCode === 200)?.json();
    expect(row?.status).toBe(winner.reviews[2].status);
    expect(await reviewAudit(request.id)).toHaveLength(3);
  });

  it('no self-approval: not when the delegate owns the request', async () => {
    const request = await atDirectorStep(org.custodian);
    const response = await answer(org.custodian, request, 3);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('You cannot review your own request.');
    expect(await pendingIds(org.custodian)).not.toContain(request.id);
    expect(await reviewAudit(request.id)).toHaveLength(2);
  });

  it('no self-approval: not when the delegator owns the request', async () => {
    const request = await atDirectorStep(org.director);
    const response = await answer(org.custodian, request, 3);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(
      'Eshe Director owns this request, so you cannot answer it on their behalf.',
    );
    expect(await pendingIds(org.custodian)).not.toContain(request.id);
    // Any other director may.
    const otherDirector = await buildUser(t.db, {
      organizationId: org.organizationId,
      role: 'director',
      fullname: 'Second Director',
    });
    expect((await answer(otherDirector, request, 3)).statusCode).toBe(200);
  });

  it('only on the delegator’s steps, in turn: not a finance step, not out of turn', async () => {
    const request = await groupA(org.staff);
    const wrongRole = await answer(org.custodian, request, 1);
    expect(wrongRole.statusCode).toBe(403);
    expect(wrongRole.json().error).toBe('Only a Finance Officer can answer this review.');
    const outOfTurn = await answer(org.custodian, request, 3);
    expect(outOfTurn.statusCode).toBe(409);
  });

  it('lists the delegator’s pending steps for the delegate, marked; the delegator’s own list unmarked', async () => {
    const waiting = await atDirectorStep();
    const notYet = await groupA(org.staff);
    const list = await pending(org.custodian);
    expect(list.data.find((item) => item.id === waiting.id)?.delegated_from).toEqual({
      id: org.director.id,
      name: 'Eshe Director',
    });
    expect(list.data.map((item) => item.id)).not.toContain(notYet.id);
    expect(list.total).toBe(list.data.length);
    // A page past the end counts the delegate's queue on its own.
    expect(await pending(org.custodian, '?page=50')).toEqual({ ...list, data: [], page: 50 });
    const own = await pending(org.director);
    expect(own.data.find((item) => item.id === waiting.id)?.delegated_from).toBeNull();
    // Someone who holds no delegation sees nothing of it.
    expect(await pendingIds(chairman)).not.toContain(waiting.id);
  });

  it('tells the delegate by e-mail too when a step reaches the delegator’s role', async () => {
    const request = await atDirectorStep();
    const emails = await t.db
      .select({ to: emailOutbox.to_address, body: emailOutbox.body })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.kind, 'review_requested'),
          like(emailOutbox.body, `%${request.id}%`),
          like(emailOutbox.body, '%Third Reviewer%'),
        ),
      );
    const recipients = emails.map((email) => email.to);
    expect(recipients).toEqual(expect.arrayContaining([org.director.email, org.custodian.email]));
    expect(recipients).not.toContain(chairman.email);
    expect(recipients.filter((to) => to === org.custodian.email)).toHaveLength(1);
    const custodianEmail = emails.find((email) => email.to === org.custodian.email);
    expect(custodianEmail?.body).toMatch(
      /on behalf of Eshe Director, who named you their delegate/,
    );
  });

  it('ending early: the delegate gets 403 at once and the list drops the steps', async () => {
    const request = await atDirectorStep();
    expect(await pendingIds(org.custodian)).toContain(request.id);
    expect((await endDelegation(org.director, delegationId)).statusCode).toBe(200);
    const response = await answer(org.custodian, request, 3);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('Only a Director can answer this review.');
    expect(await pendingIds(org.custodian)).not.toContain(request.id);
    expect(await reviewAudit(request.id)).toHaveLength(2);
  });
});

describe('one e-mail a person', () => {
  it('a delegate who holds the step’s role too hears once', async () => {
    // Both finance officers: the delegate reviews finance steps in their own right anyway.
    await delegate(org.finance, {
      delegate_id: org.finance2.id,
      starts_on: day(0),
      ends_on: day(1),
    });
    const request = await groupA(org.staff);
    const emails = await recipientsOf(
      t.db,
      'review_requested',
      like(emailOutbox.body, `%${request.id}%`),
    );
    expect(emails.sort()).toEqual([org.finance.email, org.finance2.email].sort());
  });
});

describe('no chaining, and one person answers one step', () => {
  let secondDirector: TestUser;
  beforeAll(async () => {
    secondDirector = await buildUser(t.db, {
      organizationId: org.organizationId,
      role: 'director',
      fullname: 'Deputy Director',
    });
    // The director delegates to the secretary; the secretary to the chairman.
    await delegate(secondDirector, {
      delegate_id: org.secretary.id,
      starts_on: day(0),
      ends_on: day(3),
    });
    await delegate(org.secretary, {
      delegate_id: chairman.id,
      starts_on: day(0),
      ends_on: day(3),
    });
  });

  it('the chairman acts for the secretary, never for the secretary’s delegator', async () => {
    const request = await groupA(org.staff);
    await answer(org.finance, request, 1);
    const list = await pending(chairman);
    expect(list.data.find((item) => item.id === request.id)?.delegated_from).toEqual({
      id: org.secretary.id,
      name: 'Daudi Secretary',
    });
    const second = await answer(chairman, request, 2);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().reviews[1]).toMatchObject({
      reviewer_name: 'Faraji Chairman',
      reviewer_title: 'Executive Secretary',
      on_behalf_of: { id: org.secretary.id, name: 'Daudi Secretary' },
    });
    // The director's step: the chairman holds no grant of the director's.
    expect(await pendingIds(chairman)).not.toContain(request.id);
    const third = await answer(chairman, request, 3);
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe('Only a Director can answer this review.');
    // The secretary, the director's delegate, may: they did not answer step 2.
    const bySecretary = await answer(org.secretary, request, 3);
    expect(bySecretary.statusCode, bySecretary.body).toBe(200);
    expect(bySecretary.json().reviews[2]).toMatchObject({
      reviewer_id: org.secretary.id,
      on_behalf_of: { id: secondDirector.id, name: 'Deputy Director' },
    });
  });

  it('a delegate who answered an earlier step does not answer the delegator’s later one', async () => {
    const request = await atDirectorStep();
    expect(await pendingIds(org.secretary)).not.toContain(request.id);
    const response = await answer(org.secretary, request, 3);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(anotherStepRefusal);
    expect(await reviewAudit(request.id)).toHaveLength(2);
  });
});

describe('the only director answered the secretary’s step as a delegate', () => {
  // Separation of duties stays: the director may not answer the director's step of that request
  // too, so neither the pending list, the request's e-mails nor the reminder digest offer it to
  // them; another director, or a delegate the director names, answers it (docs/decisions/0019).
  let lone: StaffedOrganization;
  let request: Submitted;
  beforeAll(async () => {
    lone = await buildStaffedOrganization(t.db, {
      name: 'One Director Trust',
      budgetAmount: 100_000_000_000,
    });
    await delegate(lone.secretary, {
      delegate_id: lone.director.id,
      starts_on: day(0),
      ends_on: day(5),
    });
    request = await groupA(lone.staff);
    expect((await answer(lone.finance, request, 1)).statusCode).toBe(200);
    const second = await answer(lone.director, request, 2);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().reviews[1]).toMatchObject({
      reviewer_id: lone.director.id,
      on_behalf_of: { id: lone.secretary.id, name: 'Daudi Secretary' },
    });
  });

  it('the director’s own list leaves the director’s step out, and answering it stays a 403', async () => {
    expect(await pendingIds(lone.director)).not.toContain(request.id);
    const response = await answer(lone.director, request, 3);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe(anotherStepRefusal);
    expect(await reviewAudit(request.id)).toHaveLength(2);
  });

  it('the director gets no “awaits your review” e-mail for the director’s step', async () => {
    const emails = await recipientsOf(
      t.db,
      'review_requested',
      like(emailOutbox.body, `%${request.id}%`),
      like(emailOutbox.body, '%Third Reviewer%'),
    );
    expect(emails).not.toContain(lone.director.email);
  });

  it('the reminder digest does not list it for the director', async () => {
    await sendReviewReminders(t.context, { today: day(10) });
    const digests = await recipientsOf(
      t.db,
      'review_reminder',
      eq(emailOutbox.to_address, lone.director.email),
    );
    expect(digests).toEqual([]);
  });

  it('a delegate the director names answers it', async () => {
    await delegate(lone.director, {
      delegate_id: lone.custodian.id,
      starts_on: day(0),
      ends_on: day(1),
    });
    const list = await pending(lone.custodian);
    expect(list.data.find((item) => item.id === request.id)?.delegated_from).toEqual({
      id: lone.director.id,
      name: 'Eshe Director',
    });
    const response = await answer(lone.custodian, request, 3);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().current_status).toBe('approved');
  });
});

describe('period boundaries in the organisation’s time zone (UTC+3)', () => {
  let lateDirector: TestUser;
  beforeAll(async () => {
    lateDirector = await buildUser(t.db, {
      organizationId: org.organizationId,
      role: 'director',
      fullname: 'Timed Director',
    });
    // Active on day +1 and day +2 only, in Dar es Salaam.
    await delegate(lateDirector, {
      delegate_id: chairman.id,
      starts_on: day(1),
      ends_on: day(2),
    });
  });

  /** Sets the clock to a wall time in Dar es Salaam, then answers the director's step. */
  async function answerAt(wallTime: string): Promise<number> {
    const request = await atDirectorStep();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${wallTime}+03:00`));
    try {
      // Tokens live 12 hours: one signed at the moved clock, on a session of its own.
      const session = await startSession(t.db, chairman.id);
      const token = signToken(
        new TextEncoder().encode(testJwtSecret),
        { sub: chairman.id, org: chairman.organization_id, sid: session.id },
        session.expiresAt,
      );
      return (await answer({ ...chairman, token }, request, 3)).statusCode;
    } finally {
      vi.useRealTimers();
    }
  }

  it.each([
    ['the evening before the first day', 403, () => `${day(0)}T23:55:00`],
    // 21:05 UTC of the day before: a UTC calendar would still say "not yet".
    ['the first minutes of the first day', 200, () => `${day(1)}T00:05:00`],
    ['the evening of the last day', 200, () => `${day(2)}T23:55:00`],
    // 21:05 UTC of the last day: a UTC calendar would still say "active".
    ['the first minutes of the day after', 403, () => `${day(3)}T00:05:00`],
  ] as const)('%s → %s', async (_name, status, wallTime) => {
    expect(await answerAt(wallTime())).toBe(status);
  });
});

describe('a delegate with steps of their own waiting (a secretary → the second finance officer)', () => {
  it('lists both, the delegator’s marked and all counted, and only their own once it ends', async () => {
    const own = await groupA(org.staff); // waits for a finance officer
    const atSecretary = await groupA(org.otherStaff);
    expect((await answer(org.finance, atSecretary, 1)).statusCode).toBe(200);
    const before = await pending(org.finance2, '?per_page=100');
    expect(before.data.map((item) => item.id)).toContain(own.id);
    expect(before.data.map((item) => item.id)).not.toContain(atSecretary.id);

    // A second executive secretary: the first one's days are taken by another test's delegation.
    const secretary = await buildUser(t.db, {
      organizationId: org.organizationId,
      role: 'executive_secretary',
      fullname: 'Tumaini Secretary',
    });
    const id = await delegate(secretary, {
      delegate_id: org.finance2.id,
      starts_on: day(0),
      ends_on: day(1),
    });
    // Their own steps unmarked, the delegator's marked, one total for both.
    const during = await pending(org.finance2, '?per_page=100');
    const marked = (requestId: string) =>
      during.data.find((item) => item.id === requestId)?.delegated_from;
    expect(marked(own.id)).toBeNull();
    expect(marked(atSecretary.id)).toEqual({ id: secretary.id, name: 'Tumaini Secretary' });
    expect(during.total).toBe(during.data.length);
    expect(during.total).toBeGreaterThan(before.total);

    expect((await endDelegation(secretary, id)).statusCode).toBe(200);
    expect(await pending(org.finance2, '?per_page=100')).toEqual(before);
  });
});

describe('a delegate acting for two delegators of the step’s role', () => {
  it('hears once, on behalf of the delegator whose delegation came first', async () => {
    const two = await buildStaffedOrganization(t.db, {
      name: 'Two Directors',
      budgetCode: '6107',
      budgetAmount: 100_000_000_000,
    });
    const deputy = await buildUser(t.db, {
      organizationId: two.organizationId,
      role: 'director',
      fullname: 'Deputy Director',
    });
    // The delegator with the greater id delegates first, so neither order of the ids gives the
    // answer by chance: the first delegation names its delegator.
    const [first, second] = [two.director, deputy].sort((a, b) => (a.id < b.id ? 1 : -1));
    if (!first || !second) throw new Error('no directors');
    for (const delegator of [first, second]) {
      await delegate(delegator, {
        delegate_id: two.custodian.id,
        starts_on: day(0),
        ends_on: day(2),
      });
    }
    const request = await submitted(
      t.app,
      two.staff,
      requestBody('6107', { amount_requested: 200_000_000 }),
    );
    expect((await answer(two.finance, request, 1)).statusCode).toBe(200);
    expect((await answer(two.secretary, request, 2)).statusCode).toBe(200);
    const toCustodian = await t.db
      .select({ body: emailOutbox.body })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.kind, 'review_requested'),
          eq(emailOutbox.to_address, two.custodian.email),
          like(emailOutbox.body, `%${request.id}%`),
        ),
      );
    expect(toCustodian).toHaveLength(1);
    expect(toCustodian[0]?.body).toContain(`on behalf of ${first.fullname}`);
  });
});
