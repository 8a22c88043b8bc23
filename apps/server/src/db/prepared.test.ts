import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../test/factories/requests.ts';
import {
  buildRetirement,
  reviewedRetirement,
  submittedRetirement,
} from '../../test/factories/retirements.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { actorFromToken } from '../features/auth/session.ts';
import {
  budgetChangelog,
  budgetRequests,
  budgetHistory,
  findBudgetByCode,
  listBudgets,
} from '../features/budgets/queries.ts';
import { findGrantsOf } from '../features/delegations/queries.ts';
import { organizationRequestCounts, ownerRequestCountsOf } from '../features/requests/counts.ts';
import {
  findRequestNotice,
  findRetirementNotice,
  findReviewersToTell,
} from '../features/notifications/queries.ts';
import { listRequestPage } from '../features/requests/list-queries.ts';
import { listPendingForRole } from '../features/requests/pending-queries.ts';
import { lockRequest } from '../features/requests/queries.ts';
import { findRequestView } from '../features/requests/view.ts';
import { listRetirementPage } from '../features/retirements/list-queries.ts';
import { listPendingReviewPage } from '../features/retirements/pending-queries.ts';
import {
  countOwnerOutstandingRetirements,
  listOwnerOutstanding,
} from '../features/retirements/queries.ts';
import { connect, type Database } from './client.ts';
import { budgets } from './schema.ts';

// Issue 13: a statement prepared under a name is parsed once per connection, and PostgreSQL plans
// it once too when a plan made without the parameters' values (a generic plan) looks no dearer than
// those made with them. A status sent as a parameter is unknown to the generic plan, so PostgreSQL
// kept planning the request view on every call under load (0.8 ms of its 2 ms, bench/results.md).
// So each named statement's parameters are its placeholders and nothing else (db/constants.ts).
// Which plan PostgreSQL picks depends on the data's size (on a test's few rows both cost the same,
// bench:load measures it); what each statement is sent, this test checks.

let t: TestApp;
let org: StaffedOrganization;
let one: Database;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
  one = connect(t.databaseUrl, { max: 1 });
});

afterAll(async () => {
  await one.$client.end();
});

