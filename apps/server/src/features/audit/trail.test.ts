import { randomUUID } from 'node:crypto';
import type { AuditAction } from '@imprest/domain/audit.ts';
import { and, desc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, emailOutbox, requests } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { buildStoredRetirement } from '../../../test/factories/locking.ts';
import { requestBody, submitted, review } from '../../../test/factories/requests.ts';
import {
  approvedRequest,
  attachRetirement,
  requestRetirementEdit,
  reviewRetirement,
} from '../../../test/factories/retirements.ts';
import {
  auth,
  buildUser,
  createTestApp,
  testPassword,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';
import { wallClockIn } from '../../lib/workbook.ts';
import { lockOverdueUsers } from '../jobs/service.ts';

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});
afterAll(async () => {
  await t.app.close();
});

type Row = typeof auditEvents.$inferSelect;

/** The organisation's events of one action, newest first. */
async function eventsOf(action: AuditAction, organizationId = org.organizationId): Promise<Row[]> {
  return t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organization_id, organizationId), eq(auditEvents.action, action)))
    .orderBy(desc(auditEvents.id));
}

/**
 * Runs a change and answers the one event of `action` it wrote: exactly one more than before,
 * naming the object and the actor.
 */
async function onlyEvent(
  action: AuditAction,
  change: () => Promise<unknown>,
  expected: { objectId?: string | null; actor?: Pick<TestUser, 'id' | 'fullname'> | null } = {},
): Promise<Row> {
  const before = (await eventsOf(action)).length;
  await change();
  const events = await eventsOf(action);
  expect(events, `${action} events`).toHaveLength(before + 1);
  const event = events[0];
  if (!event) throw new Error('no event');
  if (expected.objectId !== undefined) expect(event.object_id).toBe(expected.objectId);
  if (expected.actor !== undefined) {
    expect(event.actor_id).toBe(expected.actor?.id ?? null);
    expect(event.actor_name).toBe(expected.actor?.fullname ?? 'system');
  }
  return event;
}

