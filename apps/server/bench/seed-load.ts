/**
 * The load benchmark's organisation (issue 13): at scale 1, 10,000 users and 10,000 budgets over
 * five organisations, 1,000,000 requests with their reviews (the requests benchmark's seed in a
 * larger shape) and 100,000 retirements with their review rounds, written straight through SQL.
 * Every user gets the same known password, so the benchmark signs in as anyone.
 */
import type pg from 'pg';
import { hashPassword } from '../src/features/auth/passwords.ts';
import { chainRoles, seedMillionRequests, type SeedShape } from './seed-requests.ts';
import { log, withoutIndexes } from './support.ts';

/** The password of every seeded user. */
export const loadPassword = 'Bench-load-password-13';

export type LoadShape = SeedShape & { retirements: number };

/**
 * The shape at a scale (1 = the organisation; 0.01 for a quick correctness run). Five
 * organisations: one holds at most 2,079 budget codes, and 10,000 budgets need five.
 */
export function loadShape(scale: number): LoadShape {
  const organizations = 5;
  const reviewersPerOrganization = 5;
  const usersPerOrganization = Math.max(10, Math.round((10_000 * scale) / organizations));
  const budgetsPerOrganization = Math.max(2, Math.round((10_000 * scale) / organizations));
  return {
    organizations,
    staffPerOrganization: usersPerOrganization - reviewersPerOrganization,
    budgetsPerOrganization,
    // The codes' amounts span 20 billion at every scale (10,000,000 a code at full scale, as
    // before): a small run's few codes, each holding a hundred seeded requests, keep room for the
    // writes, which answered "exceeds the available balance" at BENCH_SCALE=0.01 (817 of 860).
    budgetStep: Math.round(20_000_000_000 / budgetsPerOrganization),
    requests: Math.max(1_000, Math.round(1_000_000 * scale)),
    retirements: Math.max(100, Math.round(100_000 * scale)),
  };
}

/**
 * Retirements of approved requests, one approved request in eight, newest first. As the requests
 * they retire age: attached in the last 35 days and not yet submitted (pending, due in the coming
 * two weeks, so no owner is overdue), 35–45 days submitted and waiting for the finance officer
 * (on_progress), older ones approved with up to a fifth of the cash returned.
 */
async function seedRetirements(client: pg.PoolClient, count: number): Promise<void> {
  await client.query(`
    CREATE TEMP TABLE bench_retirements AS
    SELECT gen_random_uuid() AS id, r.id AS request_id, r.organization_id, r.budget_id,
           r.request_owner_id, r.amount_requested, r.created_at, r.modified_at AS approved_at,
           CASE WHEN r.amount_base >= 150000000 THEN 3 ELSE 2 END AS steps,
           abs(uuid_hash(r.id)::bigint) AS h,
           CASE WHEN r.created_at > now() - interval '35 days' THEN 'pending'
                WHEN r.created_at > now() - interval '45 days' THEN 'on_progress'
                ELSE 'approved' END AS status
    FROM requests r
    WHERE r.is_latest AND r.current_status = 'approved' AND abs(uuid_hash(r.id)::bigint) % 8 = 0
    ORDER BY r.created_at DESC
    LIMIT ${count}`);
  await client.query(`
    INSERT INTO retirements (id, organization_id, request_id, budget_id, retirement_owner_id, status,
                             due_date, amount_received, amount_spent, amount_currency, comments,
                             is_funds_returned, submissions, submitted_at, next_reviewer_role,
                             created_by, created_at, modified_at)
    SELECT t.id, t.organization_id, t.request_id, t.budget_id, t.request_owner_id, t.status,
           CASE WHEN t.status = 'pending' THEN current_date + 1 + (t.h % 14)::int
                ELSE (t.approved_at + interval '14 days')::date END,
           t.amount_requested,
           CASE WHEN t.status <> 'pending'
                THEN t.amount_requested - round(t.amount_requested * (t.h % 5) / 20) END,
           'tzs',
           CASE WHEN t.status <> 'pending' THEN 'Receipts attached' END,
           t.status = 'approved' AND t.h % 5 <> 0,
           CASE WHEN t.status = 'pending' THEN 0 ELSE 1 END,
           CASE WHEN t.status <> 'pending' THEN t.approved_at + interval '10 days' END,
           CASE WHEN t.status = 'on_progress' THEN 'finance_officer' END,
           f.id, t.approved_at, t.approved_at + interval '10 days'
    FROM bench_retirements t
    JOIN bench_reviewers f ON f.organization_id = t.organization_id AND f.role = 'finance_officer'`);
  await client.query(
    `
    INSERT INTO retirement_reviews (organization_id, retirement_id, round, step, reviewer_role,
                                    reviewer_id, reviewer_name, reviewer_title, comments, status,
                                    reviewed_at, created_at, modified_at)
    SELECT t.organization_id, t.id, 1, step.n, rv.role,
           CASE WHEN t.status = 'approved' THEN rv.id END,
           CASE WHEN t.status = 'approved' THEN rv.fullname END,
           rv.title,
           CASE WHEN t.status = 'approved' THEN 'Receipts checked' ELSE '' END,
           CASE WHEN t.status = 'approved' THEN 'approved' ELSE 'pending' END,
           CASE WHEN t.status = 'approved' THEN t.approved_at + interval '12 days' END,
           t.approved_at + interval '10 days', t.approved_at + interval '12 days'
    FROM bench_retirements t
    CROSS JOIN LATERAL generate_series(1, t.steps) AS step(n)
    JOIN bench_reviewers rv ON rv.organization_id = t.organization_id
                           AND rv.role = ($1::text[])[step.n]
    WHERE t.status <> 'pending'`,
    [chainRoles],
  );
}

/** Seeds the load benchmark's organisation on a fresh, migrated database. */
export async function seedLoadOrganisation(client: pg.PoolClient, shape: LoadShape): Promise<void> {
  await seedMillionRequests(client, shape);
  await withoutIndexes(client, ['retirements', 'retirement_reviews'], () =>
    seedRetirements(client, shape.retirements),
  );
  log(`  ${shape.retirements} retirements`);
  // One argon2id hash for everyone: hashing 10,000 passwords would take minutes.
  await client.query(`UPDATE users SET password_hash = $1`, [await hashPassword(loadPassword)]);
  await client.query(`VACUUM ANALYZE retirements, retirement_reviews, users`);
}
