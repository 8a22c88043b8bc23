import { beforeAll, describe, expect, it } from 'vitest';
import { exchangeRates } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../../test/factories/requests.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';

let t: TestApp;
let organizationId: string;
let staff: TestUser;
let finance: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, staff, finance, admin } = await buildStaffedOrganization(t.db));
});

const url = '/api/v1/settings/exchange-rates';

describe('exchange rates', () => {
  it('answers the defaults to every user while finance has set none', async () => {
    const response = await t.app.inject({ method: 'GET', url, headers: auth(staff) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ base: 'tzs', rates: { usd: 2600, gbp: 3300, chf: 2900 } });
  });

  it('lets finance change them; new requests use the new rate, earlier ones keep theirs', async () => {
    const budget = await buildBudget(t.db, { organizationId, currency: 'gbp', amount: 1_000_000 });
    const before = await submitted(
      t.app,
      staff,
      requestBody(budget.code, { amount_currency: 'gbp', amount_requested: 100 }),
    );
    expect(before).toMatchObject({ exchange_rate: 3300, amount_base: 330_000 });

    const response = await t.app.inject({
      method: 'PUT',
      url,
      headers: auth(finance),
      payload: { base: 'tzs', rates: { usd: 2550.5, gbp: 3312.123456, chf: 2875 } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      base: 'tzs',
      rates: { usd: 2550.5, gbp: 3312.123456, chf: 2875 },
    });
    expect(
      (await t.app.inject({ method: 'GET', url, headers: auth(staff) })).json().rates.gbp,
    ).toBe(3312.123456);

    const after = await submitted(
      t.app,
      staff,
      requestBody(budget.code, { amount_currency: 'gbp', amount_requested: 100 }),
    );
    expect(after).toMatchObject({ exchange_rate: 3312.123456, amount_base: 331_212.35 });
    const old = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${before.id}`,
      headers: auth(staff),
    });
    expect(old.json()).toMatchObject({ exchange_rate: 3300, amount_base: 330_000 });
  });

  it('refuses non-finance users (403) and bad rates (400), changing nothing', async () => {
    const count = await t.db.$count(exchangeRates);
    const body = { base: 'tzs', rates: { usd: 1, gbp: 1, chf: 1 } };
    for (const user of [staff, admin]) {
      const response = await t.app.inject({
        method: 'PUT',
        url,
        headers: auth(user),
        payload: body,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('Only finance can change the exchange rates.');
    }
    for (const bad of [
      { rates: { usd: 0, gbp: 1, chf: 1 } },
      { rates: { usd: -1, gbp: 1, chf: 1 } },
      { rates: { usd: '2600', gbp: 1, chf: 1 } },
      { rates: { usd: 1, gbp: 1 } },
      { base: 'usd', rates: { usd: 1, gbp: 1, chf: 1 } },
    ]) {
      const response = await t.app.inject({
        method: 'PUT',
        url,
        headers: auth(finance),
        payload: bad,
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await t.db.$count(exchangeRates)).toBe(count);
    expect(
      (await t.app.inject({ method: 'GET', url, headers: auth(staff) })).json().rates.usd,
    ).toBe(2550.5);
  });
});
