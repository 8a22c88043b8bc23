import { defaultApprovalMatrix } from '@imprest/domain/approval-matrix.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, users } from '../../db/schema.ts';
import { lockOverdueUsers } from '../jobs/service.ts';
import { drawnApprovalNumber } from '../reviews/queries.ts';
import { startJobRunner, type JobRunner } from '../jobs/worker.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { buildStoredRetirement } from '../../../test/factories/locking.ts';
import { futureDay, requestBody, review, submitted } from '../../../test/factories/requests.ts';
import {
  attachRetirement,
  reviewedRetirement,
  submittedRetirement,
  type RetirementBody,
} from '../../../test/factories/retirements.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import {
  outboxSettled,
  saveEmailHtml,
  startSmtpServer,
  type TestSmtpServer,
} from '../../../test/smtp.ts';
import { sendRetirementWarnings, sendReviewReminders } from './daily.ts';

// Who hears what through a request's and a retirement's whole life (issue 10), with a real SMTP
// server and a real pg-boss worker on this file's database.
const appUrl = 'https://imprest.example';
let t: TestApp;
let smtp: TestSmtpServer;
let runner: JobRunner;
let org: StaffedOrganization;
let other: StaffedOrganization;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ config: { smtpUrl: smtp.url, appUrl } });
  runner = await startJobRunner(t.context, {
    databaseUrl: t.databaseUrl,
    logger: pino({ level: 'silent' }),
    pollingIntervalSeconds: 0.5,
    emailRetry: { retryLimit: 2, retryDelaySeconds: 1 },
  });
  org = await buildStaffedOrganization(t.db, { name: 'Kilimo Trust' });
  other = await buildStaffedOrganization(t.db, { name: 'Other Org', budgetCode: '6106' });
});

afterAll(async () => {
  await runner.stop({ timeoutMs: 2_000 });
  await smtp.stop();
});

/** Subjects each address received since `from` (an index into smtp.received). */
function inbox(from: number): Map<string, string[]> {
  const byAddress = new Map<string, string[]>();
  for (const email of smtp.received.slice(from)) {
    for (const to of email.to) byAddress.set(to, [...(byAddress.get(to) ?? []), email.subject]);
  }
  return byAddress;
}

function address(user: TestUser): string {
  return user.email.toLowerCase();
}

async function settledInbox(from: number): Promise<Map<string, string[]>> {
  await outboxSettled(t.db);
  return inbox(from);
}

function everyone(...orgs: StaffedOrganization[]): TestUser[] {
  return orgs.flatMap((o) => [
    o.staff,
    o.otherStaff,
    o.finance,
    o.finance2,
    o.secretary,
    o.director,
    o.custodian,
    o.admin,
  ]);
}

/** Asserts exactly these people got e-mails (with subjects matching), and nobody else. */
function expectOnly(box: Map<string, string[]>, expected: [TestUser, RegExp[]][]): void {
  for (const [user, subjects] of expected) {
    const got = box.get(address(user)) ?? [];
    expect(got, `${user.fullname}'s e-mails`).toHaveLength(subjects.length);
    subjects.forEach((pattern, index) => expect(got[index]).toMatch(pattern));
  }
  const expectedAddresses = new Set(expected.map(([user]) => address(user)));
  for (const user of everyone(org, other)) {
    if (!expectedAddresses.has(address(user)))
      expect(box.get(address(user)) ?? [], `${user.fullname} gets nothing`).toEqual([]);
  }
}

async function rawTo(user: TestUser, subject: RegExp): Promise<string> {
  const email = smtp.received.find(
    (candidate) => candidate.to.includes(address(user)) && subject.test(candidate.subject),
  );
  if (!email) throw new Error(`no e-mail ${subject} to ${user.email}`);
  return email.raw;
}

/** The director saves the default matrix with cascading_notification on or off. */
async function setCascading(isCascading: boolean): Promise<void> {
  const rows = defaultApprovalMatrix().map((row) => ({
    ...row,
    cascading_notification: isCascading,
  }));
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/approval-matrix',
    headers: auth(org.director),
    payload: { rows },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function saveHtmlOf(name: string, to: TestUser, kind: string): Promise<void> {
  // The latest of its kind to that person: the e-mail the test has just seen sent.
  const row = await t.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.to_address, to.email))
    .orderBy(emailOutbox.created_at)
    .then((rows) => rows.filter((candidate) => candidate.kind === kind).at(-1));
  if (!row?.html) throw new Error(`no ${kind} e-mail to ${to.email}`);
  await saveEmailHtml(name, row.html);
}

