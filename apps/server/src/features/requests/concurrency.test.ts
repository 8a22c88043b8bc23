import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests } from '../../db/schema.ts';
import { budgetBalance } from '../budgets/ledger.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { requestBody, review, submit, submitted } from '../../../test/factories/requests.ts';
import {
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

// Parallel requests through app.inject against real PostgreSQL: the budget row lock (lockBudget)
// and the request row lock must hold whatever order the transactions interleave in.

let t: TestApp;
let organizationId: string;
let staff: TestUser[];

beforeAll(async () => {
  t = await createTestApp();
  organizationId = await buildOrganization(t.db);
  staff = await Promise.all(
    Array.from({ length: 5 }, (_, index) =>
      buildUser(t.db, { organizationId, fullname: `Staff ${index}` }),
    ),
  );
});

describe('concurrent submissions', () => {
  it('25 submissions against room for exactly 10: 10 succeed, 15 fail cleanly, nothing over-commits', async () => {
    const budget = await buildBudget(t.db, { organizationId, amount: 10 * 12_345.67 });
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, index) =>
        submit(
          t.app,
          staff[index % staff.length] as TestUser,
          requestBody(budget.code, { amount_requested: 12_345.67 }),
        ),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    const failures = responses.filter((response) => response.statusCode !== 201);
    expect(failures).toHaveLength(15);
    for (const failure of failures) {
      // 409 when the room went to a concurrent submission, 400 when it was gone before this one began.
      expect([400, 409]).toContain(failure.statusCode);
      expect(failure.json().error).toBe(
        'The entered amount exceeds the available balance in the budget code',
      );
    }
    const balance = await budgetBalance(t.db, budget);
    expect(balance.available).toBe(0);
    expect(balance.committed).toBe(balance.amount);
    expect(await t.db.$count(requests, eq(requests.budget_id, budget.id))).toBe(10);
  });

  it('mixed amounts never take a budget below zero', async () => {
    const budget = await buildBudget(t.db, { organizationId, amount: 100_000 });
    const amounts = Array.from({ length: 30 }, (_, index) => 1_000 + ((index * 7_919) % 9_000));
    const responses = await Promise.all(
      amounts.map((amount, index) =>
        submit(
          t.app,
          staff[index % staff.length] as TestUser,
          requestBody(budget.code, { amount_requested: amount }),
        ),
      ),
    );
    const accepted = amounts.filter((_, index) => responses[index]?.statusCode === 201);
    expect(responses.every((response) => [201, 400, 409].includes(response.statusCode))).toBe(true);
    const balance = await budgetBalance(t.db, budget);
    expect(balance.committed).toBe(accepted.reduce((sum, amount) => sum + amount, 0));
    expect(balance.available).toBeGreaterThanOrEqual(0);
    // What is left is less than every refused amount would have needed.
    const refused = amounts.filter((_, index) => responses[index]?.statusCode !== 201);
    for (const amount of refused) expect(amount).toBeGreaterThan(balance.available);
  });
});

describe('concurrent approvals', () => {
  let finance: TestUser;
  let secretaries: TestUser[];

  beforeAll(async () => {
    finance = await buildUser(t.db, { organizationId, role: 'finance_officer' });
    secretaries = await Promise.all(
      Array.from({ length: 3 }, () =>
        buildUser(t.db, { organizationId, role: 'executive_secretary' }),
      ),
    );
  });

  it('issues distinct, consecutive approval numbers to requests approved at the same moment', async () => {
    const budget = await buildBudget(t.db, { organizationId, amount: 1_000_000 });
    const submittedRequests = [];
    for (let index = 0; index < 12; index += 1) {
      const request = await submitted(
        t.app,
        staff[index % staff.length] as TestUser,
        requestBody(budget.code),
      );
      const first = await review(t.app, finance, {
        id: request.reviews[0]?.id ?? '',
        request_id: request.id,
        status: 'approved',
      });
      expect(first.statusCode).toBe(200);
      submittedRequests.push(request);
    }
    const responses = await Promise.all(
      submittedRequests.map((request, index) =>
        review(t.app, secretaries[index % secretaries.length] as TestUser, {
          id: request.reviews[1]?.id ?? '',
          request_id: request.id,
          status: 'approved',
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(12).fill(200));
    const numbers = responses.map((response) => response.json().approval_number as string);
    const sequences = numbers.map((number) => Number(number.split('-')[2])).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
  });

  it('the same step answered by several reviewers at once has exactly one winner', async () => {
    const budget = await buildBudget(t.db, { organizationId, amount: 1_000_000 });
    const request = await submitted(t.app, staff[0] as TestUser, requestBody(budget.code));
    await review(t.app, finance, {
      id: request.reviews[0]?.id ?? '',
      request_id: request.id,
      status: 'approved',
    });
    const responses = await Promise.all(
      [...secretaries, ...secretaries].map((user, index) =>
        review(t.app, user, {
          id: request.reviews[1]?.id ?? '',
          request_id: request.id,
          status: index % 2 ? 'rejected' : 'approved',
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
  });
});
