import { z } from 'zod';
import { reviewDecisions, reviewerHierarchy, reviewStatuses } from '../requests.ts';
import { isoDateTime, storableText, uuidInput } from './common.ts';

/** One step of a request's reviewer chain as the API presents it (spec §3). */
export const reviewResponse = z.object({
  id: z.uuid(),
  step: z.number().int(),
  /** 'First Reviewer' … 'Fourth Reviewer'. */
  title: z.string(),
  reviewer_role: z.enum(reviewerHierarchy),
  /** The label of the step's role, e.g. 'Finance Officer'. */
  reviewer_title: z.string(),
  reviewer_name: z.string().nullable(),
  reviewer_id: z.uuid().nullable(),
  /**
   * The delegator the reviewer answered for, when a delegate answered ("answered by reviewer_name
   * on behalf of on_behalf_of.name", issue 15); null when the reviewer answered in their own right.
   */
  on_behalf_of: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** Empty means not yet commented (spec §3). */
  comments: z.string(),
  status: z.enum(reviewStatuses),
  /**
   * Spec §3 names it on every review: a retirement's review marks Cash Returned with it; a
   * request's review returns no money, so it is false there.
   */
  is_funds_returned: z.boolean(),
  reviewed_at: isoDateTime.nullable(),
});
export type ReviewResponse = z.infer<typeof reviewResponse>;

/**
 * `PUT reviews` (spec §7). The reviewer's identity comes from the token, so reviewer_title,
 * reviewer_name, reviewer_id, user_id, is_complete and is_edit are accepted and ignored (decisions §3).
 */
export const reviewRequest = z.object({
  id: uuidInput('id must be the UUID of the review'),
  request_id: uuidInput('request_id must be a UUID'),
  status: z.enum(reviewDecisions, { message: 'status must be approved, rejected or request_edit' }),
  comments: storableText()
    .trim()
    .max(5000)
    .nullish()
    .transform((value) => value ?? ''),
  reviewer_title: z.unknown().optional(),
  reviewer_name: z.unknown().optional(),
  reviewer_id: z.unknown().optional(),
  user_id: z.unknown().optional(),
  is_complete: z.unknown().optional(),
  is_edit: z.unknown().optional(),
});
export type ReviewRequest = z.infer<typeof reviewRequest>;
