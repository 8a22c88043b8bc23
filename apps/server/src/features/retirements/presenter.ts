import type {
  OutstandingRetirement,
  RetirementItemResponse,
  RetirementResponse,
  RetirementReviewResponse,
} from '@imprest/domain/api/retirements.ts';
import {
  roleLabels,
  type Currency,
  type RequestCategory,
  type RetirementStatus,
} from '@imprest/domain/enums.ts';
import { toAmount } from '@imprest/domain/money.ts';
import { requestFile, reviewerTitle, type ReviewerRole } from '@imprest/domain/requests.ts';
import { iso, isoRequired } from '../../lib/time.ts';
import type { RetirementRecord, RetirementReviewRow } from './queries.ts';

/** One step of a retirement's review round (spec §3 Review); `title` labels it by step. */
export function presentRetirementReview(row: RetirementReviewRow): RetirementReviewResponse {
  const role = row.reviewer_role as ReviewerRole;
  return {
    id: row.id,
    round: row.round,
    step: row.step,
    title: reviewerTitle(row.step),
    reviewer_role: role,
    reviewer_title: row.reviewer_title ?? roleLabels[role],
    reviewer_name: row.reviewer_name,
    reviewer_id: row.reviewer_id,
    comments: row.comments,
    status: row.status as RetirementReviewResponse['status'],
    is_funds_returned: row.is_funds_returned,
    reviewed_at: iso(row.reviewed_at),
  };
}

/** A retirement as lists present it (spec §2 Retirements list). */
export function presentRetirementItem(row: RetirementRecord): RetirementItemResponse {
  const received = toAmount(row.amount_received);
  return {
    id: row.id,
    request_id: row.request_id,
    retirement_owner_id: row.retirement_owner_id,
    name: row.name,
    purpose: row.purpose as RequestCategory,
    approval_number: row.approval_number,
    budget_code: row.budget_code,
    status: row.status as RetirementStatus,
    due_date: row.due_date,
    retirement_date: iso(row.submitted_at),
    amount_requested: received,
    amountReceived: received,
    amount_spent: row.amount_spent === null ? null : toAmount(row.amount_spent),
    amount_currency: row.amount_currency as Currency,
    currency: row.amount_currency as Currency,
    created_at: isoRequired(row.created_at),
    modified_at: isoRequired(row.modified_at),
  };
}

/**
 * A retirement with everything its form shows (spec §2, §3): the owner's comments and files, and
 * the reviews of every round. Also a request's `current_retirement`.
 */
export function presentRetirement(
  row: RetirementRecord,
  reviews: RetirementReviewRow[],
): RetirementResponse {
  return {
    ...presentRetirementItem(row),
    comments: row.comments,
    file_paths: row.file_paths,
    files: row.file_paths.map(requestFile),
    is_funds_returned: row.is_funds_returned,
    reviews: reviews.map(presentRetirementReview),
  };
}

/** A retirement its owner still has to account for, for their Home. */
export function presentOutstandingRetirement(row: RetirementRecord): OutstandingRetirement {
  return {
    id: row.id,
    request_id: row.request_id,
    purpose: row.purpose as RequestCategory,
    status: row.status as RetirementStatus,
    amountReceived: toAmount(row.amount_received),
    amount_currency: row.amount_currency as Currency,
    due_date: row.due_date,
  };
}