function call(
  user: TestUser | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url: `/api/v1/${url}`,
    headers: user ? auth(user) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function ok(
  response: Promise<{ statusCode: number; body: string }>,
  status = 200,
): Promise<string> {
  const answered = await response;
  expect(answered.statusCode, answered.body).toBe(status);
  return answered.body;
}

describe('every change writes exactly one audit event in its own transaction', () => {
  it('sign-in: success, failure on an account, failure with an unknown e-mail', async () => {
    const user = await buildUser(t.db, { organizationId: org.organizationId });
    const signIn = (email: string, password: string) =>
      call(null, 'POST', 'users/authenticate', { email, password });
    const success = await onlyEvent('auth.signed_in', () => ok(signIn(user.email, testPassword)), {
      objectId: user.id,
      actor: user,
    });
    expect(success.ip).toBe('127.0.0.1');
    expect(success.request_id).toMatch(/\S/);
    const failed = await onlyEvent('auth.sign_in_failed', async () =>
      expect((await signIn(user.email, 'not the password')).statusCode).toBe(401),
    );
    expect(failed).toMatchObject({ object_id: user.id, actor_id: null, actor_name: user.email });
    const unknown = 'nobody-here@example.test';
    const before = await t.db.$count(auditEvents, eq(auditEvents.actor_name, unknown));
    expect((await signIn(unknown, 'whatever it is')).statusCode).toBe(401);
    const [stranger] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actor_name, unknown));
    expect(await t.db.$count(auditEvents, eq(auditEvents.actor_name, unknown))).toBe(before + 1);
    expect(stranger).toMatchObject({ organization_id: null, object_id: null });
  });

  it('password change and reset', async () => {
    const user = await buildUser(t.db, { organizationId: org.organizationId });
    await onlyEvent(
      'auth.password_changed',
      () =>
        ok(
          call(user, 'PUT', 'users/password', {
            current_password: testPassword,
            new_password: 'a brand new password',
          }),
        ),
      { objectId: user.id, actor: user },
    );
    await ok(call(null, 'POST', 'forgot-password', { email: user.email }));
    const [email] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to_address, user.email));
    const link = new URL(/https?:\/\/\S+/.exec(email?.body ?? '')?.[0] ?? 'http://x');
    await onlyEvent(
      'auth.password_reset',
      () =>
        ok(
          call(null, 'POST', 'forgot-password/validate', {
            token: link.searchParams.get('token'),
            email: user.email,
            password: 'reset and renewed',
          }),
        ),
      { objectId: user.id, actor: user },
    );
  });

  it('accepting an invitation sets a first password: auth.password_set, not a reset', async () => {
    const email = `invited-${randomUUID()}@example.test`;
    const body = JSON.parse(
      await ok(
        call(org.admin, 'POST', 'users', {
          fullname: 'Invited Person',
          email,
          department: 'engineering',
          role: 'staff',
          system_role: 'staff',
        }),
        201,
      ),
    ) as { users: { id: string }[] };
    const invited = { id: body.users[0]?.id ?? '', fullname: 'Invited Person' };
    const [invitation] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to_address, email));
    expect(invitation?.kind).toBe('invitation');
    const link = new URL(/https?:\/\/\S+/.exec(invitation?.body ?? '')?.[0] ?? 'http://x');
    const resets = (await eventsOf('auth.password_reset')).length;
    await onlyEvent(
      'auth.password_set',
      () =>
        ok(
          call(null, 'POST', 'forgot-password/validate', {
            token: link.searchParams.get('token'),
            email,
            password: 'my very first password',
          }),
        ),
      { objectId: invited.id, actor: invited },
    );
    expect(await eventsOf('auth.password_reset')).toHaveLength(resets);
  });

  it('users: created, edited, restricted, unlocked, deleted', async () => {
    const email = `audited-${randomUUID()}@example.test`;
    const created = await onlyEvent(
      'user.created',
      () =>
        ok(
          call(org.admin, 'POST', 'users', {
            fullname: 'Audited Person',
            email,
            department: 'engineering',
            role: 'staff',
            system_role: 'staff',
            phone_number: '255700000000',
          }),
          201,
        ),
      { actor: org.admin },
    );
    expect(created.changes).toMatchObject({ email: { to: email }, role: { to: 'staff' } });
    expect(JSON.stringify(created.changes)).not.toMatch(/password/);
    const userId = created.object_id ?? '';
    const edited = await onlyEvent(
      'user.updated',
      () => ok(call(org.admin, 'PUT', 'users', { user_id: userId, phone_number: '255711111111' })),
      { objectId: userId, actor: org.admin },
    );
    expect(edited.changes).toEqual({
      phone_number: { from: '255700000000', to: '255711111111' },
    });
    await onlyEvent(
      'user.restricted',
      () => ok(call(org.finance, 'POST', 'users/restrict', { user_id: userId, lock_status: true })),
      { objectId: userId, actor: org.finance },
    );
    await onlyEvent(
      'user.unlocked',
      () =>
        ok(call(org.finance, 'POST', 'users/restrict', { user_id: userId, lock_status: false })),
      { objectId: userId, actor: org.finance },
    );
    await onlyEvent('user.deleted', () => ok(call(org.director, 'DELETE', `users/${userId}`)), {
      objectId: userId,
      actor: org.director,
    });
  });

  it('the lock job: the system locks an overdue owner', async () => {
    const owner = await buildUser(t.db, { organizationId: org.organizationId });
    await buildStoredRetirement(t.db, {
      owner,
      attachedBy: org.finance,
      budget: org.budget,
      dueDate: '2020-01-01',
    });
    await onlyEvent(
      'user.locked',
      () => lockOverdueUsers(t.context, { asOf: '2020-06-01', organizationId: org.organizationId }),
      { objectId: owner.id, actor: null },
    );
  });

  it('budgets: created, edited, archived, re-activated, deleted', async () => {
    const created = await onlyEvent(
      'budget.created',
      () =>
        ok(
          call(org.finance, 'POST', 'budget', {
            name: 'Audited budget',
            amount: 500_000,
            department: 'all',
            amount_currency: 'tzs',
            code: 42,
            meta_data: ['operating cost', 'stemParkDar'],
          }),
          201,
        ),
      { actor: org.finance },
    );
    const id = created.object_id ?? '';
    const edited = await onlyEvent(
      'budget.updated',
      () =>
        ok(
          call(org.finance, 'PUT', 'budget', {
            id,
            name: 'Audited budget',
            amount: 750_000,
            amount_currency: 'tzs',
            code: 42,
            meta_data: ['operating cost', 'stemParkDar'],
          }),
        ),
      { objectId: id, actor: org.finance },
    );
    expect(edited.changes).toMatchObject({
      amount: { from: expect.anything(), to: expect.anything() },
    });
    await onlyEvent(
      'budget.archived',
      () => ok(call(org.finance, 'PUT', 'budget', { id, current_status: 'archived' })),
      { objectId: id },
    );
    await onlyEvent(
      'budget.reactivated',
      () => ok(call(org.finance, 'PUT', 'budget', { id, current_status: 'active' })),
      { objectId: id },
    );
    await onlyEvent(
      'budget.deleted',
      () => ok(call(org.finance, 'POST', 'budget/remove', { id })),
      {
        objectId: id,
        actor: org.finance,
      },
    );
  });

  it('requests: submitted and resubmitted', async () => {
    let requestId = '';
    const event = await onlyEvent(
      'request.submitted',
      async () => {
        requestId = (await submitted(t.app, org.staff, requestBody(org.budget.code))).id;
      },
      { actor: org.staff },
    );
    expect(event.object_id).toBe(requestId);
    expect(event.changes).toMatchObject({
      amount_requested: { to: '1000.00' },
      version: { to: 1 },
    });
    const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
    const step = request.reviews[0];
    if (!step) throw new Error('no step');
    await ok(
      review(t.app, org.finance, {
        id: step.id,
        request_id: request.id,
        status: 'request_edit',
        comments: 'Add the quote',
      }),
    );
    const resubmitted = await onlyEvent(
      'request.resubmitted',
      () =>
        ok(
          call(org.staff, 'POST', 'requests/request/request-edit', {
            ...requestBody(org.budget.code, { amount_requested: 2000 }),
            parent_request: request.id,
          }),
          201,
        ),
      { actor: org.staff },
    );
    // From the version it replaces: only what changed (decision 0019), each from its stored value.
    expect(resubmitted.changes).toEqual({
      version: { from: 1, to: 2 },
      amount_requested: { from: '1000.00', to: '2000.00' },
    });
  });

  it('retirements: attached, submitted, a step rejected, edit asked, a step approved', async () => {
    const request = await approvedRequest(t.app, {
      owner: org.staff,
      reviewers: [org.finance, org.secretary],
      budgetCode: org.budget.code,
    });
    let retirementId = '';
    await onlyEvent(
      'retirement.attached',
      async () => {
        const response = await attachRetirement(t.app, org.finance, { id: request.id });
        expect(response.statusCode).toBe(201);
        retirementId = response.json().current_retirement.id;
      },
      { actor: org.finance },
    );
    const body = {
      id: retirementId,
      amount_spent: 100,
      amount_currency: 'tzs',
      comments: 'Receipts attached',
      file_paths: [],
    };
    let submittedBody: { reviews: { id: string; round: number; status: string }[] } = {
      reviews: [],
    };
    const submit = async () => {
      submittedBody = JSON.parse(await ok(call(org.staff, 'POST', 'retirement/user-submit', body)));
    };
    await onlyEvent('retirement.submitted', submit, { objectId: retirementId, actor: org.staff });
    const stepOf = async () => {
      const rounds = submittedBody.reviews.map((row) => row.round);
      const current = Math.max(...rounds);
      return (
        submittedBody.reviews.find((row) => row.round === current && row.status === 'pending')
          ?.id ?? ''
      );
    };
    await onlyEvent(
      'retirement.review_rejected',
      async () =>
        expect(
          (
            await reviewRetirement(t.app, org.finance, {
              id: retirementId,
              review_id: await stepOf(),
              status: 'rejected',
              comments: 'Receipt missing',
            })
          ).statusCode,
        ).toBe(200),
      { objectId: retirementId, actor: org.finance },
    );
    await onlyEvent(
      'retirement.edit_requested',
      async () =>
        expect(
          (await requestRetirementEdit(t.app, org.staff, { id: retirementId })).statusCode,
        ).toBe(200),
      { objectId: retirementId, actor: org.staff },
    );
    await submit();
    await onlyEvent(
      'retirement.review_approved',
      async () =>
        expect(
          (
            await reviewRetirement(t.app, org.finance, {
              id: retirementId,
              review_id: await stepOf(),
              status: 'approved',
              comments: 'Fine',
            })
          ).statusCode,
        ).toBe(200),
      { objectId: retirementId, actor: org.finance },
    );
  });

  it('the approval matrix and the exchange rates', async () => {
    const matrix = (await call(org.director, 'GET', 'approval-matrix')).json() as {
      rows: Record<string, unknown>[];
    };
    const rows = matrix.rows.map((row, index) =>
      index === 0 ? { ...row, cascading_notification: !row.cascading_notification } : row,
    );
    await onlyEvent(
      'approval_matrix.updated',
      () => ok(call(org.director, 'PUT', 'approval-matrix', { rows })),
      { actor: org.director },
    );
    const rates = await onlyEvent(
      'exchange_rates.updated',
      () =>
        ok(
          call(org.finance, 'PUT', 'settings/exchange-rates', {
            base: 'tzs',
            rates: { usd: 2700, gbp: 3300, chf: 2900 },
          }),
        ),
      { actor: org.finance },
    );
    expect(rates.changes).toMatchObject({ usd: { to: 2700 } });
  });

  it('a change that rolls back writes no event', async () => {
    // A deferred check fails the submission at commit, after its event was written in it.
    await t.db.execute(sql`
      CREATE OR REPLACE FUNCTION refuse_rollback_traders() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name_of_establishment = 'Rollback Traders' THEN
          RAISE EXCEPTION 'refused at commit';
        END IF;
        RETURN NULL;
      END $$`);
    await t.db.execute(sql`
      CREATE CONSTRAINT TRIGGER refuse_rollback_traders AFTER INSERT ON requests
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_rollback_traders()`);
    try {
      const before = (await eventsOf('request.submitted')).length;
      const requestsBefore = await t.db.$count(requests);
      const response = await call(
        org.staff,
        'POST',
        'requests',
        requestBody(org.budget.code, { name_of_establishment: 'Rollback Traders' }),
      );
      expect(response.statusCode).toBe(500);
      expect(await t.db.$count(requests)).toBe(requestsBefore);
      expect(await eventsOf('request.submitted')).toHaveLength(before);
    } finally {
      await t.db.execute(sql`DROP TRIGGER refuse_rollback_traders ON requests`);
    }
  });

  it('a replayed idempotent call writes no second event', async () => {
    const key = randomUUID();
    const before = (await eventsOf('request.submitted')).length;
    const body = requestBody(org.budget.code);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/requests',
        headers: { ...auth(org.staff), 'idempotency-key': key },
        payload: body,
      });
      expect(response.statusCode).toBe(201);
    }
    expect(await eventsOf('request.submitted')).toHaveLength(before + 1);
  });
});

