import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { exchangeRateChanges, exchangeRates } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../../test/factories/requests.ts';
import { auth, createTestApp, type TestApp, type TestUser } from '../../../test/helpers.ts';
import { mailDeliveryResponse } from '@imprest/domain/api/settings.ts';
import path from 'node:path';

let t: TestApp;
let organizationId: string;
let staff: TestUser;
let finance: TestUser;
let admin: TestUser;
let finance2: TestUser;
let director: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, staff, finance, admin, finance2, director } = await buildStaffedOrganization(
    t.db,
  ));
});

const url = '/api/v1/settings/exchange-rates';
const changesUrl = '/api/v1/settings/exchange-rates/changes';

async function changesOf(orgId: string) {
  return t.db
    .select()
    .from(exchangeRateChanges)
    .where(eq(exchangeRateChanges.organization_id, orgId))
    .orderBy(asc(exchangeRateChanges.id));
}

async function putRates(user: TestUser, rates: Record<string, unknown>) {
  return t.app.inject({ method: 'PUT', url, headers: auth(user), payload: { base: 'tzs', rates } });
}

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
    // The organisation hears of it (decision 0034); a save that changes nothing says nothing.
    expect(t.events).toContainEqual({
      organizationId,
      event: 'exchange_rates_updated',
      payload: {},
    });
    const heard = t.events.length;
    await putRates(finance, { usd: 2550.5, gbp: 3312.123456, chf: 2875 });
    expect(t.events.length).toBe(heard);
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

describe('exchange rate bounds (docs/decisions/0013)', () => {
  it('refuses a rate below 1 or above 100,000 tzs per unit with 400, changing nothing', async () => {
    const before = (await t.app.inject({ method: 'GET', url, headers: auth(staff) })).json();
    const rows = await t.db.select().from(exchangeRates);
    const changes = await t.db.$count(exchangeRateChanges);
    for (const usd of [0.000001, 0.5, 0.999999, 100_000.000001, 1_000_000]) {
      const response = await putRates(finance, { usd, gbp: 3300, chf: 2900 });
      expect(response.statusCode, String(usd)).toBe(400);
      expect(response.json().details).toContainEqual({
        path: 'rates.usd',
        message: 'Rates must be between 1 and 100,000 tzs per unit',
      });
    }
    expect((await t.app.inject({ method: 'GET', url, headers: auth(staff) })).json()).toEqual(
      before,
    );
    expect(await t.db.select().from(exchangeRates)).toEqual(rows);
    expect(await t.db.$count(exchangeRateChanges)).toBe(changes);
  });

  it('accepts the bounds themselves', async () => {
    const { organizationId: orgId, finance: keeper } = await buildStaffedOrganization(t.db, {
      name: 'Bounds Org',
    });
    const response = await putRates(keeper, { usd: 1, gbp: 100_000, chf: 2900 });
    expect(response.statusCode).toBe(200);
    expect(response.json().rates).toEqual({ usd: 1, gbp: 100_000, chf: 2900 });
    expect((await changesOf(orgId)).map((row) => row.currency)).toEqual(['usd', 'gbp']);
  });
});

describe('exchange rate changelog', () => {
  it('logs each changed rate with its actor in the same save, and nothing for unchanged rates', async () => {
    const {
      organizationId: orgId,
      finance: keeper,
      finance2: other,
    } = await buildStaffedOrganization(t.db, { name: 'Changelog Org' });
    // usd unchanged from the default: no row; gbp and chf change from the default (old_rate null).
    expect((await putRates(keeper, { usd: 2600, gbp: 3400, chf: 2950.25 })).statusCode).toBe(200);
    let rows = await changesOf(orgId);
    expect(rows).toMatchObject([
      { currency: 'gbp', old_rate: null, new_rate: '3400.000000', actor_id: keeper.id },
      { currency: 'chf', old_rate: null, new_rate: '2950.250000', actor_id: keeper.id },
    ]);
    expect(rows[0]?.actor_name).toBe('Chausiku Finance');

    // The same rates again: nothing changes, nothing is logged.
    expect((await putRates(other, { usd: 2600, gbp: 3400, chf: 2950.25 })).statusCode).toBe(200);
    expect(await changesOf(orgId)).toHaveLength(2);

    // One rate changes: one row, from the stored rate, by the second finance officer.
    expect((await putRates(other, { usd: 2600, gbp: 3400, chf: 2800 })).statusCode).toBe(200);
    rows = await changesOf(orgId);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({
      currency: 'chf',
      old_rate: '2950.250000',
      new_rate: '2800.000000',
      actor_id: other.id,
      actor_name: 'Zawadi Finance',
    });

    const response = await t.app.inject({ method: 'GET', url: changesUrl, headers: auth(keeper) });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ total: 3, page: 1, per_page: 10 });
    // Newest first.
    expect(body.data[0]).toEqual({
      id: rows[2]?.id,
      currency: 'chf',
      old_rate: 2950.25,
      new_rate: 2800,
      changed_by: { id: other.id, fullname: 'Zawadi Finance' },
      changed_at: rows[2]?.created_at.toISOString(),
    });
    expect(body.data.map((change: { currency: string }) => change.currency)).toEqual([
      'chf',
      'chf',
      'gbp',
    ]);
  });

  it('pages the list (decisions §2) and refuses bad page parameters', async () => {
    const { finance: keeper } = await buildStaffedOrganization(t.db, { name: 'Pages Org' });
    for (const usd of [2601, 2602, 2603]) {
      expect((await putRates(keeper, { usd, gbp: 3300, chf: 2900 })).statusCode).toBe(200);
    }
    const page = await t.app.inject({
      method: 'GET',
      url: `${changesUrl}?page=2&per_page=2`,
      headers: auth(keeper),
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 3, page: 2, per_page: 2 });
    expect(page.json().data).toHaveLength(1);
    expect(page.json().data[0]).toMatchObject({ old_rate: null, new_rate: 2601 });
    for (const query of ['page=0', 'per_page=101', 'page=x']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `${changesUrl}?${query}`,
        headers: auth(keeper),
      });
      expect(response.statusCode, query).toBe(400);
    }
  });

  it("never lists another organisation's changes", async () => {
    const { finance: outsider } = await buildStaffedOrganization(t.db, { name: 'Other Org' });
    expect((await putRates(finance, { usd: 2700, gbp: 3300, chf: 2900 })).statusCode).toBe(200);
    const response = await t.app.inject({
      method: 'GET',
      url: changesUrl,
      headers: auth(outsider),
    });
    expect(response.json()).toEqual({ data: [], total: 0, page: 1, per_page: 10 });
    const own = await t.app.inject({ method: 'GET', url: changesUrl, headers: auth(director) });
    expect(own.statusCode).toBe(200);
    expect(own.json().total).toBeGreaterThan(0);
    for (const change of own.json().data as { changed_by: { id: string } }[]) {
      expect([finance.id, finance2.id]).toContain(change.changed_by.id);
    }
  });

  it('answers 403 to users without finance permission and 401 without a token', async () => {
    for (const user of [staff, admin]) {
      const response = await t.app.inject({ method: 'GET', url: changesUrl, headers: auth(user) });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('Only finance can see who changed the exchange rates.');
    }
    expect((await t.app.inject({ method: 'GET', url: changesUrl })).statusCode).toBe(401);
  });
});

