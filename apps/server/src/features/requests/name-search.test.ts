import { searchCountLimit } from '@imprest/domain/constants.ts';
import { and, eq, ilike, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests, users } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../../test/factories/requests.ts';
import {
  auth,
  buildUser,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../../../test/helpers.ts';

// A search for a term that can only name people reads the named owners' own pages merged, its
// total from their kept counts (requests/list-queries.ts, namedOwnersPage); with more owners than that
// reads well, it reads the matches, as every other search does. Whichever way, a page holds what
// the matches would: these tests compare both with the rows themselves, page by page.

let t: TestApp;
let org: StaffedOrganization;
/** Eleven people called Amani, one of them deleted, and two called Baraka. */
let amanis: TestUser[];
let barakas: TestUser[];

const statuses = ['pending', 'on_progress', 'approved', 'rejected'] as const;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db, { name: 'Named Org' });
  const person = (fullname: string) =>
    buildUser(t.db, { organizationId: org.organizationId, fullname });
  amanis = await Promise.all(
    Array.from({ length: 11 }, (_, index) =>
      person(`Amani Mushi ${String.fromCharCode(65 + index)}`),
    ),
  );
  barakas = await Promise.all([person('Baraka Kweka'), person('Baraka Mollel')]);
  const template = await submitted(t.app, org.staff, requestBody(org.budget.code));
  // Each person's requests, in every status, several of them at one instant with other people's
  // (the list orders those by id), and one older version that lists never show.
  const owners = [...amanis, ...barakas];
  await t.db.execute(sql`
    INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name,
                          department, purpose, expenditure_date, amount_requested,
                          amount_currency, amount_base, budget_id, budget_code, payment_mode,
                          tax_status, current_status, created_at, is_latest)
    SELECT template.organization_id, gen_random_uuid(), owner.id, owner.fullname,
           template.department, template.purpose, template.expenditure_date,
           template.amount_requested, template.amount_currency, template.amount_base,
           template.budget_id, template.budget_code, template.payment_mode, template.tax_status,
           (${sql.raw(`ARRAY['${statuses.join("','")}']`)})[1 + (g + owner.n) % 4],
           now() - ((g * 7 + owner.n) % 9) * interval '1 hour',
           g <> 0
    FROM requests AS template,
         (SELECT id, fullname, row_number() OVER (ORDER BY id)::int AS n
          FROM users WHERE id IN ${owners.map((owner) => owner.id)}) AS owner,
         generate_series(0, 6) AS g
    WHERE template.id = ${template.id}`);
  await t.db
    .update(users)
    .set({ deleted_at: sql`now()` })
    .where(eq(users.id, (amanis[10] as TestUser).id));
});

