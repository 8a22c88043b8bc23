import type { StatusFilter } from '@imprest/domain/enums.ts';
import { isAwaitingReview } from '@imprest/domain/requests.ts';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { ownerRequestCounts, requestStatusCounts } from '../../db/schema.ts';

/**
 * The counts of newest versions by status that the statement triggers on requests keep: one table
 * per organisation (migration 0006, the admin lists) and one per owner (migration 0016, the staff
 * lists and the Home counts). A writer only inserts a row of deltas, so no two writers wait on one
 * counter row and no order of locks can deadlock; a status's count is the sum of its rows, and a
 * read that finds more than `rowsToFold` rows merges them.
 */
type KeptCountsTable = typeof requestStatusCounts | typeof ownerRequestCounts;
type KeptCountsKey =
  typeof requestStatusCounts.organization_id | typeof ownerRequestCounts.owner_id;

/** One table of kept counts, with the query of one key's rows prepared once per pool. */
function keptCountsOf(table: KeptCountsTable, key: KeptCountsKey, name: string) {
  return {
    table,
    key,
    rowsOf: preparedOnce((db: Executor) =>
      db
        .select({
          status: table.current_status,
          requests: sql<string>`sum(${table.requests})`,
          rows: sql<number>`count(*)::int`,
        })
        .from(table)
        .where(eq(key, sql.placeholder('key')))
        .groupBy(table.current_status)
        .prepare(name),
    ),
  };
}
type KeptCounts = ReturnType<typeof keptCountsOf>;

const organizationCounts = keptCountsOf(
  requestStatusCounts,
  requestStatusCounts.organization_id,
  'organization_request_counts',
);
const ownerCounts = keptCountsOf(
  ownerRequestCounts,
  ownerRequestCounts.owner_id,
  'owner_request_counts',
);

/** Above this many rows, one organisation's or owner's counts are merged (on the next read). */
const rowsToFold = 64;

/** Newest versions by status; a status with none may be missing. */
export type StatusCounts = Partial<Record<string, number>>;

async function keptCounts(db: Executor, counts: KeptCounts, key: string): Promise<StatusCounts> {
  const rows = await counts.rowsOf(db).execute({ key });
  if (rows.reduce((sum, row) => sum + row.rows, 0) > rowsToFold) await fold(db, counts, key);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.requests)]));
}

/**
 * Merges one organisation's or owner's rows into one row per status (none for a status that adds
 * up to zero), in one statement. Safe beside writers, which only insert rows this statement does
 * not see, and beside another fold, whose deleted rows this one skips.
 */
async function fold(db: Executor, counts: KeptCounts, key: string): Promise<void> {
  await db.execute(sql`
    WITH folded AS (
      DELETE FROM ${counts.table}
      WHERE ${counts.key} = ${key}
      RETURNING current_status, requests
    )
    INSERT INTO ${counts.table} (${sql.identifier(counts.key.name)}, current_status, requests)
    SELECT ${key}::uuid, current_status, sum(requests) FROM folded
    GROUP BY current_status
    HAVING sum(requests) <> 0`);
}

/** The total of a list's status filter. */
export function totalOf(counts: StatusCounts, status: StatusFilter): number {
  if (status !== 'all') return counts[status] ?? 0;
  return Object.values(counts).reduce<number>((sum, value) => sum + (value ?? 0), 0);
}

/** How many newest versions an organisation has, by status (the admin list's total). */
export function organizationRequestCounts(
  db: Executor,
  organizationId: string,
): Promise<StatusCounts> {
  return keptCounts(db, organizationCounts, organizationId);
}

/** How many newest versions an owner has, by status (the staff list's total, the Home counts). */
export function ownerRequestCountsOf(db: Executor, ownerId: string): Promise<StatusCounts> {
  return keptCounts(db, ownerCounts, ownerId);
}

/** How many newest versions an organisation has, in one status or in all. */
export async function countOrganizationRequests(
  db: Executor,
  organizationId: string,
  status: StatusFilter,
): Promise<number> {
  return totalOf(await organizationRequestCounts(db, organizationId), status);
}

/** Merges an organisation's request_status_counts. */
export function foldRequestStatusCounts(db: Executor, organizationId: string): Promise<void> {
  return fold(db, organizationCounts, organizationId);
}

/** Merges an owner's owner_request_counts. */
export function foldOwnerRequestCounts(db: Executor, ownerId: string): Promise<void> {
  return fold(db, ownerCounts, ownerId);
}

/** Counts of one owner's newest versions by status (spec §3 summary). */
export async function countOwnerRequests(
  db: Executor,
  ownerId: string,
): Promise<{ pending: number; approved: number; rejected: number; total: number }> {
  const counts = await ownerRequestCountsOf(db, ownerId);
  // 'Request Pending Approval': every status still awaiting review (pending, on_progress).
  const pending = Object.entries(counts)
    .filter(([status]) => isAwaitingReview(status))
    .reduce((sum, [, value]) => sum + (value ?? 0), 0);
  return {
    pending,
    approved: counts.approved ?? 0,
    rejected: counts.rejected ?? 0,
    total: totalOf(counts, 'all'),
  };
}
