/** The budget API's writes: create, edit (with If-Match), archive and delete. */
import { randomUUID } from 'node:crypto';
import { messages } from '@imprest/domain/messages.ts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { budgetChanges, budgets } from '../../db/schema.ts';
import { auth } from '../../../test/helpers.ts';
import type { BudgetRow } from './ledger.ts';
import {
  t,
  organizationId,
  otherOrganizationId,
  finance,
  director,
  secretary,
  chairman,
  staff,
  custodian,
  outsider,
  buildBudget,
  buildRequest,
  stateOf,
  post,
  put,
  remove,
  get,
  editOf,
  validBudget,
  useBudgetOrganization,
} from '../../../test/budget-organization.ts';

useBudgetOrganization();

describe('POST /budget', () => {
  it('creates a budget, computes its code, writes a create changelog row and publishes budget_updated', async () => {
    const response = await post(finance, validBudget);
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({
      id: expect.any(String),
      name: 'Dar park operations',
      description: 'Source of funds: grant 12',
      amount: 500_000_000,
      department: 'all',
      amount_currency: 'tzs',
      currency: 'tzs',
      code: '6105',
      cost_code: 5,
      current_status: 'active',
      meta_data: ['operating cost', 'stemParkDar'],
      requests: { total: 0 },
      committed: 0,
      available: 500_000_000,
      created_at: expect.any(String),
      modified_at: expect.any(String),
    });
    const { changes } = await stateOf(data.id);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'create',
      budget_code: '6105',
      actor_id: finance.id,
      actor_name: 'Chausiku Finance',
      before: null,
      after: { code: '6105', amount: 500_000_000, meta_data: ['operating cost', 'stemParkDar'] },
    });
    expect(t.events).toEqual([
      { organizationId, event: 'budget_updated', payload: { code: '6105' } },
    ]);
  });

  it("defaults the department to 'all' and keeps an empty description as none", async () => {
    // Undefined fields are left out of the JSON body.
    const response = await post(director, {
      ...validBudget,
      department: undefined,
      description: '',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ department: 'all', description: null });
  });

  it.each([
    ['executive_secretary', () => secretary],
    ['director', () => director],
  ])('lets the %s (finance permission) create', async (_role, user) => {
    expect((await post(user(), { ...validBudget, code: 7 })).statusCode).toBe(201);
  });

  it('refuses a duplicate code in the organisation with 409, but not in another organisation', async () => {
    expect((await post(finance, validBudget)).statusCode).toBe(201);
    const duplicate = await post(director, { ...validBudget, name: 'Another name' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'A budget with code 6105 already exists.' });
    expect(await t.db.$count(budgets)).toBe(1);
    expect(await t.db.$count(budgetChanges)).toBe(1);
    expect((await post(outsider, validBudget)).statusCode).toBe(201);
  });

  it('lets only one of two racing creates of the same code win', async () => {
    const answers = await Promise.all([post(finance, validBudget), post(director, validBudget)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await t.db.$count(budgets)).toBe(1);
    expect(await t.db.$count(budgetChanges)).toBe(1);
  });

  it.each<[string, object, string, RegExp]>([
    ['cost code 0', { code: 0 }, 'code', /cost code must be a whole number from 1 to 99/],
    ['cost code 100', { code: 100 }, 'code', /from 1 to 99/],
    ['cost code 1.5', { code: 1.5 }, 'code', /from 1 to 99/],
    ['a cost code as text', { code: 'five' }, 'code', /from 1 to 99/],
    ['a zero amount', { amount: 0 }, 'amount', /greater than zero/],
    ['a negative amount', { amount: -10 }, 'amount', /greater than zero/],
    ['an amount as text', { amount: '500,000' }, 'amount', /must be a number/],
    [
      'an unknown category',
      { meta_data: ['travel', 'hq'] },
      'meta_data.0',
      /Unknown expense category/,
    ],
    ['an unknown branch', { meta_data: ['unicef', 'moshi'] }, 'meta_data.1', /Unknown branch/],
    ['a missing branch', { meta_data: ['unicef'] }, 'meta_data', /./],
    ['an unknown currency', { amount_currency: 'eur' }, 'amount_currency', /Unknown currency/],
    ['an unknown department', { department: 'kitchen' }, 'department', /Unknown department/],
    ['an empty name', { name: '  ' }, 'name', /Name is required/],
  ])('answers 400 for %s and writes nothing', async (_name, change, path, message) => {
    const response = await post(finance, { ...validBudget, ...change });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toMatch(/^Invalid input/);
    expect(body.error).toMatch(message);
    expect(body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await t.db.$count(budgets)).toBe(0);
    expect(await t.db.$count(budgetChanges)).toBe(0);
  });

  it.each([
    ['staff', () => staff],
    ['board_chairman', () => chairman],
    ['petty_cash_custodian', () => custodian],
  ])('refuses the %s with 403', async (_role, user) => {
    const response = await post(user(), validBudget);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Only finance can change or download budgets.' });
    expect(await t.db.$count(budgets)).toBe(0);
  });

  it('answers 401 without a token', async () => {
    expect((await post(null, validBudget)).statusCode).toBe(401);
  });
});

