import type { ReviewResponse } from '@imprest/domain/api/reviews.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { reviewerTitle, type ReviewerRole, type ReviewStatus } from '@imprest/domain/requests.ts';
import { iso } from '../../lib/time.ts';
import type { ReviewRow } from './queries.ts';

/**
 * The API review object (spec §3); `title` is the reviewer card's label by step, `on_behalf_of`
 * the delegator a delegate answered for (issue 15).
 */
export function presentReview(row: ReviewRow): ReviewResponse {
  const role = row.reviewer_role as ReviewerRole;
  return {
    id: row.id,
    step: row.step,
    title: reviewerTitle(row.step),
    reviewer_role: role,
    reviewer_title: row.reviewer_title ?? roleLabels[role],
    reviewer_name: row.reviewer_name,
    reviewer_id: row.reviewer_id,
    on_behalf_of: row.on_behalf_of_id
      ? { id: row.on_behalf_of_id, name: row.on_behalf_of_name ?? '' }
      : null,
    comments: row.comments,
    status: row.status as ReviewStatus,
    is_funds_returned: false,
    reviewed_at: iso(row.reviewed_at),
  };
}