describe('who hears what', () => {
  let requestId = '';
  let retirement: RetirementBody;

  it("tells the first step's reviewers of a submission, never the owner or another organisation", async () => {
    const mark = smtp.received.length;
    const expenditureDay = futureDay(9);
    const request = await submitted(
      t.app,
      org.staff,
      requestBody(org.budget.code, {
        amount_requested: 1_500_000,
        expenditure_date: expenditureDay,
        expenditure_justification: `Field visit to the Tanga stem park. ${'Mileage and per diem. '.repeat(20)}`,
      }),
    );
    requestId = request.id;
    const box = await settledInbox(mark);
    expectOnly(box, [
      [org.finance, [/^A request awaits your review: Travel, TZS 1,500,000 from Asha Staff$/]],
      [org.finance2, [/^A request awaits your review/]],
    ]);
    const raw = await rawTo(org.finance, /awaits your review/);
    expect(raw).toContain(`${appUrl}/dashboard/view-request/${requestId}`);
    expect(raw).toContain('Kilimo Trust');
    expect(raw).toMatch(/Content-Type: text\/html/);
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/6105 - Field operations/);
    // When and why, for the reviewer to weigh: the justification quoted up to 300 characters.
    const [year, month, day] = expenditureDay.split('-');
    expect(raw).toContain(`Expenditure date: ${day}/${month}/${year}`);
    const quoted = /^Justification: (.*)$/m.exec(raw)?.[1] ?? '';
    expect(quoted).toMatch(/^Field visit to the Tanga stem park\. Mileage and per diem\. .*…$/);
    expect(Array.from(quoted)).toHaveLength(300);
    await saveHtmlOf('01-review-requested', org.finance, 'review_requested');
  });

  it("tells the next step's reviewers after an approval, then the owner with the approval number", async () => {
    let mark = smtp.received.length;
    const chain = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/requests/request/${requestId}`,
        headers: auth(org.staff),
      })
    ).json() as { reviews: { id: string; step: number }[] };
    const [first, second] = chain.reviews;
    if (!first || !second) throw new Error('no chain');
    expect(
      (
        await review(t.app, org.finance, {
          id: first.id,
          request_id: requestId,
          status: 'approved',
          comments: 'Fine',
        })
      ).statusCode,
    ).toBe(200);
    expectOnly(await settledInbox(mark), [[org.secretary, [/^A request awaits your review/]]]);

    mark = smtp.received.length;
    const approved = await review(t.app, org.secretary, {
      id: second.id,
      request_id: requestId,
      status: 'approved',
      comments: 'Go ahead',
    });
    expect(approved.statusCode).toBe(200);
    // The e-mail carries the number the request was given, and the last step's comments.
    const number = (approved.json() as { approval_number: string }).approval_number;
    expect(number).toMatch(/^AP-\d{4}-\d{5}$/);
    const box = await settledInbox(mark);
    expectOnly(box, [[org.staff, [/^Your request was approved: /]]]);
    expect(box.get(address(org.staff))).toEqual([
      `Your request was approved: ${number} (Travel, TZS 1,500,000)`,
    ]);
    const raw = await rawTo(org.staff, /was approved/);
    expect(raw).toContain(`Approval number: ${number}`);
    // PostgreSQL wrote the number in the marker's place, in the text and the HTML alike (0054).
    expect(raw).not.toContain(drawnApprovalNumber.marker);
    const [stored] = await t.db
      .select({ html: emailOutbox.html })
      .from(emailOutbox)
      .where(
        eq(emailOutbox.subject, `Your request was approved: ${number} (Travel, TZS 1,500,000)`),
      );
    expect(stored?.html).toContain(`${number}</`);
    expect(stored?.html).not.toContain(drawnApprovalNumber.marker);
    expect(raw).toContain('The reviewer\'s comments: "Go ahead"');
    await saveHtmlOf('02-request-approved', org.staff, 'request_approved');
  });

  it('tells the owner of an attached retirement its due date, with a link to the retirement form', async () => {
    const mark = smtp.received.length;
    const response = await attachRetirement(t.app, org.finance, { id: requestId });
    expect(response.statusCode).toBe(201);
    retirement = response.json().current_retirement;
    const box = await settledInbox(mark);
    expectOnly(box, [
      [org.staff, [/^Retire your advance by \d{2}\/\d{2}\/\d{4} \(Travel, TZS 1,500,000\)$/]],
    ]);
    expect(await rawTo(org.staff, /Retire your advance/)).toContain(
      `${appUrl}/dashboard/retirements/${requestId}`,
    );
    await saveHtmlOf('03-retirement-attached', org.staff, 'retirement_attached');
  });

  it("tells each retirement step's reviewers in turn, then the owner of the decision", async () => {
    let mark = smtp.received.length;
    retirement = await submittedRetirement(t.app, org.staff, retirement, {
      amount_spent: 1_400_000,
    });
    expectOnly(await settledInbox(mark), [
      [org.finance, [/^A retirement awaits your review/]],
      [org.finance2, [/^A retirement awaits your review/]],
    ]);
    // What the reviewer weighs: spent, left to return (1,500,000 received), the owner's word.
    const raw = await rawTo(org.finance, /^A retirement awaits your review/);
    expect(raw).toContain('Amount spent: TZS 1,400,000');
    expect(raw).toContain('Cash to return: TZS 100,000');
    expect(raw).toContain('Comments: Receipts attached');
    await saveHtmlOf('04-retirement-review-requested', org.finance, 'review_requested');

    mark = smtp.received.length;
    retirement = await reviewedRetirement(t.app, org.finance2, retirement, 'approved');
    expectOnly(await settledInbox(mark), [[org.secretary, [/^A retirement awaits your review/]]]);

    mark = smtp.received.length;
    retirement = await reviewedRetirement(t.app, org.secretary, retirement, 'approved');
    expectOnly(await settledInbox(mark), [[org.staff, [/^Your retirement was approved/]]]);
    await saveHtmlOf('05-retirement-approved', org.staff, 'retirement_approved');
  });

  it("never tells an owner who holds the step's role about their own request", async () => {
    const mark = smtp.received.length;
    await submitted(t.app, org.finance, requestBody(org.budget.code));
    expectOnly(await settledInbox(mark), [[org.finance2, [/^A request awaits your review/]]]);
  });

  it('tells the owner of a rejection and of a return for edits, with the comments', async () => {
    const mark = smtp.received.length;
    const rejected = await submitted(t.app, org.otherStaff, requestBody(org.budget.code));
    const returned = await submitted(t.app, org.otherStaff, requestBody(org.budget.code));
    const [a] = rejected.reviews;
    const [b] = returned.reviews;
    if (!a || !b) throw new Error('no chain');
    await review(t.app, org.finance, {
      id: a.id,
      request_id: rejected.id,
      status: 'rejected',
      comments: 'No <budget> left',
    });
    await review(t.app, org.finance, {
      id: b.id,
      request_id: returned.id,
      status: 'request_edit',
      comments: 'Add the quote',
    });
    const box = await settledInbox(mark);
    expect(box.get(address(org.otherStaff))?.sort()).toEqual([
      'Your request was rejected (Travel, TZS 1,000)',
      'Your request was returned for edits (Travel, TZS 1,000)',
    ]);
    const [row] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'request_rejected'));
    // The reviewer's text is escaped in the HTML part.
    expect(row?.html).toContain('No &lt;budget&gt; left');
    expect(row?.body).toContain('No <budget> left');
    await saveHtmlOf('06-request-rejected', org.otherStaff, 'request_rejected');
    await saveHtmlOf('07-request-returned', org.otherStaff, 'request_returned');
  });

  it('tells an owner removed meanwhile nothing of the decision (the owner is read with the request)', async () => {
    const request = await submitted(t.app, org.otherStaff, requestBody(org.budget.code));
    const [first] = request.reviews;
    if (!first) throw new Error('no chain');
    await settledInbox(smtp.received.length);
    const mark = smtp.received.length;
    await t.db.update(users).set({ deleted_at: new Date() }).where(eq(users.id, org.otherStaff.id));
    try {
      const answered = await review(t.app, org.finance, {
        id: first.id,
        request_id: request.id,
        status: 'rejected',
        comments: 'Left us',
      });
      expect(answered.statusCode, answered.body).toBe(200);
      expectOnly(await settledInbox(mark), []);
    } finally {
      await t.db.update(users).set({ deleted_at: null }).where(eq(users.id, org.otherStaff.id));
    }
  });

  it('with cascading_notification, tells every step of the chain at submission, each again on its turn', async () => {
    await setCascading(true);
    let mark = smtp.received.length;
    const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
    expectOnly(await settledInbox(mark), [
      [org.finance, [/^A request awaits your review/]],
      [org.finance2, [/^A request awaits your review/]],
      [org.secretary, [/^A request will come to you for review/]],
    ]);
    await saveHtmlOf('08-review-upcoming', org.secretary, 'review_upcoming');
    mark = smtp.received.length;
    const [first] = request.reviews;
    if (!first) throw new Error('no chain');
    await review(t.app, org.finance, { id: first.id, request_id: request.id, status: 'approved' });
    expectOnly(await settledInbox(mark), [[org.secretary, [/^A request awaits your review/]]]);
    await setCascading(false);
  });

  it('mute_notification silences decisions but not a lock', async () => {
    await t.db
      .update(users)
      .set({ settings: '{"mute_notification":true}' })
      .where(eq(users.id, org.otherStaff.id));
    let mark = smtp.received.length;
    const request = await submitted(t.app, org.otherStaff, requestBody(org.budget.code));
    const [first] = request.reviews;
    if (!first) throw new Error('no chain');
    await review(t.app, org.finance, { id: first.id, request_id: request.id, status: 'rejected' });
    // The reviewers still hear of the muted owner's request; the owner hears nothing.
    expectOnly(await settledInbox(mark), [
      [org.finance, [/^A request awaits your review/]],
      [org.finance2, [/^A request awaits your review/]],
    ]);

    mark = smtp.received.length;
    const today = todayIn(t.context.config.orgTimezone);
    await buildStoredRetirement(t.db, {
      owner: org.otherStaff,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(today, -31),
    });
    await lockOverdueUsers(t.context, { asOf: today, organizationId: org.organizationId });
    expectOnly(await settledInbox(mark), [
      [org.otherStaff, [/^Your Imprest account is locked from new requests$/]],
    ]);
    expect(await rawTo(org.otherStaff, /locked/)).toMatch(/more than 30 days past its due date/);
    await saveHtmlOf('09-account-locked', org.otherStaff, 'account_locked');
    // A second run changes nothing, so it sends nothing.
    await lockOverdueUsers(t.context, { asOf: today, organizationId: org.organizationId });
    expectOnly(await settledInbox(mark), [[org.otherStaff, [/locked/]]]);
  });

  it('sends the spec §8 warnings on the day each begins, once per retirement and milestone', async () => {
    const today = todayIn(t.context.config.orgTimezone);
    const mark = smtp.received.length;
    await buildStoredRetirement(t.db, {
      owner: org.staff,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(today, -14),
    });
    await buildStoredRetirement(t.db, {
      owner: org.director,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(today, -31),
    });
    // Not a milestone day: nothing.
    await buildStoredRetirement(t.db, {
      owner: org.custodian,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: addDays(today, -20),
    });
    expect(await sendRetirementWarnings(t.context, { today })).toBe(2);
    // Another process running the same day queues nothing new.
    expect(await sendRetirementWarnings(t.context, { today })).toBe(2);
    expectOnly(await settledInbox(mark), [
      [org.staff, [/^Submit your retirement before your account is blocked/]],
      [org.director, [/^Your retirement is past the 30 days grace period/]],
    ]);
    await saveHtmlOf('10-warning-escalation', org.staff, 'retirement_warning');
    await saveHtmlOf('11-warning-grace', org.director, 'retirement_warning');
  });

  it('sends each reviewer with a late step one digest a day of all their waiting steps', async () => {
    const mark = smtp.received.length;
    const today = todayIn(t.context.config.orgTimezone);
    // Today nothing has waited more than 3 working days.
    expect(await sendReviewReminders(t.context, { today })).toBe(0);
    const later = addDays(today, 7);
    const first = await sendReviewReminders(t.context, { today: later });
    const second = await sendReviewReminders(t.context, { today: later });
    expect(first).toBeGreaterThan(0);
    expect(second).toBe(first);
    const box = await settledInbox(mark);
    // Finance's own request waits for a finance officer: finance2 hears of it, its owner does not;
    // the secretary has the cascaded request's second step.
    expect(box.get(address(org.finance2))).toEqual(['1 step waits for your review']);
    expect(box.get(address(org.secretary))).toEqual(['1 step waits for your review']);
    for (const user of [org.finance, org.staff, org.otherStaff, org.director, org.custodian])
      expect(box.get(address(user))).toBeUndefined();
    for (const user of everyone(other)) expect(box.get(address(user))).toBeUndefined();
    const digest = await rawTo(org.finance2, /steps? waits? for/);
    expect(digest).toContain('Request: Chausiku Finance, Travel, TZS 1,000 (waiting');
    expect(await rawTo(org.secretary, /steps? waits? for/)).toContain(
      `${appUrl}/dashboard/view-request/`,
    );
    await saveHtmlOf('12-review-reminder', org.finance2, 'review_reminder');
  });

  it('sent every e-mail once, with its idempotency key as the Message-ID', async () => {
    await outboxSettled(t.db);
    const rows = await t.db.select().from(emailOutbox);
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
    expect(smtp.received).toHaveLength(rows.length);
    const ids = smtp.received.map((email) => email.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of rows) expect(ids).toContain(`<${row.idempotency_key}@imprest.example>`);
  });
});
