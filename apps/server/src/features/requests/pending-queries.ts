/**
 * The review queue (Home's 'Requests Pending Your Review'): the newest versions whose next step
 * is the caller's role or, for a delegate, a delegator's, oldest first.
 */
import { reviewerHierarchy } from '@imprest/domain/requests.ts';
import { and, asc, eq, ne, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { equalsConstant, inConstants } from '../../db/constants.ts';
import { isFirstPage, preparedPages, type PageWindow } from '../../db/first-page.ts';
import { budgets, requests } from '../../db/schema.ts';
import { reviewQueueCountsColumns, reviewQueuePageWithTotal } from './counts.ts';
import { recordColumns, type RequestRecord } from './queries.ts';

/** A role a delegate answers for one delegator (issue 15): not on that delegator's own requests. */
export type PendingGrant = { role: string; delegatorId: string };

/**
 * Newest versions awaiting review whose first pending step is the caller's role, and, for a
 * delegate, those whose step is the role of one of their active delegators, except that
 * delegator's own; never the caller's own, nor one with a step the caller already answered (one
 * person answers one step, so a director who answered the secretary's step as a delegate does not
 * see the director's step of that request; issue 15, docs/decisions/0019). Oldest first.
 * next_reviewer_role is set only while a request awaits review, so requests_next_reviewer_idx
 * serves the filter and the order; requests.answered_by (migration 0017) the answered check. The
 * total of a caller who holds no delegation is kept by triggers (migration 0025): the role's queue
 * less the requests the caller owns or answered, carried by a first page; a delegate's is counted.
 */
export async function listPendingForRole(
  db: Executor,
  options: {
    organizationId: string;
    role: string;
    /** The caller: never their own requests. */
    excludeOwnerId: string;
    grants?: readonly PendingGrant[];
    page: number;
    perPage: number;
  },
): Promise<{ rows: RequestRecord[]; total: number }> {
  const callerId = options.excludeOwnerId;
  const grants = options.grants ?? [];
  if (grants.length === 0) {
    const values = {
      organizationId: options.organizationId,
      role: options.role,
      callerId,
      limit: options.perPage,
      offset: (options.page - 1) * options.perPage,
    };
    const page = (pendingPageOfRole.get(options.role) ?? pendingPageQuery)(db, options);
    return reviewQueuePageWithTotal(
      db,
      { organizationId: options.organizationId, role: options.role, callerId },
      { carriesCounts: isFirstPage(options), rows: () => page.execute(values) },
    );
  }
  const ownRole = eq(requests.next_reviewer_role, options.role);
  const waitingFor = or(
    ownRole,
    ...grants.map((grant) =>
      and(
        eq(requests.next_reviewer_role, grant.role),
        ne(requests.request_owner_id, grant.delegatorId),
      ),
    ),
  );
  const where = pendingWhere(options.organizationId, waitingFor, callerId);
  const [rows, total] = await pipelined(db, [
    (on) =>
      pendingPage(on, where, {
        limit: options.perPage,
        offset: (options.page - 1) * options.perPage,
      }),
    (on) => on.$count(requests, where),
  ]);
  return { rows, total };
}

/** Newest versions waiting for review in `waitingFor`'s steps, never the caller's own or answered. */
function pendingWhere(
  organizationId: string | Placeholder,
  waitingFor: SQL | undefined,
  callerId: string | Placeholder,
) {
  return and(
    eq(requests.organization_id, organizationId),
    // Constants in the text, so the named queue's generic plan knows them (db/constants.ts).
    sql`${requests.is_latest}`,
    waitingFor,
    inConstants(requests.current_status, ['pending', 'on_progress']),
    ne(requests.request_owner_id, callerId),
    sql`NOT ${requests.answered_by} @> ARRAY[${callerId}]::uuid[]`,
  );
}

function pendingPage<Extra extends Record<string, SQL.Aliased | SQL>>(
  db: Executor,
  where: SQL | undefined,
  window: PageWindow,
  extra?: Extra,
) {
  return db
    .select({ ...recordColumns, ...(extra as Extra) })
    .from(requests)
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .where(where)
    .orderBy(asc(requests.created_at), asc(requests.id))
    .limit(window.limit)
    .offset(window.offset);
}

/**
 * The pending list of a caller who holds no delegation (nearly every one), built once (issue 13).
 * Named (decision 0026): the page reads requests_next_reviewer_idx, whose key is the organisation,
 * the role and the page's order and whose INCLUDE columns are the other conditions, the best plan
 * whether a role waits on a few requests or on thousands; PostgreSQL plans it once only with its
 * size and role in its text (pendingPageOfRole, below). Its total is kept (migration 0025,
 * docs/decisions/0047): a first page carries the role's and the caller's kept counts, as an
 * organisation's first page does (decision 0045); a later page reads them beside it. Counting the
 * queue instead read thousands of the index's entries a call.
 */
const pendingOwnWhere = pendingWhere(
  sql.placeholder('organizationId'),
  eq(requests.next_reviewer_role, sql.placeholder('role')),
  sql.placeholder('callerId'),
);
const pendingPageQuery = preparedPages('pending_requests_page', (db, window, name) =>
  pendingPage(db, pendingOwnWhere, window, reviewQueueCountsColumns(window)).prepare(name),
);

/**
 * A reviewer role's queue page, the role in its text (db/constants.ts): most requests wait for no
 * one, so PostgreSQL, not knowing the role, expects a few dozen of an organisation's to wait for
 * it, and costs the generic plan's LIMIT at a third of their walk, not the few rows it reads; it
 * kept planning each call even with the page's size in the text (0.39 ms a call, more than the page
 * ran; bench/results.md, 2026-12-02, fifth session). Knowing the role, it expects the thousands
 * there are and keeps the one plan, the same walk of requests_next_reviewer_idx.
 */
const pendingPageOfRole = new Map(
  reviewerHierarchy.map((role) => [
    role as string,
    preparedPages(`pending_requests_page_${role}`, (db, window, name) =>
      pendingPage(
        db,
        pendingWhere(
          sql.placeholder('organizationId'),
          equalsConstant(requests.next_reviewer_role, role),
          sql.placeholder('callerId'),
        ),
        window,
        reviewQueueCountsColumns(window),
      ).prepare(name),
    ),
  ]),
);
