import { messages } from '@imprest/domain/messages.ts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgets, requests } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, submit } from '../../../test/factories/requests.ts';
import { auth, createTestApp, type TestApp } from '../../../test/helpers.ts';

// Docs/decisions/0013: money decisions are taken in SQL numeric or on whole cents, never on doubles.

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});

describe('the budget check on submission', () => {
  it('compares amount − committed with the amount in SQL numeric, to the cent', async () => {
    // A budget stored before the money cap, where doubles are 1 tzs apart: as doubles, amount and
    // committed read 9,000,000,000,000,000 and 8,999,999,999,999,999, so 1 tzs seemed available.
    const budget = await buildBudget(t.db, {
      organizationId: org.organizationId,
      amount: '8999999999999999.60',
    });
    await t.db
      .update(budgets)
      .set({ committed: '8999999999999999.40' })
      .where(eq(budgets.id, budget.id));

    const tooMuch = await submit(
      t.app,
      org.staff,
      requestBody(budget.code, { amount_requested: 0.21 }),
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error).toBe(messages.amountExceedsBalance);

    const exact = await submit(
      t.app,
      org.staff,
      requestBody(budget.code, { amount_requested: 0.2 }),
    );
    expect(exact.statusCode).toBe(201);
    const [row] = await t.db.select().from(budgets).where(eq(budgets.id, budget.id));
    expect(row?.committed).toBe('8999999999999999.60');
  });

  it('refuses an amount above the money cap with a message that names it', async () => {
    const response = await submit(
      t.app,
      org.staff,
      requestBody(org.budget.code, { amount_requested: 1e15 }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toContainEqual({
      path: 'amount_requested',
      message: 'Amounts can be at most 10,000,000,000,000',
    });
  });
});

describe('amounts finer than a cent', () => {
  it('are refused, never rounded: a request or budget of 1e-9 was stored as 0', async () => {
    const request = (amount: number) =>
      submit(t.app, org.staff, requestBody(org.budget.code, { amount_requested: amount }));
    const budget = (amount: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/budget',
        headers: auth(org.finance),
        payload: {
          name: 'Tiny',
          amount,
          amount_currency: 'tzs',
          code: 42,
          meta_data: ['unicef', 'hq'],
        },
      });
    const before = await t.db.$count(requests);
    for (const amount of [1e-9, 100.000000001, 0.001]) {
      const refused = await request(amount);
      expect(refused.statusCode, String(amount)).toBe(400);
      expect(refused.json().details).toContainEqual({
        path: 'amount_requested',
        message: 'Amount may have at most two decimals',
      });
      expect((await budget(amount)).statusCode, String(amount)).toBe(400);
    }
    expect(await t.db.$count(requests)).toBe(before);
    expect(await t.db.$count(budgets, eq(budgets.name, 'Tiny'))).toBe(0);
    // The same bodies with whole cents pass.
    const cents = await request(0.07);
    expect(cents.statusCode).toBe(201);
    expect(cents.json().amount_requested).toBe(0.07);
    const created = await budget(0.07);
    expect(created.statusCode, created.body).toBe(201);
  });
});

describe('the approval row of a foreign-currency request', () => {
  it('is chosen by the exactly converted amount: 0.43 usd × 2,600.5 = 1,118.215 → 1,118.22', async () => {
    const own = await buildStaffedOrganization(t.db, { name: 'Rounding Org' });
    const matrix = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/approval-matrix',
      headers: auth(own.director),
      payload: {
        rows: [
          { start_value: 0, end_value: 1118.22, user_role: ['finance_officer'] },
          { start_value: 1118.22, end_value: null, user_role: ['finance_officer', 'director'] },
        ],
      },
    });
    expect(matrix.statusCode).toBe(200);
    const rates = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/settings/exchange-rates',
      headers: auth(own.finance),
      payload: { base: 'tzs', rates: { usd: 2600.5, gbp: 3300, chf: 2900 } },
    });
    expect(rates.statusCode).toBe(200);
    const budget = await buildBudget(t.db, {
      organizationId: own.organizationId,
      currency: 'usd',
      amount: 1000,
    });

    // In doubles 0.43 × 2600.5 is 1,118.2149999…, which rounded to 1,118.21 and skipped the director.
    const response = await submit(
      t.app,
      own.staff,
      requestBody(budget.code, { amount_currency: 'usd', amount_requested: 0.43 }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ exchange_rate: 2600.5, amount_base: 1118.22 });
    expect(
      response.json().reviews.map((step: { reviewer_role: string }) => step.reviewer_role),
    ).toEqual(['finance_officer', 'director']);
  });
});