describe('the trail is append-only', () => {
  it('the application cannot update, delete or truncate an event', async () => {
    await submitted(t.app, org.staff, requestBody(org.budget.code));
    const [event] = await eventsOf('request.submitted');
    if (!event) throw new Error('no event');
    const refused = async (statement: Promise<unknown>) => {
      const error: unknown = await statement.then(
        () => null,
        (failure: unknown) => failure,
      );
      const cause = (error as { cause?: { message?: string } } | null)?.cause;
      expect(cause?.message).toMatch(/audit_events is append-only/);
    };
    await refused(
      t.db.execute(sql`UPDATE audit_events SET actor_name = 'someone else' WHERE id = ${event.id}`),
    );
    await refused(t.db.execute(sql`DELETE FROM audit_events WHERE id = ${event.id}`));
    await refused(t.db.execute(sql`TRUNCATE audit_events`));
    const [still] = await t.db.select().from(auditEvents).where(eq(auditEvents.id, event.id));
    expect(still).toEqual(event);
  });
});

describe('GET audit', () => {
  it('is the director’s: others get 403', async () => {
    for (const user of [org.staff, org.finance, org.admin, org.secretary]) {
      expect((await call(user, 'GET', 'audit')).statusCode).toBe(403);
    }
  });

  it('pages newest first with a keyset cursor, through every event exactly once', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const response = await call(
        org.director,
        'GET',
        `audit?per_page=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as {
        events: { id: number; at: string }[];
        next_cursor: string | null;
      };
      expect(page.events.length).toBeLessThanOrEqual(7);
      seen.push(...page.events.map((event) => event.id));
      cursor = page.next_cursor;
    } while (cursor);
    const all = await t.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(eq(auditEvents.organization_id, org.organizationId))
      .orderBy(desc(auditEvents.at), desc(auditEvents.id));
    expect(seen).toEqual(all.map((row) => row.id));
    expect(seen.length).toBeGreaterThan(20);
  });

  it('filters by person, action, object and date range', async () => {
    const byActor = (
      await call(org.director, 'GET', `audit?actor_id=${org.finance.id}&per_page=200`)
    ).json() as {
      events: { actor_id: string; action: string }[];
    };
    expect(byActor.events.length).toBeGreaterThan(0);
    expect(byActor.events.every((event) => event.actor_id === org.finance.id)).toBe(true);
    const byAction = (await call(org.director, 'GET', 'audit?action=budget.created')).json() as {
      events: { action: string; object_id: string }[];
    };
    expect(byAction.events.map((event) => event.action)).toEqual(['budget.created']);
    const budgetId = byAction.events[0]?.object_id ?? '';
    const byObject = (
      await call(org.director, 'GET', `audit?object_type=budget&object_id=${budgetId}`)
    ).json() as { events: { action: string }[] };
    expect(byObject.events.map((event) => event.action)).toEqual([
      'budget.deleted',
      'budget.reactivated',
      'budget.archived',
      'budget.updated',
      'budget.created',
    ]);
    const future = (await call(org.director, 'GET', 'audit?from=2099-01-01')).json() as {
      events: unknown[];
    };
    expect(future.events).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const recent = (
      await call(
        org.director,
        'GET',
        `audit?from=${yesterday}&to=${tomorrow}&action=budget.created`,
      )
    ).json() as { events: unknown[] };
    expect(recent.events).toHaveLength(1);
    expect(today).toMatch(/^\d{4}/);
  });

  it("names the page of a retirement (its request's) and of a budget (its code), not of a deleted one", async () => {
    type Page = { events: { object_id: string; object_type: string; object_key: string | null }[] };
    const page = async (query: string) =>
      (await call(org.director, 'GET', `audit?${query}`)).json() as Page;
    const created = JSON.parse(
      await ok(
        call(org.finance, 'POST', 'budget', {
          name: 'Linked budget',
          amount: 400_000,
          department: 'all',
          amount_currency: 'tzs',
          code: 43,
          meta_data: ['operating cost', 'stemParkDar'],
        }),
        201,
      ),
    ) as { data: { id: string; code: string } };
    const budget = await page(`object_type=budget&object_id=${created.data.id}`);
    expect(budget.events.map((event) => event.object_key)).toEqual([created.data.code]);

    const request = await approvedRequest(t.app, {
      owner: org.staff,
      reviewers: [org.finance, org.secretary],
      budgetCode: org.budget.code,
    });
    const attached = await attachRetirement(t.app, org.finance, { id: request.id });
    expect(attached.statusCode, attached.body).toBe(201);
    const retirementId: string = attached.json().current_retirement.id;
    const retirement = await page(`object_type=retirement&object_id=${retirementId}`);
    expect(retirement.events.map((event) => event.object_key)).toEqual([request.id]);
    // The request's own events are named by their id, as a user's are.
    const requestEvents = await page(`object_type=request&object_id=${request.id}`);
    expect(requestEvents.events.length).toBeGreaterThan(0);
    expect(requestEvents.events.every((event) => event.object_key === null)).toBe(true);
    const signIns = await page(`action=auth.signed_in&per_page=5`);
    expect(signIns.events.length).toBeGreaterThan(0);
    expect(signIns.events.every((event) => event.object_key === null)).toBe(true);

    await ok(call(org.finance, 'POST', 'budget/remove', { id: created.data.id }));
    const deleted = await page(`object_type=budget&object_id=${created.data.id}`);
    expect(deleted.events.map((event) => event.object_key)).toEqual([null, null]);
  });

  it('refuses bad filters with a 400 that names them', async () => {
    for (const query of [
      'action=budget.stolen',
      'actor_id=nope',
      'from=2026-13-45',
      'from=2026-02-01&to=2026-01-01',
      'cursor=not-a-cursor-we-made',
      'per_page=1000',
      // A day the calendar lacks: the database refused it only once the download had begun
      // streaming, which dropped the connection instead of answering.
      'from=2026-02-31',
      'to=2026-04-31',
    ]) {
      // The download takes the filters, not the paging.
      const paths = /cursor|per_page/.test(query) ? ['audit'] : ['audit', 'audit/download'];
      for (const path of paths) {
        const response = await call(org.director, 'GET', `${path}?${query}`);
        expect(response.statusCode, `${path}?${query}`).toBe(400);
        expect(response.json().error, `${path}?${query}`).toMatch(/\S/);
      }
    }
  });

  it('downloads the filtered trail as a spreadsheet', async () => {
    const response = await call(org.director, 'GET', 'audit/download?action=user.created');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/Audit trail\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Audit trail');
    const created = await eventsOf('user.created');
    expect((sheet?.rowCount ?? 0) - 1).toBe(created.length);
    // In the page's words, a line a field: the action, the object and what changed.
    const row = sheet?.getRow(2);
    // When, on the organisation's clock as the page shows it (a spreadsheet's time has no zone).
    expect(sheet?.getRow(1).getCell(1).value).toBe('When');
    const at = created[0]?.at ?? new Date(Number.NaN);
    expect((row?.getCell(1).value as Date).getTime()).toBeCloseTo(
      wallClockIn(at, t.context.config.orgTimezone).getTime(),
      -1,
    );
    expect(row?.getCell(3).value).toBe('User created');
    expect(row?.getCell(4).value).toBe('User');
    const changes = String(row?.getCell(6).value).split('\n');
    expect(changes).toEqual(expect.arrayContaining([expect.stringMatching(/^Full name: \S/)]));
    expect(changes).toEqual(expect.arrayContaining([expect.stringMatching(/^Position: [A-Z]/)]));
    expect(changes.join('\n')).not.toMatch(/[{}"]/);
  });
});

describe('GET audit/history', () => {
  it('shows a request’s own history to those who may read the request, and no one else', async () => {
    const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
    const mine = await call(org.staff, 'GET', `audit/history/request/${request.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().events.map((event: { action: string }) => event.action)).toEqual([
      'request.submitted',
    ]);
    expect(
      (await call(org.otherStaff, 'GET', `audit/history/request/${request.id}`)).statusCode,
    ).toBe(404);
    const elsewhere = await buildStaffedOrganization(t.db, {
      name: 'Elsewhere',
      budgetCode: '6107',
    });
    expect(
      (await call(elsewhere.director, 'GET', `audit/history/request/${request.id}`)).statusCode,
    ).toBe(404);
  });

  type HistoryEvent = { action: string; ip: string | null; request_id: string | null };

  /** Every event of an object's history as `user` sees it, page by page (`per_page` each). */
  async function historyOf(user: TestUser, path: string, perPage = 50): Promise<HistoryEvent[]> {
    const seen: HistoryEvent[] = [];
    let cursor: string | null = null;
    do {
      const page = JSON.parse(
        await ok(
          call(
            user,
            'GET',
            `audit/history/${path}?per_page=${perPage}${cursor ? `&cursor=${cursor}` : ''}`,
          ),
        ),
      ) as { events: HistoryEvent[]; next_cursor: string | null };
      // The left-out events are left out in the query: no page comes back short or empty.
      if (page.next_cursor) expect(page.events).toHaveLength(perPage);
      seen.push(...page.events);
      cursor = page.next_cursor;
    } while (cursor);
    return seen;
  }

  const isAuth = (event: HistoryEvent) => event.action.startsWith('auth.');
  const hasOrigin = (event: HistoryEvent) => event.ip !== null || event.request_id !== null;

  it('shows a user’s sign-ins and addresses to the director only; the user sees their own sign-ins', async () => {
    const user = await buildUser(t.db, { organizationId: org.organizationId });
    await ok(
      call(null, 'POST', 'users/authenticate', { email: user.email, password: testPassword }),
    );
    expect(
      (
        await call(null, 'POST', 'users/authenticate', {
          email: user.email,
          password: 'not the password',
        })
      ).statusCode,
    ).toBe(401);
    // Changing the password ends the old session: carry on with the token it answers.
    const { token } = JSON.parse(
      await ok(
        call(user, 'PUT', 'users/password', {
          current_password: testPassword,
          new_password: 'a brand new password',
        }),
      ),
    ) as { token: string };
    await ok(call(org.admin, 'PUT', 'users', { user_id: user.id, phone_number: '255722222222' }));

    const everything = await historyOf(org.director, `user/${user.id}`);
    expect(everything.map((event) => event.action)).toEqual([
      'user.updated',
      'auth.password_changed',
      'auth.sign_in_failed',
      'auth.signed_in',
    ]);
    expect(everything.every((event) => event.ip === '127.0.0.1')).toBe(true);
    expect(everything.every((event) => /\S/.test(event.request_id ?? ''))).toBe(true);

    // Admins who are not the director (an admin, a petty cash custodian): no auth.*, no origin.
    for (const reader of [org.admin, org.custodian]) {
      const seen = await historyOf(reader, `user/${user.id}`, 1);
      expect(seen.map((event) => event.action)).toEqual(['user.updated']);
      expect(seen.filter(hasOrigin)).toEqual([]);
    }

    // Their own account: their sign-ins and password events, but no addresses or request ids.
    const own = await historyOf({ ...user, token }, `user/${user.id}`);
    expect(own.map((event) => event.action)).toEqual(everything.map((event) => event.action));
    expect(own.filter(hasOrigin)).toEqual([]);
    expect(own.filter(isAuth)).toHaveLength(3);
  });

  it('includes the events of the request’s retirement, page by page, and no other retirement’s', async () => {
    const approved = () =>
      approvedRequest(t.app, {
        owner: org.staff,
        reviewers: [org.finance, org.secretary],
        budgetCode: org.budget.code,
      });
    const request = await approved();
    const other = await approved();
    const retirementOf = async (id: string) => {
      const response = await attachRetirement(t.app, org.finance, { id });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().current_retirement.id as string;
    };
    const retirementId = await retirementOf(request.id);
    await retirementOf(other.id);
    await ok(
      call(org.staff, 'POST', 'retirement/user-submit', {
        id: retirementId,
        amount_spent: 100,
        amount_currency: 'tzs',
        comments: 'Receipts attached',
        file_paths: [],
      }),
    );
    const expected = [
      'retirement.submitted',
      'retirement.attached',
      'review.approved',
      'review.approved',
      'request.submitted',
    ];
    const director = await historyOf(org.director, `request/${request.id}`, 2);
    expect(director.map((event) => event.action)).toEqual(expected);
    expect(director.every(hasOrigin)).toBe(true);
    // The owner reads the request, so its retirement too: the same events, without addresses.
    const owner = await historyOf(org.staff, `request/${request.id}`, 1);
    expect(owner.map((event) => event.action)).toEqual(expected);
    expect(owner.filter(hasOrigin)).toEqual([]);
    expect(
      (await call(org.otherStaff, 'GET', `audit/history/request/${request.id}`)).statusCode,
    ).toBe(404);
    // The other request's history has its own retirement only.
    const others = await historyOf(org.director, `request/${other.id}`);
    expect(others.map((event) => event.action)).toEqual(expected.slice(1));
  });

  it('shows a request’s reviewers’ addresses to the director only, not to the owner', async () => {
    const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
    const step = request.reviews[0];
    if (!step) throw new Error('no step');
    await ok(
      review(t.app, org.finance, {
        id: step.id,
        request_id: request.id,
        status: 'approved',
        comments: 'Fine',
      }),
    );
    const expected = ['review.approved', 'request.submitted'];
    const owner = await historyOf(org.staff, `request/${request.id}`);
    expect(owner.map((event) => event.action)).toEqual(expected);
    expect(owner.filter(hasOrigin)).toEqual([]);
    const director = await historyOf(org.director, `request/${request.id}`);
    expect(director.map((event) => event.action)).toEqual(expected);
    expect(director.map((event) => event.ip)).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(director.every((event) => /\S/.test(event.request_id ?? ''))).toBe(true);
  });
});
