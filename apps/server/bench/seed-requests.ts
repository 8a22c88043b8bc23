/**
 * The requests benchmark's database: 1,000,000 requests (about 2.1 million reviews) over four
 * organisations, with their people and budgets, written straight through SQL. Used by the requests
 * benchmark (requests.ts) and the operations benchmark (operations.ts).
 */
import {
  branches,
  budgetCategories,
  requestCategories,
  roleLabels,
} from '@imprest/domain/enums.ts';
import type pg from 'pg';
import { log, withoutIndexes } from './support.ts';

export const organizationCount = 4;
const staffPerOrganization = 400;
const budgetsPerOrganization = 60;
export const requestCount = 1_000_000;
const requestBatch = 250_000;

/**
 * How large an organisation the seed writes. The requests and operations benchmarks use the
 * default; the load benchmark (load.ts) asks for more people and budgets over more organisations.
 * At most 2,079 budgets an organisation (cost codes 1–99 × 7 categories × 3 branches).
 */
export type SeedShape = {
  organizations: number;
  staffPerOrganization: number;
  budgetsPerOrganization: number;
  requests: number;
  /**
   * What each budget code holds above the one before it (TZS), 10,000,000 by default. The requests
   * are seeded without a balance check, about a hundred a code at any scale, a tenth of them in the
   * hundreds of millions, so the codes early in an organisation's list are committed past their
   * amount; the load benchmark's writes need codes with room at every scale (seed-load.ts).
   */
  budgetStep?: number;
};

export const defaultShape: SeedShape = {
  organizations: organizationCount,
  staffPerOrganization,
  budgetsPerOrganization,
  requests: requestCount,
};
/** Requests are created evenly over this many days, oldest first (as rows arrive in real life). */
const historyDays = 390;

/** Reviewer roles of the default approval matrix, step 1 first; a third step from 150,000,000. */
export const chainRoles = ['finance_officer', 'executive_secretary', 'director'] as const;
const otherRoles = ['petty_cash_custodian', 'stem_park_manager'] as const;

// prettier-ignore
export const firstNames = [
  'Amina', 'Baraka', 'Neema', 'Juma', 'Rehema', 'Hassan', 'Zawadi', 'Emmanuel', 'Faraji', 'Grace',
  'Halima', 'Idrisa', 'Joyce', 'Khamis', 'Lucy', 'Mussa', 'Nuru', 'Omari', 'Pendo', 'Salim',
];
// prettier-ignore
export const lastNames = [
  'Mushi', 'Mwakyusa', 'Kimaro', 'Mollel', 'Swai', 'Lyimo', 'Massawe', 'Ngowi', 'Shirima', 'Temba',
  'Urio', 'Kweka', 'Minja', 'Njau', 'Makundi', 'Mrema', 'Komba', 'Lema', 'Mbwambo', 'Sanga',
];
const staffDepartments = ['engineering', 'content', 'outreach', 'stemKits', 'marketing', 'it'];
// prettier-ignore
const suppliers = [
  'Dar Express', 'Tanga Beach Hotel', 'Mama Lishe Catering', 'STEM Supplies Africa',
  'Coastal Builders Ltd', 'Kariakoo Stationers', 'Precision Air', 'Serena Hotel',
];

/** Every (purpose, mode) pair the submit payload allows; '' for purposes without modes. */
const purposeModes = Object.entries(requestCategories).flatMap(([purpose, { modes }]) =>
  modes.length > 0 ? modes.map((mode) => [purpose, mode]) : [[purpose, '']],
);

/**
 * Organisations, reviewers, staff and budgets. Staff `s` of an organisation is called
 * firstNames[s % 20] lastNames[s / 20 % 20], so up to 400 staff each full name is one person of
 * the organisation (past that, names repeat).
 */