describe('a save made on the rates read (If-Match, docs/decisions/0035)', () => {
  it('refuses with 412 a save on rates someone else changed since, changing nothing', async () => {
    const { finance: keeper, finance2: other } = await buildStaffedOrganization(t.db, {
      name: 'Versions Org',
    });
    const read = await t.app.inject({ method: 'GET', url, headers: auth(keeper) });
    const tag = read.headers.etag as string;
    expect(tag).toMatch(/^"[\w-]+"$/);
    // Both finance officers opened the rates; the other saves USD first.
    const saveWith = (user: TestUser, rates: Record<string, number>, ifMatch: string) =>
      t.app.inject({
        method: 'PUT',
        url,
        headers: { ...auth(user), 'if-match': ifMatch },
        payload: { base: 'tzs', rates },
      });
    const first = await saveWith(other, { usd: 2700, gbp: 3300, chf: 2900 }, tag);
    expect(first.statusCode).toBe(200);
    const newTag = first.headers.etag as string;
    expect(newTag).not.toBe(tag);

    const late = await saveWith(keeper, { usd: 2600, gbp: 3500, chf: 2900 }, tag);
    expect(late.statusCode).toBe(412);
    expect(late.json().error).toBe(
      'The exchange rates were changed by someone else after you opened them. Check them and save again.',
    );
    expect(late.headers.etag).toBe(newTag);
    const stored = await t.app.inject({ method: 'GET', url, headers: auth(keeper) });
    expect(stored.json().rates).toEqual({ usd: 2700, gbp: 3300, chf: 2900 });
    expect(stored.headers.etag).toBe(newTag);

    // On the version it now reads, the save goes through; a weak tag (a compressing gateway) too.
    const again = await saveWith(keeper, { usd: 2700, gbp: 3500, chf: 2900 }, `W/${newTag}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().rates).toEqual({ usd: 2700, gbp: 3500, chf: 2900 });
  });

  it('lets exactly one of two saves made on the same version through', async () => {
    const { finance: keeper, finance2: other } = await buildStaffedOrganization(t.db, {
      name: 'Race Org',
    });
    const tag = (await t.app.inject({ method: 'GET', url, headers: auth(keeper) })).headers
      .etag as string;
    const responses = await Promise.all(
      [keeper, other, keeper, other].map((user, index) =>
        t.app.inject({
          method: 'PUT',
          url,
          headers: { ...auth(user), 'if-match': tag },
          payload: { base: 'tzs', rates: { usd: 2601 + index, gbp: 3300, chf: 2900 } },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
  });
});

describe('how the server delivers e-mail (GET settings/mail)', () => {
  const mailUrl = '/api/v1/settings/mail';

  it('tells an admin that e-mails are written to the mail folder while SMTP_URL is unset', async () => {
    expect(t.context.config.smtpUrl).toBeUndefined();
    const response = await t.app.inject({ method: 'GET', url: mailUrl, headers: auth(admin) });
    expect(response.statusCode).toBe(200);
    expect(mailDeliveryResponse.parse(response.json())).toEqual({
      delivery: 'folder',
      folder: path.join(t.context.config.dataDir, 'mail'),
    });
  });

  it('tells an admin that e-mails go through SMTP once SMTP_URL is set, and names no folder', async () => {
    t.context.config.smtpUrl = 'smtp://mail.example.test:587';
    try {
      const response = await t.app.inject({ method: 'GET', url: mailUrl, headers: auth(finance) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ delivery: 'smtp' });
      // The address, which may hold a password, is never sent.
      expect(response.body).not.toContain('mail.example.test');
    } finally {
      t.context.config.smtpUrl = undefined;
    }
  });

  it('refuses staff (403) and an unsigned call (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: mailUrl, headers: auth(staff) });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('Only an admin can see how e-mails are delivered.');
    expect((await t.app.inject({ method: 'GET', url: mailUrl })).statusCode).toBe(401);
  });
});