const search = async (user: TestUser, mode: string, term: string, query = '') => {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/requests/${mode}/${user.id}?search=${encodeURIComponent(term)}${query}`,
    headers: auth(user),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    total: number;
    total_capped: boolean;
    data: { id: string; request_owner_name: string }[];
  };
};
const adminSearch = (term: string, query = '') =>
  search(org.finance, `finance_officer`, term, query);

/** The newest versions of the owners named, in the list's order: newest first, then by id. */
async function expectedIds(name: string, status?: string): Promise<string[]> {
  const named = await t.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.organization_id, org.organizationId), ilike(users.fullname, `%${name}%`)));
  const rows = await t.db
    .select({ id: requests.id })
    .from(requests)
    .where(
      and(
        eq(requests.organization_id, org.organizationId),
        eq(requests.is_latest, true),
        inArray(
          requests.request_owner_id,
          named.map((row) => row.id),
        ),
        status ? eq(requests.current_status, status) : undefined,
      ),
    )
    .orderBy(sql`${requests.created_at} DESC NULLS LAST, ${requests.id} DESC`);
  return rows.map((row) => row.id);
}

/** Every page of a search, one after another, each with the total it said. */
async function allPages(term: string, perPage: number, status?: string) {
  const filter = `&per_page=${perPage}${status ? `&status=${status}` : ''}`;
  const ids: string[] = [];
  const totals = new Set<string>();
  for (let page = 1; ; page += 1) {
    const body = await adminSearch(term, `${filter}&page=${page}`);
    totals.add(`${body.total} ${body.total_capped}`);
    if (body.data.length === 0) return { ids, totals: [...totals] };
    ids.push(...body.data.map((row) => row.id));
  }
}

describe('a search of a name', () => {
  it('pages through the requests of everyone it names, a deleted person too, in the list order', async () => {
    const expected = await expectedIds('amani');
    // 11 people, 6 newest versions each.
    expect(expected).toHaveLength(66);
    // Pages of 4: 11 owners × the page's end stay within the matches' limit up to page 22.
    expect(await allPages('amani', 4)).toEqual({ ids: expected, totals: ['66 false'] });
    expect(await allPages('AMANI mushi', 25)).toEqual({ ids: expected, totals: ['66 false'] });
  });

  it('reads the matches instead when it names more people than merging suits, with the same rows', async () => {
    // 11 owners × 100 rows a page is past the limit of 1,001 matches.
    const body = await adminSearch('amani', '&per_page=100');
    expect(body.data.map((row) => row.id)).toEqual(await expectedIds('amani'));
    expect(body).toMatchObject({ total: 66, total_capped: false });
  });

  it.each(statuses)('in one status, %s', async (status) => {
    const expected = await expectedIds('amani', status);
    expect(expected.length).toBeGreaterThan(0);
    expect(await allPages('amani', 5, status)).toEqual({
      ids: expected,
      totals: [`${expected.length} false`],
    });
  });

  it('finds one person by their full name and nobody by a name no one has', async () => {
    const ids = await expectedIds('baraka kweka');
    expect(ids).toHaveLength(6);
    const body = await adminSearch('Baraka Kweka');
    expect(body).toMatchObject({ total: 6, total_capped: false });
    expect(body.data.map((row) => row.id)).toEqual(ids);
    expect(new Set(body.data.map((row) => row.request_owner_name))).toEqual(
      new Set(['Baraka Kweka']),
    );
    expect(await adminSearch('Zuberi')).toEqual(expect.objectContaining({ data: [], total: 0 }));
    // Past the last page: no rows, and still the total.
    expect(await adminSearch('baraka', '&per_page=10&page=3')).toMatchObject({
      data: [],
      total: 12,
      total_capped: false,
    });
  });

  it('in staff mode finds only the caller’s own requests', async () => {
    const caller = barakas[0] as TestUser;
    const own = await search(caller, 'user', 'baraka');
    expect(own).toMatchObject({ total: 6, total_capped: false });
    expect(own.data.map((row) => row.id)).toEqual(await expectedIds('baraka kweka'));
    expect(await search(caller, 'user', 'amani')).toMatchObject({ data: [], total: 0 });
  });

  it(`says "${searchCountLimit}+" past the limit, as a search of the matches does`, async () => {
    const [prolific] = amanis;
    if (!prolific) throw new Error('no owner');
    const [template] = await t.db
      .select({ id: requests.id })
      .from(requests)
      .where(eq(requests.request_owner_id, prolific.id))
      .limit(1);
    await t.db.execute(sql`
      INSERT INTO requests (organization_id, chain_id, request_owner_id, request_owner_name,
                            department, purpose, expenditure_date, amount_requested,
                            amount_currency, amount_base, budget_id, budget_code, payment_mode,
                            tax_status, current_status)
      SELECT organization_id, gen_random_uuid(), request_owner_id, request_owner_name, department,
             purpose, expenditure_date, amount_requested, amount_currency, amount_base,
             budget_id, budget_code, payment_mode, tax_status, 'pending'
      FROM requests, generate_series(1, ${searchCountLimit}) AS g
      WHERE id = ${template?.id}`);
    const expected = await expectedIds(prolific.fullname);
    expect(expected.length).toBe(searchCountLimit + 6);
    const body = await adminSearch(prolific.fullname);
    expect(body).toMatchObject({ total: searchCountLimit, total_capped: true });
    expect(body.data.map((row) => row.id)).toEqual(expected.slice(0, 10));
    const last = await adminSearch(prolific.fullname, '&per_page=100&page=11');
    expect(last).toMatchObject({ total: searchCountLimit, total_capped: true });
    expect(last.data.map((row) => row.id)).toEqual(expected.slice(1000));
  });
});
