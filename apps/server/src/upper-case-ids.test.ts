import { addDays } from '@imprest/domain/retirements.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appWithStaffedOrganization,
  type StaffedOrganization,
} from '../test/factories/organizations.ts';
import { requestBody, review, submitted } from '../test/factories/requests.ts';
import { auth, buildUser, type TestApp, type TestUser } from '../test/helpers.ts';

// An id is the same UUID in either letter case (RFC 9562): every id the API takes is read in lower
// case (`uuidInput`), as PostgreSQL answers it. Ids compared as text used to miss their upper-case
// spelling: a delegate "not found", a secretary's own id taken for someone else's, a review step
// "not of the request", an audit filter finding nothing.

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  ({ t, org } = await appWithStaffedOrganization({ name: 'Upper Case Org' }));
});

const day = (offset: number) => addDays(todayIn(t.context.config.orgTimezone), offset);
const reviewer = (fullname: string, role: 'executive_secretary' | 'finance_officer') =>
  buildUser(t.db, { organizationId: org.organizationId, role, fullname });
const delegate = (user: TestUser, body: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/delegations', headers: auth(user), payload: body });

describe('ids sent in upper case', () => {
  it('POST delegations: the delegate named by an upper-case id', async () => {
    const secretary = await reviewer('Upper Secretary', 'executive_secretary');
    const finance = await reviewer('Upper Finance', 'finance_officer');
    const response = await delegate(secretary, {
      delegate_id: finance.id.toUpperCase(),
      starts_on: day(0),
      ends_on: day(2),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().delegate.id).toBe(finance.id);
  });

  it("POST delegations: a reviewer's own id in upper case is their own delegation, not another's", async () => {
    const secretary = await reviewer('Own Upper Secretary', 'executive_secretary');
    const finance = await reviewer('Own Upper Finance', 'finance_officer');
    const response = await delegate(secretary, {
      delegator_id: secretary.id.toUpperCase(),
      delegate_id: finance.id,
      starts_on: day(0),
      ends_on: day(2),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().delegator.id).toBe(secretary.id);
  });

  it('PUT reviews: the step named by upper-case ids is answered', async () => {
    const request = await submitted(t.app, org.staff, requestBody('6105'));
    const step = request.reviews.find((candidate) => candidate.step === 1);
    const response = await review(t.app, org.finance, {
      id: (step?.id ?? '').toUpperCase(),
      request_id: request.id.toUpperCase(),
      status: 'approved',
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('GET audit: an object filter in upper case finds the events the lower case finds', async () => {
    const restricted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/restrict',
      headers: auth(org.finance),
      payload: { user_id: org.otherStaff.id.toUpperCase(), lock_status: true },
    });
    expect(restricted.statusCode, restricted.body).toBe(200);
    const events = async (id: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v1/audit?object_type=user&object_id=${id}`,
        headers: auth(org.director),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().events.map((event: { action: string }) => event.action);
    };
    expect(await events(org.otherStaff.id)).toContain('user.restricted');
    expect(await events(org.otherStaff.id.toUpperCase())).toEqual(await events(org.otherStaff.id));
  });
});
