import type { StatusFilter } from '@imprest/domain/enums.ts';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  inArray,
  lt,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { budgets, requests } from '../../db/schema.ts';
import type { BudgetRow } from '../budgets/ledger.ts';

export type RequestRow = typeof requests.$inferSelect;
export type RequestRecord = RequestRow & { budget_name: string };
export type NewRequest = typeof requests.$inferInsert;

const recordColumns = { ...getTableColumns(requests), budget_name: budgets.name };

/**
 * Newest first, in the order of requests_org_latest_idx and requests_owner_latest_idx: they are
 * built `created_at DESC NULLS LAST`, and a plain `DESC` (NULLS FIRST) would not match them, so
 * PostgreSQL would sort every row of the organisation instead of reading the first page off the index.
 */
const newestFirst = [sql`${requests.created_at} desc nulls last`, desc(requests.id)];

/** A budget of an organisation by its code string, e.g. "6105". */
export async function findBudgetByCode(
  db: Executor,
  options: { organizationId: string; code: string },
): Promise<BudgetRow | undefined> {
  const [row] = await db
    .select()
    .from(budgets)
    .where(
      and(eq(budgets.organization_id, options.organizationId), eq(budgets.code, options.code)),
    );
  return row;
}

/** One request (any version) of an organisation, with its budget's name. */
export async function findRequest(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestRecord | undefined> {
  const [row] = await db
    .select(recordColumns)
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(and(eq(requests.id, options.id), eq(requests.organization_id, options.organizationId)));
  return row;
}

/**
 * Locks a request row of an organisation for the rest of the transaction: reviews and
 * resubmissions of one request are serialised on it.
 */
export async function lockRequest(
  tx: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestRow | undefined> {
  const [row] = await tx
    .select()
    .from(requests)
    .where(and(eq(requests.id, options.id), eq(requests.organization_id, options.organizationId)))
    .for('update');
  return row;
}

export async function insertRequest(db: Executor, values: NewRequest): Promise<RequestRow> {
  const [row] = await db.insert(requests).values(values).returning();
  if (!row) throw new Error('request insert returned nothing');
  return row;
}

/** Marks a version as superseded, so it no longer counts in lists and budgets. */
export async function markSuperseded(db: Executor, id: string): Promise<void> {
  await db
    .update(requests)
    .set({ is_latest: false, modified_at: sql`now()` })
    .where(eq(requests.id, id));
}

/** Sets a request's status and next reviewer role (and approval number once approved). */
export async function updateRequestStatus(
  db: Executor,
  options: {
    id: string;
    status: string;
    nextReviewerRole: string | null;
    approvalNumber: string | null;
  },
): Promise<void> {
  await db
    .update(requests)
    .set({
      current_status: options.status,
      next_reviewer_role: options.nextReviewerRole,
      ...(options.approvalNumber ? { approval_number: options.approvalNumber } : {}),
      modified_at: sql`now()`,
    })
    .where(eq(requests.id, options.id));
}

/** Every version of a chain, oldest first. */
export async function findVersionHistory(
  db: Executor,
  chainId: string,
): Promise<Pick<RequestRow, 'id' | 'version' | 'created_at' | 'current_status'>[]> {
  return db
    .select({
      id: requests.id,
      version: requests.version,
      created_at: requests.created_at,
      current_status: requests.current_status,
    })
    .from(requests)
    .where(eq(requests.chain_id, chainId))
    .orderBy(asc(requests.version));
}

/**
 * The owner's approved requests in tzs (newest versions). Every approved request is unretired until
 * retirements land; that issue subtracts the approved retirements.
 */
export async function ownerUnretiredTotal(
  db: Executor,
  options: { organizationId: string; ownerId: string },
): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${requests.amount_base}), 0)` })
    .from(requests)
    .where(
      and(
        eq(requests.request_owner_id, options.ownerId),
        eq(requests.organization_id, options.organizationId),
        eq(requests.is_latest, true),
        eq(requests.current_status, 'approved'),
      ),
    );
  return Number(row?.total ?? 0);
}

/** A LIKE pattern matching a term anywhere, with the term's own wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The text the search matches; written exactly as the expression of requests_search_idx so the
 * trigram index serves it.
 */
const searchText = sql`lower(${requests.purpose} || ' ' || ${requests.request_owner_name} || ' ' || coalesce(${requests.approval_number}, ''))`;

export type RequestFilter = {
  organizationId: string;
  /** Only this owner's requests (staff mode); all of the organisation's otherwise. */
  ownerId?: string;
  search?: string;
  status: StatusFilter;
};

function filterConditions(filter: RequestFilter): SQL[] {
  const conditions: SQL[] = [
    eq(requests.organization_id, filter.organizationId),
    eq(requests.is_latest, true),
  ];
  if (filter.ownerId) conditions.push(eq(requests.request_owner_id, filter.ownerId));
  if (filter.status !== 'all') conditions.push(eq(requests.current_status, filter.status));
  if (filter.search) conditions.push(sql`${searchText} LIKE ${containsPattern(filter.search)}`);
  return conditions;
}

/**
 * One page of the newest versions, newest first. The conditions and order match the partial
 * indexes requests_org_latest_idx and requests_owner_latest_idx.
 */
export async function listRequestPage(
  db: Executor,
  filter: RequestFilter & { page: number; perPage: number },
): Promise<{ rows: RequestRecord[]; total: number }> {
  const where = and(...filterConditions(filter));
  const [rows, [count]] = await Promise.all([
    db
      .select(recordColumns)
      .from(requests)
      .innerJoin(budgets, eq(budgets.id, requests.budget_id))
      .where(where)
      .orderBy(...newestFirst)
      .limit(filter.perPage)
      .offset((filter.page - 1) * filter.perPage),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(requests)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Counts of one owner's newest versions by status (spec §3 summary). */
export async function countOwnerRequests(
  db: Executor,
  options: { organizationId: string; ownerId: string },
): Promise<{ pending: number; approved: number; rejected: number; total: number }> {
  const [row] = await db
    .select({
      pending: sql<number>`(count(*) filter (where ${inArray(requests.current_status, ['pending', 'on_progress'])}))::int`,
      approved: sql<number>`(count(*) filter (where ${eq(requests.current_status, 'approved')}))::int`,
      rejected: sql<number>`(count(*) filter (where ${eq(requests.current_status, 'rejected')}))::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(requests)
    .where(
      and(
        eq(requests.request_owner_id, options.ownerId),
        eq(requests.organization_id, options.organizationId),
        eq(requests.is_latest, true),
      ),
    );
  return row ?? { pending: 0, approved: 0, rejected: 0, total: 0 };
}

