import { todayIn } from '@imprest/domain/requests.ts';
import { retirementDueDate } from '@imprest/domain/retirements.ts';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests, retirements } from '../../db/schema.ts';
import { buildBudget } from '../../../test/factories/budgets.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../../test/factories/requests.ts';
import {
  approvedRequest as approvedThrough,
  attachRetirement,
} from '../../../test/factories/retirements.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

let t: TestApp;
let organizationId: string;
let staff: TestUser;
let finance: TestUser;
let finance2: TestUser;
let secretary: TestUser;
let custodian: TestUser;
let budgetCode: string;

beforeAll(async () => {
  t = await createTestApp();
  let budget: { code: string };
  ({ organizationId, staff, finance, finance2, secretary, custodian, budget } =
    await buildStaffedOrganization(t.db));
  budgetCode = budget.code;
});

const attach = (user: TestUser, payload: unknown) => attachRetirement(t.app, user, payload);

const get = (user: TestUser, path: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1/requests/${path}`, headers: auth(user) });

/** A request of an owner taken through the default chain (finance officer → executive secretary). */
const approvedRequest = (
  owner: TestUser,
  reviewers: [TestUser, TestUser] = [finance, secretary],
  code = budgetCode,
) => approvedThrough(t.app, { owner, reviewers, budgetCode: code });

const today = () => todayIn(t.context.config.orgTimezone);

describe('POST /retirement/attach-retirement', () => {
  it('attaches a pending retirement owned by the request owner and answers the request with it', async () => {
    const owner = await buildUser(t.db, { organizationId, fullname: 'Retiree' });
    const request = await approvedRequest(owner);
    t.events.length = 0;
    const response = await attach(finance, { id: request.id });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.id).toBe(request.id);
    expect(body.current_status).toBe('approved');
    // The expenditure date lies in the future, so it is the later day.
    const due = retirementDueDate(request.expenditure_date, today());
    expect(due).toBe(retirementDueDate(request.expenditure_date, request.expenditure_date));
    expect(body.current_retirement).toEqual({
      id: expect.any(String),
      request_id: request.id,
      retirement_owner_id: owner.id,
      name: 'Retiree',
      purpose: 'travel',
      approval_number: body.approval_number,
      budget_code: budgetCode,
      status: 'pending',
      due_date: due,
      retirement_date: null,
      amount_requested: 1000,
      amountReceived: 1000,
      amount_spent: null,
      amount_currency: 'tzs',
      currency: 'tzs',
      created_at: expect.any(String),
      modified_at: expect.any(String),
      comments: null,
      file_paths: [],
      files: [],
      is_funds_returned: false,
      reviews: [],
    });
    expect(body.approval_number).toMatch(/^AP-\d{4}-\d{5}$/);
    expect(body.owner_oldest_due_date).toBe(due);

    const [row] = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.request_id, request.id));
    expect(row).toMatchObject({
      id: body.current_retirement.id,
      organization_id: organizationId,
      retirement_owner_id: owner.id,
      created_by: finance.id,
      status: 'pending',
      due_date: due,
      amount_spent: null,
      comments: null,
      file_paths: [],
    });

    expect(t.events).toEqual([
      {
        organizationId,
        event: 'retirement_updated',
        payload: { retirement_id: body.current_retirement.id, request_id: request.id },
      },
      { organizationId, event: 'request_updated', payload: { request_id: request.id } },
    ]);

    const read = await get(owner, `request/${request.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().current_retirement).toEqual(body.current_retirement);

    const summary = await get(owner, `summary/${owner.id}`);
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({
      approved: 1,
      pending_retirement: 1,
      outstanding_retirements: [
        {
          id: body.current_retirement.id,
          request_id: request.id,
          purpose: 'travel',
          status: 'pending',
          amountReceived: 1000,
          amount_currency: 'tzs',
          due_date: due,
        },
      ],
    });
  });

  it('dates the retirement from the attach day when the expenditure date has passed', async () => {
    const request = await approvedRequest(staff);
    await t.db
      .update(requests)
      .set({ expenditure_date: '2020-01-15' })
      .where(eq(requests.id, request.id));
    const response = await attach(finance, { id: request.id });
    expect(response.statusCode).toBe(201);
    expect(response.json().current_retirement.due_date).toBe(
      retirementDueDate('2020-01-15', today()),
    );
  });

  it('shows no retirement on a request without one', async () => {
    const request = await approvedRequest(staff);
    expect((await get(staff, `request/${request.id}`)).json().current_retirement).toBeNull();
  });

  it('refuses users without finance permission with 403', async () => {
    const request = await approvedRequest(staff);
    for (const user of [staff, custodian]) {
      const response = await attach(user, { id: request.id });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('Only finance can request a retirement.');
    }
    expect(await t.db.$count(retirements, eq(retirements.request_id, request.id))).toBe(0);
  });

  it('refuses a request that is not approved with 409', async () => {
    const pending = await submitted(t.app, staff, requestBody(budgetCode));
    const response = await attach(finance, { id: pending.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatch(/^Only an approved request can be retired\./);
    expect(await t.db.$count(retirements, eq(retirements.request_id, pending.id))).toBe(0);
  });

  it('refuses a second retirement with 409', async () => {
    const request = await approvedRequest(staff);
    expect((await attach(finance, { id: request.id })).statusCode).toBe(201);
    const again = await attach(finance2, { id: request.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This request already has a retirement.');
  });

  it("answers 404 for another organisation's request and for an unknown id", async () => {
    const otherOrganizationId = await buildOrganization(t.db, 'Other Org');
    const owner = await buildUser(t.db, { organizationId: otherOrganizationId });
    const officer = await buildUser(t.db, {
      organizationId: otherOrganizationId,
      role: 'finance_officer',
    });
    const otherSecretary = await buildUser(t.db, {
      organizationId: otherOrganizationId,
      role: 'executive_secretary',
    });
    const otherBudget = await buildBudget(t.db, { organizationId: otherOrganizationId });
    const request = await approvedRequest(owner, [officer, otherSecretary], otherBudget.code);
    const response = await attach(finance, { id: request.id });
    expect(response.statusCode).toBe(404);
    expect(await t.db.$count(retirements, eq(retirements.request_id, request.id))).toBe(0);
    expect((await attach(finance, { id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(
      404,
    );
  });

  it.each([[{ id: 'not-a-uuid' }], [{}], [{ id: 42 }]])('refuses %j with 400', async (body) => {
    const response = await attach(finance, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual(expect.any(String));
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/retirement/attach-retirement',
      payload: { id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(response.statusCode).toBe(401);
  });

  it('lets exactly one of two finance officers attaching at once succeed', async () => {
    for (let round = 0; round < 3; round += 1) {
      const request = await approvedRequest(staff);
      const responses = await Promise.all([
        attach(finance, { id: request.id }),
        attach(finance2, { id: request.id }),
      ]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409]);
      expect(await t.db.$count(retirements, eq(retirements.request_id, request.id))).toBe(1);
    }
  });
});
