import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  budgets,
  idempotencyKeys,
  retirementReviews,
  retirements,
  reviews,
  requests,
  users,
} from '../db/schema.ts';
import { recomputedCommittedAmount, committedAmount } from '../features/budgets/ledger.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../test/factories/organizations.ts';
import { requestBody, review, submitted } from '../../test/factories/requests.ts';
import {
  approvedRequest,
  buildRetirement,
  submittedRetirement,
} from '../../test/factories/retirements.ts';
import { auth, createTestApp, type TestApp } from '../../test/helpers.ts';
import { idempotencyMessages } from './idempotency.ts';

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});
afterAll(async () => {
  await t.app.close();
});

type Call = {
  user: { token: string };
  method: 'POST' | 'PUT';
  url: string;
  body: Record<string, unknown>;
};

function send(call: Call, key?: string, body: Record<string, unknown> = call.body) {
  return t.app.inject({
    method: call.method,
    url: `/api/v1/${call.url}`,
    headers: { ...auth(call.user), ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: body,
  });
}

/** What a test compares: the status and body a client saw. */
const answer = (response: LightMyRequestResponse) => ({
  status: response.statusCode,
  body: response.body,
});

/**
 * Each write of issue 14 that creates or decides something: a fresh set-up, the call, another
 * body for the same call, and a count of the rows that one effective call adds (exactly one).
 */
type Write = {
  name: string;
  status: number;
  prepare: () => Promise<{ call: Call; otherBody: Record<string, unknown> }>;
  count: () => Promise<number>;
};

let budgetNumber = 10;
let personNumber = 0;

const writes: Write[] = [
  {
    name: 'submit a request',
    status: 201,
    prepare: async () => {
      const body = requestBody(org.budget.code);
      return {
        call: { user: org.staff, method: 'POST', url: 'requests', body },
        otherBody: { ...body, amount_requested: 2000 },
      };
    },
    count: () => t.db.$count(requests),
  },
  {
    name: 'resubmit a request',
    status: 201,
    prepare: async () => {
      const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
      const step = request.reviews[0];
      if (!step) throw new Error('no step');
      const returned = await review(t.app, org.finance, {
        id: step.id,
        request_id: request.id,
        status: 'request_edit',
        comments: 'Add the quote',
      });
      expect(returned.statusCode).toBe(200);
      const body = { ...requestBody(org.budget.code), parent_request: request.id };
      return {
        call: { user: org.staff, method: 'POST', url: 'requests/request/request-edit', body },
        otherBody: { ...body, amount_requested: 2000 },
      };
    },
    count: () => t.db.$count(requests),
  },
  {
    name: 'answer a review',
    status: 200,
    prepare: async () => {
      const request = await submitted(t.app, org.staff, requestBody(org.budget.code));
      const step = request.reviews[0];
      if (!step) throw new Error('no step');
      const body = { id: step.id, request_id: request.id, status: 'approved', comments: 'Fine' };
      return {
        call: { user: org.finance, method: 'PUT', url: 'reviews', body },
        otherBody: { ...body, status: 'rejected' },
      };
    },
    count: () => t.db.$count(reviews, eq(reviews.status, 'approved')),
  },
  {
    name: 'attach a retirement',
    status: 201,
    prepare: async () => {
      const request = await approvedRequest(t.app, {
        owner: org.staff,
        reviewers: [org.finance, org.secretary],
        budgetCode: org.budget.code,
      });
      const other = await approvedRequest(t.app, {
        owner: org.staff,
        reviewers: [org.finance, org.secretary],
        budgetCode: org.budget.code,
      });
      return {
        call: {
          user: org.finance,
          method: 'POST',
          url: 'retirement/attach-retirement',
          body: { id: request.id },
        },
        otherBody: { id: other.id },
      };
    },
    count: () => t.db.$count(retirements),
  },
  {
    name: 'submit a retirement',
    status: 200,
    prepare: async () => {
      const retirement = await buildRetirement(t.app, {
        owner: org.staff,
        finance: org.finance,
        reviewers: [org.finance, org.secretary],
        budgetCode: org.budget.code,
      });
      const body = {
        id: retirement.id,
        amount_spent: 400,
        amount_currency: retirement.amount_currency,
        comments: 'Receipts attached',
        file_paths: [],
      };
      return {
        call: { user: org.staff, method: 'POST', url: 'retirement/user-submit', body },
        otherBody: { ...body, amount_spent: 500 },
      };
    },
    // One review round a submission.
    count: async () => {
      const result = await t.db.execute<{ rounds: number }>(
        sql`SELECT count(DISTINCT (retirement_id, round))::int AS rounds FROM retirement_reviews`,
      );
      return result.rows[0]?.rounds ?? 0;
    },
  },
  {
    name: 'review a retirement',
    status: 200,
    prepare: async () => {
      const retirement = await submittedRetirement(
        t.app,
        org.staff,
        await buildRetirement(t.app, {
          owner: org.staff,
          finance: org.finance,
          reviewers: [org.finance, org.secretary],
          budgetCode: org.budget.code,
        }),
      );
      const step = retirement.reviews.find((row) => row.status === 'pending');
      if (!step) throw new Error('no pending step');
      const body = { id: retirement.id, review_id: step.id, status: 'approved', comments: 'Fine' };
      return {
        call: { user: org.finance, method: 'POST', url: 'retirement/review', body },
        otherBody: { ...body, status: 'rejected' },
      };
    },
    count: () => t.db.$count(retirementReviews, eq(retirementReviews.status, 'approved')),
  },
  {
    name: 'create a user',
    status: 201,
    prepare: async () => {
      personNumber += 1;
      const body = {
        fullname: `Person ${personNumber}`,
        email: `person${personNumber}@retry.test`,
        department: 'engineering',
        role: 'staff',
        system_role: 'staff',
        phone_number: '255700000000',
      };
      return {
        call: { user: org.admin, method: 'POST', url: 'users', body },
        otherBody: { ...body, fullname: 'Somebody Else' },
      };
    },
    count: () => t.db.$count(users),
  },
  {
    name: 'create a budget',
    status: 201,
    prepare: async () => {
      budgetNumber += 1;
      const body = {
        name: `Retry budget ${budgetNumber}`,
        description: 'Source of funds: grant 12',
        amount: 500_000,
        department: 'all',
        amount_currency: 'tzs',
        code: budgetNumber,
        meta_data: ['operating cost', 'stemParkDar'],
      };
      return {
        call: { user: org.finance, method: 'POST', url: 'budget', body },
        otherBody: { ...body, amount: 600_000 },
      };
    },
    count: () => t.db.$count(budgets),
  },
];

describe.each(writes)('Idempotency-Key: $name', (write) => {
  it('a repeat with the same key and body gets the first answer and changes nothing', async () => {
    const { call } = await write.prepare();
    const before = await write.count();
    const key = randomUUID();
    const first = await send(call, key);
    expect(first.statusCode, first.body).toBe(write.status);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(call, key);
    expect(answer(again)).toEqual(answer(first));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(await write.count()).toBe(before + 1);
  });

  it('concurrent calls with one key make one write and all get its answer', async () => {
    const { call } = await write.prepare();
    const before = await write.count();
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 6 }, () => send(call, key)));
    const first = responses[0];
    if (!first) throw new Error('no response');
    expect(first.statusCode, first.body).toBe(write.status);
    for (const response of responses) expect(answer(response)).toEqual(answer(first));
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await write.count()).toBe(before + 1);
  });

  it('the same key with another body is a 422 and changes nothing', async () => {
    const { call, otherBody } = await write.prepare();
    const key = randomUUID();
    expect((await send(call, key)).statusCode).toBe(write.status);
    const before = await write.count();
    const other = await send(call, key, otherBody);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: idempotencyMessages.otherBody });
    expect(await write.count()).toBe(before);
  });
});