/**
 * Newest versions awaiting review whose first pending step is a role's, except one owner's own
 * (the caller's), oldest first. next_reviewer_role is set only while a request awaits review, so
 * requests_next_reviewer_idx serves the filter and the order.
 */
export async function listPendingForRole(
  db: Executor,
  options: {
    organizationId: string;
    role: string;
    excludeOwnerId: string;
    page: number;
    perPage: number;
  },
): Promise<{ rows: RequestRecord[]; total: number }> {
  const where = and(
    eq(requests.organization_id, options.organizationId),
    eq(requests.is_latest, true),
    eq(requests.next_reviewer_role, options.role),
    inArray(requests.current_status, ['pending', 'on_progress']),
    ne(requests.request_owner_id, options.excludeOwnerId),
  );
  const [rows, [count]] = await Promise.all([
    db
      .select(recordColumns)
      .from(requests)
      .innerJoin(budgets, eq(budgets.id, requests.budget_id))
      .where(where)
      .orderBy(asc(requests.created_at), asc(requests.id))
      .limit(options.perPage)
      .offset((options.page - 1) * options.perPage),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(requests)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** The next batch of newest versions for a download, newest first, after a keyset position. */
export async function requestBatch(
  db: Executor,
  options: {
    organizationId: string;
    ownerId?: string;
    after?: { created_at: Date; id: string };
    limit: number;
  },
): Promise<RequestRecord[]> {
  const conditions: SQL[] = [
    eq(requests.organization_id, options.organizationId),
    eq(requests.is_latest, true),
  ];
  if (options.ownerId) conditions.push(eq(requests.request_owner_id, options.ownerId));
  const after = options.after;
  if (after) {
    const older = or(
      lt(requests.created_at, after.created_at),
      and(eq(requests.created_at, after.created_at), lt(requests.id, after.id)),
    );
    if (older) conditions.push(older);
  }
  return db
    .select(recordColumns)
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(options.limit);
}
