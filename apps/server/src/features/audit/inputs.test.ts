import { beforeAll, describe, expect, it } from 'vitest';
import {
  appWithStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { auth, type TestApp } from '../../../test/helpers.ts';

// What the audit trail's calls accept: the download refuses what the page refuses, before its
// spreadsheet starts (a value PostgreSQL cannot take used to break the file off mid-stream), and
// an object's history reads the same by an upper- or lower-case id (the trail keeps ids as text).

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  ({ t, org } = await appWithStaffedOrganization({ name: 'Audit Inputs Org' }));
  const restricted = await t.app.inject({
    method: 'POST',
    url: '/api/v1/users/restrict',
    headers: auth(org.finance),
    payload: { user_id: org.staff.id, lock_status: true },
  });
  expect(restricted.statusCode).toBe(200);
});

const get = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: auth(org.director) }).then(
    (response) => ({ statusCode: response.statusCode, body: response.body }),
    (error: Error) => ({ statusCode: -1, body: `inject failed: ${error.message}` }),
  );

describe('GET audit/download refuses what GET audit refuses', () => {
  it.each([
    ['a NUL byte in object_id', 'object_id=a%00b'],
    ['the year 0000 in from', 'from=0000-01-01'],
  ])('%s: 400 with a message, not a broken 200 stream', async (_case, query) => {
    const page = await get(`/api/v1/audit?${query}`);
    expect(page.statusCode).toBe(400);
    const download = await get(`/api/v1/audit/download?${query}`);
    expect(download.statusCode, download.body).toBe(400);
    expect(JSON.parse(download.body).error).toEqual(expect.any(String));
  });
});

describe('GET audit/history by an upper-case id', () => {
  it('shows the same events as by the lower-case id', async () => {
    const lower = await get(`/api/v1/audit/history/user/${org.staff.id.toLowerCase()}`);
    expect(lower.statusCode).toBe(200);
    const events = JSON.parse(lower.body).events as { action: string }[];
    expect(events.map((event) => event.action)).toContain('user.restricted');
    const upper = await get(`/api/v1/audit/history/user/${org.staff.id.toUpperCase()}`);
    expect(upper.statusCode).toBe(200);
    expect(JSON.parse(upper.body).events).toEqual(events);
  });
});