describe('Idempotency-Key: the rules around the key', () => {
  const submitCall = (body = requestBody(org.budget.code)): Call => ({
    user: org.staff,
    method: 'POST',
    url: 'requests',
    body,
  });

  it('without a key, a repeat is a second write (the key is what deduplicates)', async () => {
    const call = submitCall();
    const before = await t.db.$count(requests);
    expect((await send(call)).statusCode).toBe(201);
    expect((await send(call)).statusCode).toBe(201);
    expect(await t.db.$count(requests)).toBe(before + 2);
  });

  it('a refused first try records nothing: the key then serves the corrected call', async () => {
    // Refused inside the write's transaction, after the key was recorded: both roll back.
    const pending = await submitted(t.app, org.staff, requestBody(org.budget.code));
    const approved = await approvedRequest(t.app, {
      owner: org.staff,
      reviewers: [org.finance, org.secretary],
      budgetCode: org.budget.code,
    });
    const attach = (id: string): Call => ({
      user: org.finance,
      method: 'POST',
      url: 'retirement/attach-retirement',
      body: { id },
    });
    const key = randomUUID();
    const refused = await send(attach(pending.id), key);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(await t.db.$count(idempotencyKeys, eq(idempotencyKeys.key, key))).toBe(0);
    const before = await t.db.$count(retirements);
    const accepted = await send(attach(approved.id), key);
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.headers['idempotent-replayed']).toBeUndefined();
    expect(await t.db.$count(retirements)).toBe(before + 1);
  });

  it('a refusal before any write records nothing either', async () => {
    const key = randomUUID();
    const tooMuch = submitCall(requestBody(org.budget.code, { amount_requested: 2_000_000_000 }));
    expect((await send(tooMuch, key)).statusCode).toBe(400);
    expect(await t.db.$count(idempotencyKeys, eq(idempotencyKeys.key, key))).toBe(0);
    expect((await send(submitCall(), key)).statusCode).toBe(201);
  });

  it('keys belong to their user: another user with the same key makes their own write', async () => {
    const key = randomUUID();
    const before = await t.db.$count(requests);
    const mine = await send(submitCall(), key);
    const theirs = await send({ ...submitCall(), user: org.otherStaff }, key);
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(mine.json().id).not.toBe(theirs.json().id);
    expect(await t.db.$count(requests)).toBe(before + 2);
  });

  it('a malformed key is a 400 that changes nothing', async () => {
    const before = await t.db.$count(requests);
    for (const key of ['x'.repeat(256), 'two words', 'clé']) {
      const response = await send(submitCall(), key);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/Idempotency-Key must be 1 to 255 visible ASCII/);
    }
    expect(await t.db.$count(requests)).toBe(before);
  });

  it('a key older than 24 hours is forgotten: the call runs again', async () => {
    const key = randomUUID();
    const call = submitCall();
    expect((await send(call, key)).statusCode).toBe(201);
    await t.db
      .update(idempotencyKeys)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(idempotencyKeys.key, key));
    const before = await t.db.$count(requests);
    const again = await send(call, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await t.db.$count(requests)).toBe(before + 1);
  });

  it('a key saved without its answer (the process stopped after commit) is a clear 409', async () => {
    const key = randomUUID();
    const call = submitCall();
    expect((await send(call, key)).statusCode).toBe(201);
    await t.db
      .update(idempotencyKeys)
      .set({ status_code: null, response_body: null, created_at: sql`now() - interval '1 hour'` })
      .where(and(eq(idempotencyKeys.key, key), eq(idempotencyKeys.user_id, org.staff.id)));
    const before = await t.db.$count(requests);
    const again = await send(call, key);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: idempotencyMessages.answerLost });
    expect(await t.db.$count(requests)).toBe(before);
  });

  it('a burst of retried submissions leaves the budget ledger exact', async () => {
    const keys = Array.from({ length: 10 }, () => randomUUID());
    const bodies = keys.map(() => requestBody(org.budget.code, { amount_requested: 1234.5 }));
    await Promise.all(
      keys.flatMap((key, index) => [0, 1, 2].map(() => send(submitCall(bodies[index]), key))),
    );
    expect(await committedAmount(t.db, org.budget.id)).toBe(
      await recomputedCommittedAmount(t.db, org.budget.id),
    );
    const rows = await t.db
      .select({ key: idempotencyKeys.key, status: idempotencyKeys.status_code })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.user_id, org.staff.id));
    for (const key of keys) expect(rows.find((row) => row.key === key)?.status).toBe(201);
  });
});
