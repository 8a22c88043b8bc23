/**
 * The figures that triggers keep, checked after a restore against the rows they summarise, and
 * recomputed where the archive's own did not match (restore.ts, docs/decisions/0017).
 */
import type pg from 'pg';

/** Requests waiting for a review, as review_queue_counts counts them (migration 0025). */
const waitingForReview = `r.is_latest AND r.next_reviewer_role IS NOT NULL
  AND r.current_status IN ('pending', 'on_progress')`;

/**
 * The counts the triggers keep (migrations 0006, 0016, 0020, 0022 and 0025): each table, its key,
 * status and count columns, and the rows it counts (their table, the key's and the status's
 * columns there, and which rows count).
 */
const keptCounts = [
  {
    table: 'request_status_counts',
    key: 'organization_id',
    status: 'current_status',
    count: 'requests',
    source: 'requests',
    column: 'organization_id',
    sourceStatus: 'current_status',
    counted: 'is_latest',
  },
  {
    table: 'owner_request_counts',
    key: 'owner_id',
    status: 'current_status',
    count: 'requests',
    source: 'requests',
    column: 'request_owner_id',
    sourceStatus: 'current_status',
    counted: 'is_latest',
  },
  {
    table: 'retirement_status_counts',
    key: 'organization_id',
    status: 'status',
    count: 'retirements',
    source: 'retirements',
    column: 'organization_id',
    sourceStatus: 'status',
    counted: 'true',
  },
  {
    table: 'budget_department_counts',
    key: 'organization_id',
    status: 'department',
    count: 'budgets',
    source: 'budgets',
    column: 'organization_id',
    sourceStatus: 'department',
    counted: 'true',
  },
  {
    table: 'review_queue_counts',
    key: 'organization_id',
    status: 'next_reviewer_role',
    count: 'requests',
    source: 'requests r',
    column: 'organization_id',
    sourceStatus: 'next_reviewer_role',
    counted: waitingForReview,
  },
  {
    // Each waiting request once for its owner and once for each person who answered a step of it.
    table: 'review_queue_exclusions',
    key: 'person_id',
    status: 'next_reviewer_role',
    count: 'requests',
    source: `(SELECT person.id AS person_id, r.next_reviewer_role FROM requests r
      CROSS JOIN LATERAL review_queue_excluded(r.answered_by, r.request_owner_id) AS person(id)
      WHERE ${waitingForReview}) AS waiting`,
    column: 'person_id',
    sourceStatus: 'next_reviewer_role',
    counted: 'true',
  },
] as const;

/**
 * The figures kept by triggers (the budget ledger of migration 0008, the status counts of 0006,
 * 0016 and 0020, the budgets' department counts of 0022, the review queues' of 0025) are checked
 * against the rows they summarise; a mismatch (the archive's own) is recomputed and named.
 */
export async function checkDerivedFigures(client: pg.ClientBase): Promise<string[]> {
  const repaired: string[] = [];
  const found = await client.query<{ ledger: string | null }>(
    `SELECT to_regprocedure('budget_committed_recomputed(uuid)')::text AS ledger`,
  );
  if (found.rows[0]?.ledger) {
    const fixed = await client.query(
      `UPDATE budgets SET committed = budget_committed_recomputed(id)
       WHERE committed <> budget_committed_recomputed(id)`,
    );
    if (fixed.rowCount) repaired.push(`budgets.committed of ${fixed.rowCount} budget(s)`);
  }
  for (const kept of keptCounts) {
    const { table, key, status, count, source, column, sourceStatus, counted } = kept;
    const exists = await client.query<{ found: string | null }>(
      `SELECT to_regclass('public.${table}')::text AS found`,
    );
    if (!exists.rows[0]?.found) continue;
    const actualRows = `SELECT ${column}, ${sourceStatus}, count(*) FROM ${source} WHERE ${counted} GROUP BY 1, 2`;
    const compared = await client.query<{ mismatched: number }>(
      `WITH kept AS (SELECT ${key} AS key, ${status} AS status, sum(${count})::bigint AS n
                     FROM ${table} GROUP BY 1, 2),
            actual (key, status, n) AS (${actualRows})
       SELECT count(*)::int AS mismatched
       FROM kept FULL JOIN actual USING (key, status)
       WHERE coalesce(kept.n, 0) <> coalesce(actual.n, 0)`,
    );
    if ((compared.rows[0]?.mismatched ?? 0) > 0) {
      await client.query(`DELETE FROM ${table}`);
      await client.query(`INSERT INTO ${table} (${key}, ${status}, ${count}) ${actualRows}`);
      repaired.push(table);
    }
  }
  return repaired;
}
