import type { StatusFilter } from '@imprest/domain/enums.ts';
import { isAwaitingReview } from '@imprest/domain/requests.ts';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { PageWindow } from '../../db/first-page.ts';
import {
  firstPageKeptCountsColumn,
  foldKeptCounts,
  keptCountsColumn,
  keptCountsOf,
  keptCountsOfPage,
  pageWithKeptCounts,
  readKeptCounts,
  totalOf,
  type StatusCounts,
} from '../../db/kept-counts.ts';
import { ownerRequestCounts, requestStatusCounts } from '../../db/schema.ts';

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