async function seedPeopleAndBudgets(client: pg.PoolClient, shape: SeedShape): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE bench_orgs AS
    SELECT n, gen_random_uuid() AS id FROM generate_series(0, ${shape.organizations - 1}) AS n`);
  await client.query(
    `INSERT INTO organizations (id, name) SELECT id, 'Bench org ' || n FROM bench_orgs`,
  );
  const reviewerRoles = [...chainRoles, ...otherRoles];
  await client.query(
    `
    CREATE TEMP TABLE bench_reviewers AS
    SELECT o.n AS org, o.id AS organization_id, r.role, r.title, gen_random_uuid() AS id,
           'Bench ' || r.title || ' ' || o.n AS fullname
    FROM bench_orgs o CROSS JOIN unnest($1::text[], $2::text[]) AS r(role, title)`,
    [reviewerRoles, reviewerRoles.map((role) => roleLabels[role])],
  );
  await client.query(`
    INSERT INTO users (id, organization_id, fullname, email, department, role, system_role)
    SELECT id, organization_id, fullname, replace(role, '_', '.') || org || '@bench.test',
           'finance', role, CASE role WHEN 'director' THEN 'director' ELSE 'admin' END
    FROM bench_reviewers`);
  await client.query(
    `
    CREATE TEMP TABLE bench_staff AS
    SELECT o.n AS org, o.id AS organization_id, s, gen_random_uuid() AS id,
           ($1::text[])[1 + s % 20] || ' ' || ($2::text[])[1 + (s / 20) % 20] AS fullname,
           ($3::text[])[1 + s % cardinality($3::text[])] AS department
    FROM bench_orgs o CROSS JOIN generate_series(0, ${shape.staffPerOrganization - 1}) AS s`,
    [firstNames, lastNames, staffDepartments],
  );
  await client.query(`CREATE UNIQUE INDEX ON bench_staff (org, s)`);
  await client.query(`
    INSERT INTO users (id, organization_id, fullname, email, department, role, system_role)
    SELECT id, organization_id, fullname, 'staff' || s || '.' || org || '@bench.test', department,
           'staff', 'staff'
    FROM bench_staff`);

  // k → (category k % 7, branch k / 7 % 3, cost code k / 21 + 1) is one-to-one, so codes are unique.
  // Budget 0 of each organisation is large enough for every submission of the run.
  const categories = Object.entries(budgetCategories);
  const branchList = Object.entries(branches);
  await client.query(
    `
    CREATE TEMP TABLE bench_budgets AS
    SELECT o.n AS org, o.id AS organization_id, k, gen_random_uuid() AS id,
           (($1::int[])[1 + k % 7] + ($3::int[])[1 + (k / 7) % 3] + k / 21 + 1)::text AS code,
           ($2::text[])[1 + k % 7] AS category, ($4::text[])[1 + (k / 7) % 3] AS branch,
           k / 21 + 1 AS cost_code,
           CASE WHEN k = 0 THEN 100000000000000 ELSE 2000000000 + k * ${shape.budgetStep ?? 10_000_000}::numeric END AS amount
    FROM bench_orgs o CROSS JOIN generate_series(0, ${shape.budgetsPerOrganization - 1}) AS k`,
    [
      categories.map(([, code]) => code),
      categories.map(([name]) => name),
      branchList.map(([, code]) => code),
      branchList.map(([name]) => name),
    ],
  );
  await client.query(`CREATE UNIQUE INDEX ON bench_budgets (org, k)`);
  await client.query(`
    INSERT INTO budgets (id, organization_id, code, cost_code, name, description, amount, department,
                         currency, category, branch, current_status, created_by, created_at, modified_at)
    SELECT b.id, b.organization_id, b.code, b.cost_code, initcap(b.category) || ' ' || b.code,
           'Bench budget', b.amount, 'all', 'tzs', b.category, b.branch, 'active', r.id,
           now() - interval '14 months', now() - interval '14 months'
    FROM bench_budgets b
    JOIN bench_reviewers r ON r.org = b.org AND r.role = 'finance_officer'`);
}

/**
 * Requests `start`…`end`, oldest first. One chain in 25 was returned for edits and resubmitted:
 * row i ≡ 7 (mod 25) is its superseded first version (request_edit, not latest), row i + 1 the
 * second. Statuses follow age: the last 3 days wait for review, the last two weeks are mixed, older
 * ones are mostly approved (8% rejected, 4% returned, 0.4% still waiting). 12% of the amounts are
 * 150,000,000 or more and have three reviewers.
 */
async function seedRequests(
  client: pg.PoolClient,
  shape: SeedShape,
  start: number,
  end: number,
): Promise<void> {
  await client.query(
    `
    INSERT INTO requests (id, organization_id, chain_id, version, parent_request, is_latest,
                          request_owner_id, request_owner_name, department, purpose, mode_of_service,
                          name_of_establishment, expenditure_date, expenditure_justification,
                          amount_requested, amount_currency, exchange_rate, amount_base, budget_id,
                          budget_code, payment_mode, tax_status, comments, current_status,
                          approval_number, file_paths, created_at, modified_at)
    SELECT pg_temp.bench_request_id(g.i),
           st.organization_id,
           pg_temp.bench_request_id(g.c),
           CASE WHEN g.kind = 2 THEN 2 ELSE 1 END,
           CASE WHEN g.kind = 2 THEN pg_temp.bench_request_id(g.c) END,
           g.kind <> 1,
           st.id, st.fullname, st.department,
           ($1::text[])[1 + g.p], nullif(($2::text[])[1 + g.p], ''),
           ($3::text[])[1 + g.u % cardinality($3::text[])],
           (g.created_at + (g.u % 21) * interval '1 day')::date,
           initcap(($1::text[])[1 + g.p]) || ' for the ' || st.department || ' team',
           g.amount, 'tzs', 1, g.amount, b.id, b.code,
           (ARRAY['cash', 'bank_transfer', 'cheque'])[1 + g.u % 3],
           CASE WHEN g.u % 10 = 0 THEN 'taxExclusive' ELSE 'taxInclusive' END,
           CASE WHEN g.u % 7 = 0 THEN 'Quotation attached' END,
           s.status,
           CASE WHEN s.status = 'approved'
                THEN 'AP-' || extract(year FROM g.created_at + interval '2 days') || '-' || lpad(g.i::text, 6, '0') END,
           CASE WHEN g.u % 4 = 0 THEN ARRAY[substr(md5(g.i::text), 1, 7) || '-quotation.pdf']
                ELSE '{}'::text[] END,
           g.created_at,
           CASE WHEN s.status = 'pending' THEN g.created_at
                ELSE least(now(), g.created_at + interval '2 days') END
    FROM (
      SELECT x.*, x.c % ${shape.organizations} AS org,
             abs(hashint4extended(x.c, 11) % ${shape.staffPerOrganization})::int AS staff,
             abs(hashint4extended(x.c, 12) % ${shape.budgetsPerOrganization})::int AS k,
             abs(hashint4extended(x.i, 13) % cardinality($1::text[]))::int AS p,
             abs(hashint4extended(x.i, 14) % 1000)::int AS u,
             now() - x.age * interval '1 day' AS created_at,
             CASE WHEN abs(hashint4extended(x.i, 15) % 100) < 12
                  THEN 150000000 + abs(hashint4extended(x.i, 16) % 450) * 1000000
                  ELSE 10000 + abs(hashint4extended(x.i, 16) % 4990) * 1000 END::numeric AS amount
      FROM (SELECT i, CASE WHEN i % 25 = 8 THEN i - 1 ELSE i END AS c,
                   CASE i % 25 WHEN 7 THEN 1 WHEN 8 THEN 2 ELSE 0 END AS kind,
                   (${shape.requests - 1} - i) * ${historyDays}::float8 / ${shape.requests} AS age
            FROM generate_series(${start}, ${end}) AS i) x
    ) g
    JOIN bench_staff st ON st.org = g.org AND st.s = g.staff
    JOIN bench_budgets b ON b.org = g.org AND b.k = g.k
    CROSS JOIN LATERAL (SELECT CASE
      WHEN g.kind = 1 THEN 'request_edit'
      WHEN g.age < 3 THEN CASE WHEN g.u < 600 THEN 'pending' ELSE 'on_progress' END
      WHEN g.age < 14 THEN CASE WHEN g.u < 150 THEN 'pending' WHEN g.u < 350 THEN 'on_progress'
                                WHEN g.u < 850 THEN 'approved' WHEN g.u < 930 THEN 'rejected'
                                ELSE 'request_edit' END
      ELSE CASE WHEN g.u < 880 THEN 'approved' WHEN g.u < 960 THEN 'rejected'
                WHEN g.u < 996 THEN 'request_edit' WHEN g.u < 998 THEN 'pending'
                ELSE 'on_progress' END
    END AS status) s`,
    [purposeModes.map(([purpose]) => purpose), purposeModes.map(([, mode]) => mode), suppliers],
  );
}

/**
 * The reviewer chain of every request of an organisation, as answering reviews leaves it: all
 * pending while pending; the first one or two approved while on_progress; all approved once
 * approved; for a rejection or a return, the earlier steps approved, the deciding step with the
 * decision and the later steps still pending.
 */
async function seedReviews(client: pg.PoolClient, org: number): Promise<void> {
  await client.query(
    `
    INSERT INTO reviews (organization_id, request_id, step, reviewer_role, reviewer_id, reviewer_name,
                         reviewer_title, comments, status, reviewed_at, created_at, modified_at)
    SELECT r.organization_id, r.id, step.n, rv.role,
           CASE WHEN d.status <> 'pending' THEN rv.id END,
           CASE WHEN d.status <> 'pending' THEN rv.fullname END,
           rv.title,
           CASE d.status WHEN 'approved' THEN 'Approved, within budget'
                         WHEN 'rejected' THEN 'Not a priority this quarter'
                         WHEN 'request_edit' THEN 'Please attach the quotation' ELSE '' END,
           d.status,
           d.reviewed_at, r.created_at, coalesce(d.reviewed_at, r.created_at)
    FROM requests r
    CROSS JOIN LATERAL (SELECT CASE WHEN r.amount_base >= 150000000 THEN 3 ELSE 2 END AS steps,
                               abs(uuid_hash(r.id)::bigint) AS h) m
    CROSS JOIN LATERAL generate_series(1, m.steps) AS step(n)
    CROSS JOIN LATERAL (SELECT CASE
      WHEN r.current_status = 'pending' THEN 'pending'
      WHEN r.current_status = 'approved' THEN 'approved'
      WHEN r.current_status = 'on_progress'
        THEN CASE WHEN step.n <= 1 + m.h % (m.steps - 1) THEN 'approved' ELSE 'pending' END
      WHEN step.n < 1 + m.h % m.steps THEN 'approved'
      WHEN step.n = 1 + m.h % m.steps THEN r.current_status
      ELSE 'pending' END AS status) s
    CROSS JOIN LATERAL (SELECT s.status,
      CASE WHEN s.status <> 'pending'
           THEN least(now(), r.created_at + step.n * interval '5 hours') END AS reviewed_at) d
    JOIN bench_reviewers rv ON rv.organization_id = r.organization_id
                           AND rv.role = ($1::text[])[step.n]
    WHERE r.organization_id = (SELECT id FROM bench_orgs WHERE n = ${org})`,
    [chainRoles],
  );
}

/**
 * requests.next_reviewer_role and answered_by as submitting and answering reviews leave them: the
 * role of the first pending review while a request awaits review, and who answered. The migration's backfill, written as one join since
 * the reviews have no index while seeding.
 */
async function seedNextReviewerRoles(client: pg.PoolClient): Promise<void> {
  await client.query(`
    UPDATE requests r SET next_reviewer_role = first.reviewer_role
    FROM (SELECT DISTINCT ON (request_id) request_id, reviewer_role
          FROM reviews WHERE status = 'pending'
          ORDER BY request_id, step) first
    WHERE first.request_id = r.id AND r.current_status IN ('pending', 'on_progress')`);
  // requests.answered_by of the requests awaiting review, the rows the pending lists read, as
  // migration 0017's backfill fills it (every row would add 40 s and 400 MB of dead rows here).
  await client.query(`
    UPDATE requests r SET answered_by = answers.people
    FROM (SELECT request_id, array_agg(DISTINCT reviewer_id ORDER BY reviewer_id) AS people
          FROM reviews WHERE status <> 'pending' AND reviewer_id IS NOT NULL
          GROUP BY request_id) AS answers
    WHERE r.id = answers.request_id AND r.is_latest
      AND r.current_status IN ('pending', 'on_progress')`);
}

/** Seeds `shape` (by default 1,000,000 requests over four organisations) on a fresh database. */
export async function seedMillionRequests(
  client: pg.PoolClient,
  shape: SeedShape = defaultShape,
): Promise<void> {
  await client.query(`SET synchronous_commit = off`);
  await client.query(`SET maintenance_work_mem = '1GB'`);
  // The id of request i: random-looking and fixed, so a resubmission can name its first version.
  await client.query(`
    CREATE FUNCTION pg_temp.bench_request_id(i int) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
      SELECT overlay(overlay(md5('bench-request-' || i) PLACING '4' FROM 13) PLACING '8' FROM 17)::uuid
    $$`);
  await seedPeopleAndBudgets(client, shape);
  await withoutIndexes(client, ['requests', 'reviews'], async () => {
    for (let start = 0; start < shape.requests; start += requestBatch) {
      const end = Math.min(start + requestBatch, shape.requests) - 1;
      await seedRequests(client, shape, start, end);
      log(`  requests ${end + 1}/${shape.requests}`);
    }
    for (let org = 0; org < shape.organizations; org += 1) {
      await seedReviews(client, org);
      log(`  reviews of organisation ${org + 1}/${shape.organizations}`);
    }
    await seedNextReviewerRoles(client);
    log('  next reviewer roles');
    log('  building the indexes and foreign keys…');
  });
  // As autovacuum would have by now: statistics, and a visibility map for index-only scans.
  await client.query(`VACUUM ANALYZE`);
}