describe('PUT /budget', () => {
  it('edits a budget, writes an edit changelog row with before and after, and publishes', async () => {
    const budget = await buildBudget();
    const response = await put(
      finance,
      editOf(budget, { name: 'Dar park 2026', amount: 2_000_000, department: 'outreach' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      name: 'Dar park 2026',
      amount: 2_000_000,
      department: 'outreach',
      available: 2_000_000,
    });
    const { changes, row } = await stateOf(budget.id);
    expect(row?.modified_at.getTime()).toBeGreaterThan(budget.modified_at.getTime());
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      action: 'edit',
      actor_name: 'Chausiku Finance',
      before: { name: 'Dar park operations', amount: 1_000_000, department: 'all' },
      after: { name: 'Dar park 2026', amount: 2_000_000, department: 'outreach' },
    });
    expect(t.events).toEqual([
      { organizationId, event: 'budget_updated', payload: { code: '6105' } },
    ]);
  });

  it('keeps department and description when an edit leaves them out', async () => {
    const budget = await buildBudget({ department: 'finance', description: 'Grant 7' });
    const edit = editOf(budget, { name: 'Renamed', department: undefined, description: undefined });
    const response = await put(finance, edit);
    expect(response.json().data).toMatchObject({
      name: 'Renamed',
      department: 'finance',
      description: 'Grant 7',
    });
  });

  it('changes currency and code while no request exists, and publishes both codes', async () => {
    const budget = await buildBudget();
    const response = await put(
      finance,
      editOf(budget, { amount_currency: 'usd', code: 7, meta_data: ['unicef', 'hq'] }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ code: '3007', cost_code: 7, currency: 'usd' });
    expect(t.events.map((event) => event.payload)).toEqual([{ code: '6105' }, { code: '3007' }]);
  });

  it('answers 409 when a new code is taken, changing nothing', async () => {
    const budget = await buildBudget();
    await buildBudget({ costCode: 7 });
    const before = await stateOf(budget.id);
    const response = await put(finance, editOf(budget, { code: 7 }));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('A budget with code 6107 already exists.');
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it.each<[string, object]>([
    ['currency', { amount_currency: 'usd' }],
    ['cost code', { code: 6 }],
    ['category', { meta_data: ['unicef', 'stemParkDar'] }],
    ['branch', { meta_data: ['operating cost', 'hq'] }],
  ])(
    'refuses a %s change once requests exist with the spec message, changing nothing',
    async (_name, change) => {
      const budget = await buildBudget();
      await buildRequest(budget, { status: 'rejected' });
      const before = await stateOf(budget.id);
      const response = await put(finance, editOf(budget, change));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe(
        "Due to the existence of prior requests, curreny and code numbers can't be modified.",
      );
      expect(response.json().error).toBe(messages.priorRequestsBlockChange);
      expect(await stateOf(budget.id)).toEqual(before);
      expect(t.events).toEqual([]);
    },
  );

  it('freezes the terms of a budget that only an earlier version of a request is on', async () => {
    // A request returned for edits and resubmitted on another budget leaves its first version
    // here: none is counted on the budget, yet it has had a request (spec §4).
    const budget = await buildBudget();
    await buildRequest(budget, { isLatest: false, status: 'request_edit' });
    const before = await stateOf(budget.id);
    const detail = (await get(finance, `budget/${budget.code}`)).json().data;
    expect({ total: detail.requests.total, prior: detail.has_prior_requests }).toEqual({
      total: 0,
      prior: true,
    });
    const response = await put(finance, editOf(budget, { amount_currency: 'usd', code: 6 }));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toBe(messages.priorRequestsBlockChange);
    expect(await stateOf(budget.id)).toEqual(before);
    // Its other fields still change, and a budget no request has been on has nothing frozen.
    expect((await put(finance, editOf(budget, { name: 'Renamed' }))).statusCode).toBe(200);
    const unused = await buildBudget({ costCode: 8 });
    expect((await get(finance, `budget/${unused.code}`)).json().data.has_prior_requests).toBe(
      false,
    );
  });

  it('still lets a used budget grow and change its other fields', async () => {
    const budget = await buildBudget();
    await buildRequest(budget, { amount: 250 });
    const response = await put(finance, editOf(budget, { amount: 1_500_000, name: 'Grown' }));
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      amount: 1_500_000,
      committed: 250,
      available: 1_499_750,
      requests: { total: 1 },
    });
  });

  it('refuses an amount decrease with 400, changing nothing', async () => {
    const budget = await buildBudget();
    const before = await stateOf(budget.id);
    const response = await put(finance, editOf(budget, { amount: 999_999.99 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(
      'The amount of a budget can only be increased; it is TZS 1,000,000 now.',
    );
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it('archives and re-activates with {id, current_status}, each with its changelog row', async () => {
    const budget = await buildBudget();
    const archived = await put(finance, { id: budget.id, current_status: 'archived' });
    expect(archived.statusCode).toBe(200);
    expect(archived.json().data.current_status).toBe('archived');
    expect((await get(staff, 'budget/codes')).json().budget_codes).toEqual([]);
    const again = await put(finance, { id: budget.id, current_status: 'archived' });
    expect(again.statusCode).toBe(200);
    const reactivated = await put(director, { id: budget.id, current_status: 'active' });
    expect(reactivated.json().data.current_status).toBe('active');
    const { changes } = await stateOf(budget.id);
    // Archiving an archived budget changes nothing, so it writes nothing.
    expect(changes.map((change) => change.action)).toEqual(['archive', 'reactivate']);
    expect(changes[0]).toMatchObject({
      before: { current_status: 'active' },
      after: { current_status: 'archived' },
    });
    expect(t.events).toHaveLength(2);
  });

  it('archives a used budget', async () => {
    const budget = await buildBudget();
    await buildRequest(budget);
    expect((await put(finance, { id: budget.id, current_status: 'archived' })).statusCode).toBe(
      200,
    );
  });

  it("answers 404 for another organisation's budget and an unknown id, changing nothing", async () => {
    const foreign = await buildBudget({ organization: otherOrganizationId });
    const before = await stateOf(foreign.id);
    const response = await put(finance, editOf(foreign, { amount: 5_000_000 }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No such budget was found.' });
    expect((await put(finance, { id: foreign.id, current_status: 'archived' })).statusCode).toBe(
      404,
    );
    expect(await stateOf(foreign.id)).toEqual(before);
    expect((await put(finance, { id: randomUUID(), current_status: 'archived' })).statusCode).toBe(
      404,
    );
  });

  it('refuses a user without finance permission with 403, changing nothing', async () => {
    const budget = await buildBudget();
    const before = await stateOf(budget.id);
    for (const user of [staff, chairman, custodian]) {
      expect((await put(user, { id: budget.id, current_status: 'archived' })).statusCode).toBe(403);
      expect((await put(user, editOf(budget, { amount: 9_000_000 }))).statusCode).toBe(403);
    }
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it.each<[string, (budget: BudgetRow) => object, string]>([
    ['an id alone', (budget) => ({ id: budget.id }), 'current_status'],
    ['a partial edit', (budget) => ({ id: budget.id, name: 'x' }), 'amount'],
    ['a bad id', () => ({ id: 'nope', current_status: 'archived' }), 'id'],
    [
      'an unknown status',
      (budget) => ({ id: budget.id, current_status: 'gone' }),
      'current_status',
    ],
    ['cost code 100', (budget) => editOf(budget, { code: 100 }), 'code'],
    ['a zero amount', (budget) => editOf(budget, { amount: 0 }), 'amount'],
  ])('answers 400 for %s, changing nothing', async (_name, body, path) => {
    const budget = await buildBudget();
    const before = await stateOf(budget.id);
    const response = await put(finance, body(budget));
    expect(response.statusCode).toBe(400);
    expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await stateOf(budget.id)).toEqual(before);
  });
});

describe('an edit made on the budget read (If-Match, docs/decisions/0036)', () => {
  function putWith(ifMatch: string, body: object) {
    return t.app.inject({
      method: 'PUT',
      url: '/api/v1/budget',
      headers: { ...auth(finance), 'if-match': ifMatch },
      payload: body,
    });
  }
  async function tagOf(code: string) {
    const response = await get(finance, `budget/${code}`);
    expect(response.statusCode).toBe(200);
    return response.headers.etag as string;
  }

  it('refuses with 412 an edit of a budget someone else edited since, changing nothing', async () => {
    const budget = await buildBudget();
    const tag = await tagOf(budget.code);
    expect(tag).toMatch(/^"[\w-]+"$/);

    const first = await putWith(tag, editOf(budget, { name: 'Renamed by the first' }));
    expect(first.statusCode).toBe(200);
    const saved = first.headers.etag;
    expect(saved).not.toBe(tag);
    expect(await tagOf(budget.code)).toBe(saved);

    const before = await stateOf(budget.id);
    const late = await putWith(tag, editOf(budget, { amount: 3_000_000 }));
    expect(late.statusCode).toBe(412);
    expect(late.json().error).toBe(
      'The budget 6105 was changed by someone else after you opened it. Check it and save again.',
    );
    expect(late.headers.etag).toBe(saved);
    expect(await stateOf(budget.id)).toEqual(before);

    // Made on the version now stored (a weak tag from a compressing gateway too), it goes through.
    const retried = await putWith(`W/${saved}`, editOf(budget, { amount: 3_000_000 }));
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ name: 'Dar park operations', amount: 3_000_000 });
  });

  it("keeps the version while only the budget's balance moves, and changes it on archiving", async () => {
    const budget = await buildBudget();
    const tag = await tagOf(budget.code);
    await t.db.update(budgets).set({ committed: '250000.00' }).where(eq(budgets.id, budget.id));
    expect(await tagOf(budget.code)).toBe(tag);
    expect((await put(finance, { id: budget.id, current_status: 'archived' })).statusCode).toBe(
      200,
    );
    expect(await tagOf(budget.code)).not.toBe(tag);
    expect((await putWith(tag, editOf(budget, { name: 'Stale' }))).statusCode).toBe(412);
  });

  it('lets exactly one of four edits made on one version through', async () => {
    const budget = await buildBudget();
    const tag = await tagOf(budget.code);
    const responses = await Promise.all(
      [1, 2, 3, 4].map((index) => putWith(tag, editOf(budget, { name: `Editor ${index}` }))),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    expect((await stateOf(budget.id)).changes).toHaveLength(1);
  });
});

describe('POST /budget/remove', () => {
  it('deletes a budget without requests and keeps its changelog with a delete row', async () => {
    const created = (await post(finance, validBudget)).json().data;
    const response = await remove(finance, created.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: created.id, code: '6105' });
    const { row, changes } = await stateOf(created.id);
    expect(row).toBeUndefined();
    expect(changes.map((change) => change.action)).toEqual(['create', 'delete']);
    expect(changes[1]).toMatchObject({ before: { code: '6105' }, after: null });
    expect(t.events.at(-1)).toEqual({
      organizationId,
      event: 'budget_updated',
      payload: { code: '6105' },
    });
    expect((await get(finance, 'budget/6105')).statusCode).toBe(404);
  });

  it('refuses to delete a used budget with 409, changing nothing', async () => {
    const budget = await buildBudget();
    await buildRequest(budget, { status: 'rejected' });
    const before = await stateOf(budget.id);
    const response = await remove(finance, budget.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(
      "The budget 6105 has requests, so it can't be deleted. Archive it instead.",
    );
    expect(await stateOf(budget.id)).toEqual(before);
  });

  it('refuses when only an older version of a request uses it', async () => {
    const budget = await buildBudget();
    await buildRequest(budget, { isLatest: false });
    expect((await remove(finance, budget.id)).statusCode).toBe(409);
    expect((await stateOf(budget.id)).row).toBeDefined();
    expect(await t.db.$count(budgetChanges)).toBe(0);
  });

  it("answers 404 for another organisation's budget and 403 without finance, changing nothing", async () => {
    const foreign = await buildBudget({ organization: otherOrganizationId });
    const own = await buildBudget({ costCode: 6 });
    expect((await remove(finance, foreign.id)).statusCode).toBe(404);
    expect((await remove(staff, own.id)).statusCode).toBe(403);
    expect((await remove(chairman, own.id)).statusCode).toBe(403);
    expect(await t.db.$count(budgets)).toBe(2);
    expect(await t.db.$count(budgetChanges)).toBe(0);
  });
});
