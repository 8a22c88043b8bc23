import type { StatusFilter } from '@imprest/domain/enums.ts';
import { isAwaitingReview } from '@imprest/domain/requests.ts';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { PageWindow } from '../../db/first-page.ts';
import {
  firstPageKeptCountsColumn,
  foldKeptCounts,
  keptCountsColumn,
  keptCountsOf,
  keptCountsOfKeysColumn,
  keptCountsOfKeysOfPage,
  keptCountsOfPage,
  pageWithKeptCounts,
  pageWithKeptCountsOf,
  readKeptCounts,
  totalOf,
  type StatusCounts,
} from '../../db/kept-counts.ts';
import {
  ownerRequestCounts,
  requestStatusCounts,
  reviewQueueCounts,
  reviewQueueExclusions,
} from '../../db/schema.ts';

/**
 * The counts of newest versions by status that the statement triggers on requests keep
 * (db/kept-counts.ts): one table per organisation (migration 0006, the admin lists) and one per
 * owner (migration 0016, the staff lists and the Home counts).
 */
const organizationCounts = keptCountsOf({
  table: requestStatusCounts,
  key: requestStatusCounts.organization_id,
  status: requestStatusCounts.current_status,
  count: requestStatusCounts.requests,
  name: 'organization_request_counts',
});
const ownerCounts = keptCountsOf({
  table: ownerRequestCounts,
  key: ownerRequestCounts.owner_id,
  status: ownerRequestCounts.current_status,
  count: ownerRequestCounts.requests,
  name: 'owner_request_counts',
});

/**
 * The requests waiting for each reviewer role, per organisation, and of those the ones each person
 * may not review, their own or answered (migration 0025): a pending list's total is the one less
 * the other. Their "status" (db/kept-counts.ts) is the role.
 */
const reviewQueue = keptCountsOf({
  table: reviewQueueCounts,
  key: reviewQueueCounts.organization_id,
  status: reviewQueueCounts.next_reviewer_role,
  count: reviewQueueCounts.requests,
  name: 'review_queue_counts',
});
const reviewQueueExcluded = keptCountsOf({
  table: reviewQueueExclusions,
  key: reviewQueueExclusions.person_id,
  status: reviewQueueExclusions.next_reviewer_role,
  count: reviewQueueExclusions.requests,
  name: 'review_queue_exclusions',
});

/**
 * The kept counts of a queue's page as columns (decision 0045: a first page's carry them, a later
 * page's are NULL): the organisation's by the page's placeholder `organizationId`, the caller's
 * exclusions by `callerId`.
 */
export function reviewQueueCountsColumns(window: PageWindow) {
  return {
    queue_counts: firstPageKeptCountsColumn(reviewQueue, sql.placeholder('organizationId'), window),
    excluded_counts: firstPageKeptCountsColumn(
      reviewQueueExcluded,
      sql.placeholder('callerId'),
      window,
    ),
  };
}

/**
 * A role's queue page and its total, the requests waiting for the role less those the caller owns
 * or answered: from the counts its first page carries, else read beside a later page.
 */
export async function reviewQueuePageWithTotal<
  Row extends { queue_counts: string | null; excluded_counts: string | null },
>(
  db: Executor,
  of: { organizationId: string; role: string; callerId: string },
  page: { carriesCounts: boolean; rows: () => Promise<Row[]> },
): Promise<{ rows: Row[]; total: number }> {
  const {
    rows,
    counts: [queue = {}, excluded = {}],
  } = await pageWithKeptCountsOf(
    db,
    [
      { counts: reviewQueue, key: of.organizationId, carried: (row: Row) => row.queue_counts },
      { counts: reviewQueueExcluded, key: of.callerId, carried: (row: Row) => row.excluded_counts },
    ],
    page,
  );
  return { rows, total: (queue[of.role] ?? 0) - (excluded[of.role] ?? 0) };
}

/** Merges an organisation's review_queue_counts and a person's review_queue_exclusions. */
export async function foldReviewQueueCounts(
  db: Executor,
  keys: { organizationId: string; personId: string },
): Promise<void> {
  await foldKeptCounts(db, reviewQueue, keys.organizationId);
  await foldKeptCounts(db, reviewQueueExcluded, keys.personId);
}

/** How many newest versions an organisation has, by status (the admin list's total). */
export function organizationRequestCounts(
  db: Executor,
  organizationId: string,
): Promise<StatusCounts> {
  return readKeptCounts(db, organizationCounts, organizationId);
}

/** How many newest versions an owner has, by status (the staff list's total, the Home counts). */
export function ownerRequestCountsOf(db: Executor, ownerId: string): Promise<StatusCounts> {
  return readKeptCounts(db, ownerCounts, ownerId);
}

/**
 * The owner's kept counts as a column of their list's page (db/kept-counts.ts): its key is the
 * page's placeholder `ownerId`.
 */
export function ownerRequestCountsColumn() {
  return keptCountsColumn(ownerCounts, sql.placeholder('ownerId'));
}

/**
 * Several owners' kept counts summed by status, as a column of a page (a name search's): `owners`
 * is the SQL of their ids' array.
 */
export function ownersRequestCountsColumn(owners: SQL) {
  return keptCountsOfKeysColumn(ownerCounts, owners);
}

/** Several owners' counts as their page's first row carries them (read anew for a page without rows). */
export function ownersRequestCountsOfPage(
  db: Executor,
  owners: readonly string[],
  carried: string | null | undefined,
): Promise<StatusCounts> {
  return keptCountsOfKeysOfPage(db, ownerCounts, owners, carried);
}

/** The owner's counts as their page's first row carries them (read anew for a page without rows). */
export function ownerRequestCountsOfPage(
  db: Executor,
  ownerId: string,
  carried: string | null | undefined,
): Promise<StatusCounts> {
  return keptCountsOfPage(db, ownerCounts, ownerId, carried);
}

/**
 * The organisation's kept counts as a column of its list's page: a first page's carries them
 * (db/kept-counts.ts, docs/decisions/0045); its key is the page's placeholder `organizationId`.
 */
export function organizationRequestCountsColumn(window: PageWindow) {
  return firstPageKeptCountsColumn(organizationCounts, sql.placeholder('organizationId'), window);
}

/** An organisation's page and its counts, carried by a first page or read beside a later one. */
export function organizationRequestPageWithCounts<Row extends { kept_counts: string | null }>(
  db: Executor,
  organizationId: string,
  page: { carriesCounts: boolean; rows: () => Promise<Row[]> },
): Promise<{ rows: Row[]; counts: StatusCounts }> {
  return pageWithKeptCounts(db, organizationCounts, organizationId, page);
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
  return foldKeptCounts(db, organizationCounts, organizationId);
}

/** Merges an owner's owner_request_counts. */
export function foldOwnerRequestCounts(db: Executor, ownerId: string): Promise<void> {
  return foldKeptCounts(db, ownerCounts, ownerId);
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
