import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { approvalMatrixRows } from '../../db/schema.ts';
import { buildStaffedOrganization } from '../../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../../test/factories/requests.ts';
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
let director: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ organizationId, staff, finance, director } = await buildStaffedOrganization(t.db, {
    budgetAmount: 10_000_000_000,
  }));
});

const url = '/api/v1/approval-matrix';
const read = (user: TestUser) => t.app.inject({ method: 'GET', url, headers: auth(user) });
const replace = (user: TestUser, body: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: auth(user), payload: body as object });
const storedRows = (organization = organizationId) =>
  t.db
    .select()
    .from(approvalMatrixRows)
    .where(eq(approvalMatrixRows.organization_id, organization));

const custom = {
  rows: [
    {
      start_value: 1_000_000,
      end_value: null,
      description: 'Large',
      user_role: ['finance_officer', 'director', 'board_chairman'],
      cascading_notification: true,
    },
    {
      start_value: 0,
      end_value: 1_000_000,
      description: 'Petty',
      user_role: ['petty_cash_custodian'],
    },
  ],
};

describe('GET /approval-matrix', () => {
  it('answers the default matrix while none is saved, to any admin', async () => {
    const response = await read(finance);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      is_default: true,
      rows: [
        {
          id: null,
          start_value: 0,
          end_value: 150_000_000,
          description: 'Group B',
          user_role: ['finance_officer', 'executive_secretary'],
          cascading_notification: false,
        },
        {
          id: null,
          start_value: 150_000_000,
          end_value: null,
          description: 'Group A',
          user_role: ['finance_officer', 'executive_secretary', 'director'],
          cascading_notification: false,
        },
      ],
    });
  });

  it('lets staff read it too (decisions §9: every user reads the matrix)', async () => {
    const response = await read(staff);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual((await read(finance)).json());
  });
});