describe('statements prepared under a name', () => {
  it('are sent their placeholders only, their constants in their text', async () => {
    const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
    const context = { ...t.context, db: one };
    for (let call = 0; call < 8; call += 1) {
      expect(
        await findRequestView(one, { organizationId: org.organizationId, id: request.id }),
      ).toBeDefined();
      expect(await actorFromToken(context, org.staff.token)).not.toBeNull();
      expect(await findRequestNotice(one, request.id)).toBeDefined();
      // A retirement that is not there: the statement is prepared all the same.
      expect(await findRetirementNotice(one, randomUUID())).toBeUndefined();
      // The reviewers of a request's steps with their delegates; of a retirement's, without.
      for (const delegatesOn of ['2026-11-28', undefined]) {
        await findReviewersToTell(one, {
          organizationId: org.organizationId,
          roles: ['finance_officer', 'director'],
          exceptUserId: org.staff.id,
          delegatesOn,
        });
      }
      await budgetHistory(one, { budgetId: org.budget.id, timezone: 'Africa/Dar_es_Salaam' });
      await organizationRequestCounts(one, org.organizationId);
      await ownerRequestCountsOf(one, org.staff.id);
      await listRetirementPage(one, {
        organizationId: org.organizationId,
        status: 'all',
        page: 1,
        perPage: 10,
      });
      // Home's summary, a budget's detail, a delegate's pending list and answer.
      const owner = { organizationId: org.organizationId, ownerId: org.staff.id };
      // A reviewer's two queues on Home.
      const reviewer = { organizationId: org.organizationId, role: 'finance_officer', page: 1 };
      await listPendingForRole(one, { ...reviewer, excludeOwnerId: org.finance.id, perPage: 10 });
      await listPendingReviewPage(one, { ...reviewer, callerId: org.finance.id, perPage: 10 });
      // The lists of a staff member and of an organisation, in every status and in one; an
      // organisation's first page and a later one (db/first-page.ts).
      for (const status of ['all', 'pending'] as const) {
        // A search of a name, which reads its owners' pages merged.
        const named = { organizationId: org.organizationId, search: org.staff.fullname };
        await listRequestPage(one, { ...named, status, page: 1, perPage: 10 });
        for (const list of [listRequestPage, listRetirementPage]) {
          await list(one, { ...owner, status, page: 1, perPage: 10 });
          for (const page of [1, 2]) {
            await list(one, { organizationId: org.organizationId, status, page, perPage: 10 });
          }
        }
      }
      await listPendingForRole(one, {
        ...reviewer,
        page: 2,
        excludeOwnerId: org.finance.id,
        perPage: 10,
      });
      // The budget list's first page is named; a later page is unnamed.
      for (const page of [1, 2]) {
        const filter = { departments: null, department: undefined, search: undefined };
        await listBudgets(one, {
          organizationId: org.organizationId,
          ...filter,
          page,
          perPage: 10,
        });
      }
      await countOwnerOutstandingRetirements(one, owner);
      await listOwnerOutstanding(one, { ...owner, limit: 10 });
      expect(
        await findBudgetByCode(one, { organizationId: org.organizationId, code: org.budget.code }),
      ).toBeDefined();
      await budgetChangelog(one, org.budget.id);
      // A budget's page of requests, everyone's (named) and one owner's (unnamed).
      for (const ownerId of [undefined, org.staff.id]) {
        await budgetRequests(one, { budgetId: org.budget.id, limit: 50, ownerId });
      }
      for (const lock of [false, true]) {
        await findGrantsOf(one, {
          organizationId: org.organizationId,
          delegateId: org.staff.id,
          today: '2026-11-28',
          lock,
        });
      }
    }
    const { rows } = await one.$client.query<{ name: string; parameter_types: string }>(
      `SELECT name, parameter_types::text FROM pg_prepared_statements WHERE name <> ''`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.parameter_types]))).toEqual({
      // The request's id and organisation.
      request_view: '{uuid,uuid}',
      // The session, the user and the organisation.
      actor_from_token: '{uuid,uuid,uuid}',
      // The time zone where the statement names it (four times), the budget (three times).
      budget_history: '{text,text,uuid,text,uuid,uuid,text}',
      // The request's or the retirement's id.
      request_notice: '{uuid}',
      retirement_notice: '{uuid}',
      // The roles in the text (80: the finance officer and the director): the organisation and
      // the owner; with the delegates, the organisation and the day (twice) as well.
      reviewers_80: '{uuid,uuid}',
      reviewers_and_delegates_80: '{uuid,uuid,uuid,date,date}',
      // The organisation or the owner.
      organization_request_counts: '{uuid}',
      owner_request_counts: '{uuid}',
      organization_retirement_counts: '{uuid}',
      // A role's queue beside a later page (migration 0025): the organisation, or the caller.
      review_queue_counts: '{uuid}',
      review_queue_exclusions: '{uuid}',
      // The owner and the organisation; and how many are listed.
      owner_outstanding_count: '{uuid,uuid}',
      owner_outstanding: '{uuid,uuid,bigint}',
      // The queues: the organisation, the role, the caller (twice); the page's size and start.
      // The requests' queue page has its role in its text: the organisation, the caller (twice).
      pending_requests_page_finance_officer: '{uuid,uuid,uuid,bigint,bigint}',
      pending_retirements_page: '{uuid,text,uuid,uuid,bigint,bigint}',
      pending_retirements_count: '{uuid,text,uuid,uuid}',
      // The lists: the organisation, the owner (and the status); the page's size and start. An
      // organisation's retirements in one status stay unnamed (no index has the status and order).
      organization_requests_page: '{uuid,bigint,bigint}',
      organization_requests_page_by_status: '{uuid,text,bigint,bigint}',
      organization_retirements_page: '{uuid,bigint,bigint}',
      // An organisation's first page of 10: its size in its text, no start (db/first-page.ts).
      // An organisation's first pages carry its kept counts (decision 0045), whose key comes first.
      organization_requests_page_first_10: '{uuid,uuid}',
      organization_requests_page_by_status_first_10: '{uuid,uuid,text}',
      organization_retirements_page_first_10: '{uuid,uuid}',
      // The requests' queue's first page carries its kept counts too (migration 0025): the
      // organisation and the caller for them, then the page's.
      pending_requests_page_finance_officer_first_10: '{uuid,uuid,uuid,uuid,uuid}',
      organization_budgets_page_first_10: '{uuid,uuid}',
      organization_budget_counts: '{uuid}',
      // An owner's page carries its total (docs/decisions/0042): the owner's kept counts, whose
      // key comes first, or the count of the owner's retirements, with the page's conditions.
      owner_requests_page: '{uuid,uuid,uuid,bigint,bigint}',
      owner_requests_page_by_status: '{uuid,uuid,uuid,text,bigint,bigint}',
      owner_retirements_page: '{uuid,uuid,uuid,uuid,bigint,bigint}',
      owner_retirements_page_by_status: '{uuid,uuid,text,uuid,uuid,text,bigint,bigint}',
      owner_retirement_count: '{uuid,uuid}',
      owner_retirement_count_by_status: '{uuid,uuid,text}',
      // The organisation and the pattern of a name.
      users_named: '{uuid,text}',
      // A name search's owners' pages: the owners twice (their kept counts, their pages), the
      // organisation (and the status), each owner's reach; the page's size and start.
      named_owners_page: '{uuid[],uuid[],uuid,bigint,bigint,bigint}',
      named_owners_page_by_status: '{uuid[],uuid[],uuid,text,bigint,bigint,bigint}',
      // The organisation and the code.
      budget_by_code: '{uuid,text}',
      budget_changelog: '{uuid}',
      // The budget and how many of its newest requests.
      budget_requests: '{uuid,bigint}',
      // The organisation, the delegate and the day (twice).
      grants_of: '{uuid,uuid,date,date}',
      grants_of_locked: '{uuid,uuid,date,date}',
    });
  });

  it('built once, run on the connection of the transaction they are called in', async () => {
    const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
    const options = { organizationId: org.organizationId, id: request.id };
    // NOWAIT from a connection of its own: refused while some transaction holds the row's lock.
    const lockedElsewhere = () =>
      one.$client
        .query('SELECT id FROM requests WHERE id = $1 FOR UPDATE NOWAIT', [request.id])
        .then(
          () => false,
          (error: { code?: string }) => error.code === '55P03',
        );
    // Built on the pool first, then called in two transactions one after the other: the lock must
    // be taken on each transaction's connection and held until it ends, not on another of the
    // pool's connections, where it would end with its own statement.
    expect(await lockRequest(t.db, options)).toBeDefined();
    for (let round = 0; round < 2; round += 1) {
      await t.db.transaction(async (tx) => {
        expect((await lockRequest(tx, options))?.id).toBe(request.id);
        expect(await lockedElsewhere()).toBe(true);
        // The same handle again, and a read on the pool while the transaction is open.
        expect((await lockRequest(tx, options))?.id).toBe(request.id);
        expect(await findRequestView(t.db, options)).toBeDefined();
      });
      expect(await lockedElsewhere()).toBe(false);
    }
  });

  it('written by hand, built once in one transaction, run in another on its connection', async () => {
    // A pool of its own, so the history's statement is built first here, in the outer transaction.
    const two = connect(t.databaseUrl, { max: 2 });
    const budgetId = org.budget.id;
    const timezone = t.context.config.orgTimezone;
    const rolledBack = new Error('rolled back');
    try {
      await two.transaction(async (outer) => {
        const before = await budgetHistory(outer, { budgetId, timezone });
        // A second transaction, on the pool's other connection, dates the budget a year earlier
        // and reads the history: it must see its own change, so run on its own connection, not
        // the outer one.
        const inner = two.transaction(async (tx) => {
          await tx
            .update(budgets)
            .set({ created_at: sql`${budgets.created_at} - interval '1 year'` })
            .where(eq(budgets.id, budgetId));
          const after = await budgetHistory(tx, { budgetId, timezone });
          expect(after.length).toBe(before.length + 12);
          throw rolledBack;
        });
        await expect(inner).rejects.toBe(rolledBack);
      });
    } finally {
      await two.$client.end();
    }
  });

  it('are what the writes send: a request submitted and approved, a retirement submitted', async () => {
    // Every statement through one connection, so pg_prepared_statements shows them all.
    const w = await createTestApp({ poolSize: 1 });
    const people = await buildStaffedOrganization(w.db);
    const retirement = await buildRetirement(w.app, {
      owner: people.staff,
      finance: people.finance,
      reviewers: [people.finance, people.secretary],
      budgetCode: people.budget.code,
    });
    const submitted = await submittedRetirement(w.app, people.staff, retirement);
    await reviewedRetirement(w.app, people.finance, submitted, 'approved');
    const keyed = await w.app.inject({
      method: 'POST',
      url: '/api/v1/requests',
      headers: { authorization: `Bearer ${people.staff.token}`, 'idempotency-key': randomUUID() },
      payload: requestBody(people.budget.code),
    });
    expect(keyed.statusCode).toBe(201);
    const { rows } = await w.db.$client.query<{ name: string; parameter_types: string }>(
      `SELECT name, parameter_types::text FROM pg_prepared_statements WHERE name <> ''`,
    );
    const named = Object.fromEntries(rows.map((row) => [row.name, row.parameter_types]));
    // pg-boss's job insert, named after its text.
    const jobInserts = Object.keys(named).filter((name) => name.startsWith('pgboss_'));
    expect(jobInserts).toHaveLength(1);
    expect(named).toMatchObject({
      // Submitting a request: the budget by code with the organisation's exchange rates and
      // approval matrix, and the budget locked by its code (sent together), each with the amount
      // it must cover.
      submission_terms: '{numeric,uuid,text}',
      lock_budget_by_code: '{numeric,uuid,text}',
      // The reviewers and their delegates told (the roles in the text: 16, the finance officer):
      // the organisation and the owner, the organisation and the day (twice). An owner told of a
      // decision is read with the request's notice.
      reviewers_and_delegates_16: '{uuid,uuid,uuid,date,date}',
      // Answering a review.
      lock_request: '{uuid,uuid}',
      reviews_of: '{uuid}',
      // The reviewer, their name and title, the delegator and theirs, the comments, the answer, the step.
      answer_review: '{uuid,text,text,uuid,text,text,text,uuid}',
      // The status, the next role, who answered, the approval number (or null), the request.
      request_status: '{text,text,uuid[],text,uuid}',
      // Submitting and reviewing a retirement.
      retirement_record: '{uuid,uuid}',
      lock_retirement: '{uuid,uuid}',
      retirement_reviews_of: '{uuid}',
      // The amount spent, the comments, the files, the round, its first role, the retirement.
      submit_retirement_round: '{numeric,text,text[],integer,text,uuid}',
      // The status, Cash Returned, the next role, who answered, the retirement (the table's order).
      answer_retirement_step: '{text,boolean,text,uuid,uuid}',
      // The organisation, the owner, the day before which a retirement is overdue.
      unlock_cleared_user: '{uuid,uuid,date}',
      // An Idempotency-Key kept, and the answer kept with it.
      idempotency_key: '{uuid,text,uuid,text}',
      idempotency_answer: '{integer,text,uuid,text}',
    });
  });
});