describe('PUT /approval-matrix', () => {
  it.each([
    [
      'a gap',
      {
        rows: [
          { start_value: 0, end_value: 10, user_role: ['director'] },
          { start_value: 20, user_role: ['director'] },
        ],
      },
      'Amounts from 10 to 20 have no row.',
    ],
    [
      'an overlap',
      {
        rows: [
          { start_value: 0, end_value: 30, user_role: ['director'] },
          { start_value: 20, user_role: ['director'] },
        ],
      },
      'overlap',
    ],
    [
      'no open-ended row',
      { rows: [{ start_value: 0, end_value: 30, user_role: ['director'] }] },
      'leave the end amount of the last row empty',
    ],
    [
      'five reviewers',
      {
        rows: [
          {
            start_value: 0,
            user_role: [
              'petty_cash_custodian',
              'finance_officer',
              'executive_secretary',
              'director',
              'board_chairman',
            ],
          },
        ],
      },
      'at most 4',
    ],
    ['no reviewer', { rows: [{ start_value: 0, user_role: [] }] }, 'at least one reviewer role'],
    [
      'a role that cannot review',
      { rows: [{ start_value: 0, user_role: ['stem_park_manager'] }] },
      'Reviewer roles must be one of',
    ],
    [
      'a negative amount',
      { rows: [{ start_value: -5, user_role: ['director'] }] },
      'must not be negative',
    ],
    ['no rows', { rows: [] }, 'Add at least one row'],
  ])('refuses %s with 400 and changes nothing', async (_name, body, message) => {
    const response = await replace(director, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain(message);
    expect(await storedRows()).toEqual([]);
  });

  it('refuses anyone but a director (403)', async () => {
    for (const user of [staff, finance]) {
      const response = await replace(user, custom);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('Only a director can change the approval matrix.');
    }
    expect(await storedRows()).toEqual([]);
  });

  it('replaces the rows, answers them by start amount, and new requests follow them', async () => {
    const response = await replace(director, custom);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.is_default).toBe(false);
    expect(body.rows.map((row: { start_value: number }) => row.start_value)).toEqual([
      0, 1_000_000,
    ]);
    expect(body.rows[0]).toMatchObject({
      id: expect.any(String),
      description: 'Petty',
      user_role: ['petty_cash_custodian'],
      cascading_notification: false,
    });
    expect(body.rows[1]).toMatchObject({ end_value: null, cascading_notification: true });
    expect((await read(finance)).json()).toEqual(body);

    const small = await submitted(
      t.app,
      staff,
      requestBody('6105', { amount_requested: 999_999.99 }),
    );
    expect(small.reviews.map((review) => review.reviewer_role)).toEqual(['petty_cash_custodian']);
    const large = await submitted(
      t.app,
      staff,
      requestBody('6105', { amount_requested: 1_000_000 }),
    );
    expect(large.reviews.map((review) => review.reviewer_role)).toEqual([
      'finance_officer',
      'director',
      'board_chairman',
    ]);

    // A second save replaces, never appends; requests already submitted keep their chain.
    await replace(director, { rows: [{ start_value: 0, user_role: ['director'] }] });
    expect(await storedRows()).toHaveLength(1);
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/v1/requests/request/${large.id}`,
      headers: auth(staff),
    });
    expect(again.json().reviews).toHaveLength(3);
  });

  it('concurrent saves leave exactly one complete matrix', async () => {
    const bodies = [
      { rows: [{ start_value: 0, user_role: ['director'] }] },
      custom,
      {
        rows: [
          { start_value: 0, end_value: 5, user_role: ['finance_officer'] },
          { start_value: 5, user_role: ['director'] },
        ],
      },
    ];
    const responses = await Promise.all(
      [...bodies, ...bodies].map((body) => replace(director, body)),
    );
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    const rows = await storedRows();
    expect(bodies.map((body) => body.rows.length)).toContain(rows.length);
    expect(rows.filter((row) => Number(row.start_value) === 0)).toHaveLength(1);
  });

  it('refuses with 412 a save on a matrix someone else saved since, and tells the organisation of each change', async () => {
    const before = await read(director);
    const tag = before.headers.etag as string;
    expect(tag).toMatch(/^"[\w-]+"$/);
    const saveOn = (ifMatch: string, body: unknown) =>
      t.app.inject({
        method: 'PUT',
        url,
        headers: { ...auth(director), 'if-match': ifMatch },
        payload: body as object,
      });
    const heard = t.events.length;
    const first = await saveOn(tag, { rows: [{ start_value: 0, user_role: ['finance_officer'] }] });
    expect(first.statusCode).toBe(200);
    expect(t.events.slice(heard)).toEqual([
      { organizationId, event: 'approval_matrix_updated', payload: {} },
    ]);

    const late = await saveOn(tag, custom);
    expect(late.statusCode).toBe(412);
    expect(late.json().error).toBe(
      'The approval matrix was changed by someone else after you opened it. Check it and save again.',
    );
    expect((await storedRows()).map((row) => row.user_role)).toEqual([['finance_officer']]);
    expect(t.events.length).toBe(heard + 1);

    // The same rows again change nothing and say nothing; on the version read, a save goes through.
    const current = first.headers.etag as string;
    expect((await read(finance)).headers.etag).toBe(current);
    const same = await saveOn(current, {
      rows: [{ start_value: 0, user_role: ['finance_officer'] }],
    });
    expect(same.statusCode).toBe(200);
    expect(same.headers.etag).toBe(current);
    expect(t.events.length).toBe(heard + 1);
    expect((await saveOn(current, custom)).statusCode).toBe(200);
    expect(await storedRows()).toHaveLength(2);
  });

  it("leaves other organisations' matrices alone", async () => {
    const otherOrganization = await buildOrganization(t.db, 'Other');
    const otherDirector = await buildUser(t.db, {
      organizationId: otherOrganization,
      role: 'director',
    });
    expect((await read(otherDirector)).json().is_default).toBe(true);
    await replace(otherDirector, { rows: [{ start_value: 0, user_role: ['board_chairman'] }] });
    expect((await storedRows(otherOrganization)).map((row) => row.user_role)).toEqual([
      ['board_chairman'],
    ]);
    expect((await read(finance)).json().rows[0].user_role).not.toEqual(['board_chairman']);
  });
});

describe('the positions nobody holds (GET approval-matrix/vacancies)', () => {
  const vacanciesUrl = '/api/v1/approval-matrix/vacancies';
  const vacancies = (user: TestUser) =>
    t.app.inject({ method: 'GET', url: vacanciesUrl, headers: auth(user) });

  it('names the default matrix’s positions a new organisation lacks, until someone holds them', async () => {
    // A director who has just set up the organisation: nobody reviews a request at its first two
    // steps (finance officer, executive secretary), so every request would wait there.
    const newOrganization = await buildOrganization(t.db, 'Just Set Up');
    const founder = await buildUser(t.db, { organizationId: newOrganization, role: 'director' });
    const first = await vacancies(founder);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ roles: ['finance_officer', 'executive_secretary'] });

    // A locked holder answers no review: the position is still vacant.
    const lockedOfficer = await buildUser(t.db, {
      organizationId: newOrganization,
      role: 'finance_officer',
      isLocked: true,
    });
    expect(lockedOfficer.is_locked).toBe(true);
    expect((await vacancies(founder)).json().roles).toEqual([
      'finance_officer',
      'executive_secretary',
    ]);
    await buildUser(t.db, { organizationId: newOrganization, role: 'finance_officer' });
    expect((await vacancies(founder)).json().roles).toEqual(['executive_secretary']);
    await buildUser(t.db, { organizationId: newOrganization, role: 'executive_secretary' });
    expect((await vacancies(founder)).json().roles).toEqual([]);
    // This organisation's holders count for nothing in another.
    const elsewhere = await buildOrganization(t.db, 'Elsewhere');
    const other = await buildUser(t.db, { organizationId: elsewhere, role: 'director' });
    expect((await vacancies(other)).json().roles).toEqual([
      'finance_officer',
      'executive_secretary',
    ]);
  });

  it('follows the matrix in force: a position added to it that nobody holds is named', async () => {
    const newOrganization = await buildOrganization(t.db, 'Chaired');
    const founder = await buildUser(t.db, { organizationId: newOrganization, role: 'director' });
    for (const role of ['finance_officer', 'executive_secretary'] as const)
      await buildUser(t.db, { organizationId: newOrganization, role });
    expect((await vacancies(founder)).json().roles).toEqual([]);
    const saved = await replace(founder, {
      rows: [
        { start_value: 0, end_value: 1_000_000, user_role: ['finance_officer'] },
        {
          start_value: 1_000_000,
          end_value: null,
          user_role: ['finance_officer', 'director', 'board_chairman'],
        },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect((await vacancies(founder)).json().roles).toEqual(['board_chairman']);
  });

  it('answers an admin of a staffed organisation with none, and refuses staff (403) and no token (401)', async () => {
    const staffed = await buildStaffedOrganization(t.db, { name: 'Fully staffed' });
    expect((await vacancies(staffed.finance)).json()).toEqual({ roles: [] });
    const refused = await vacancies(staff);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only admins can see which positions nobody holds.');
    expect((await t.app.inject({ method: 'GET', url: vacanciesUrl })).statusCode).toBe(401);
  });
});
