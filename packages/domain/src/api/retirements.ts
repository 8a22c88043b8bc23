import { z } from 'zod';
import { maxPageSize, retirementPageSize } from '../constants.ts';
import {
  currencies,
  requestCategoryNames,
  retirementStatuses,
  roles,
  statusFilters,
} from '../enums.ts';
import { nonNegativeAmount } from '../money.ts';
import { reviewerHierarchy } from '../requests.ts';
import { isoDateTime, pageQuery, storableText, uuidInput } from './common.ts';

/** `POST retirement/attach-retirement`: `id` is the request's id (decisions §8). */
export const attachRetirementRequest = z.object({
  id: uuidInput('id must be the UUID of the request'),
});
export type AttachRetirementRequest = z.infer<typeof attachRetirementRequest>;

/** A stored file name as returned by the upload (random prefix + sanitised name). */
const storedFileName = storableText().trim().min(1).max(300);

const commentsText = storableText()
  .trim()
  .max(5000)
  .nullish()
  .transform((value) => value ?? '');

/**
 * `POST retirement/user-submit` (spec §7, decisions §5): `id` names the retirement; the owner
 * reports what was spent, in the request's currency, with optional receipts.
 */
export const submitRetirementRequest = z.object({
  id: uuidInput('id must be the UUID of the retirement'),
  amount_spent: nonNegativeAmount,
  amount_currency: z.enum(currencies, { message: 'amount_currency must be tzs, usd, gbp or chf' }),
  comments: commentsText,
  file_paths: z.array(storedFileName).max(50).default([]),
});
export type SubmitRetirementRequest = z.infer<typeof submitRetirementRequest>;

/** The answers a retirement reviewer can give (spec §4: approved or rejected). */
export const retirementDecisions = ['approved', 'rejected'] as const;
export type RetirementDecision = (typeof retirementDecisions)[number];

/**
 * `POST retirement/review` (spec §7): `id` names the retirement and `review_id` its step. The
 * reviewer's identity comes from the token, so reviewer_title, reviewer_name and reviewer_id are
 * accepted and ignored (decisions §3).
 */
export const reviewRetirementRequest = z.object({
  id: uuidInput('id must be the UUID of the retirement'),
  review_id: uuidInput('review_id must be the UUID of the review'),
  status: z.enum(retirementDecisions, { message: 'status must be approved or rejected' }),
  comments: commentsText,
  is_funds_returned: z
    .boolean({ message: 'is_funds_returned must be true or false' })
    .default(false),
  reviewer_title: z.unknown().optional(),
  reviewer_name: z.unknown().optional(),
  reviewer_id: z.unknown().optional(),
});
export type ReviewRetirementRequest = z.infer<typeof reviewRetirementRequest>;

/** `POST retirement/request-edit`: the owner of a rejected retirement asks to resubmit it. */
export const retirementEditRequest = z.object({
  id: uuidInput('id must be the UUID of the retirement'),
});
export type RetirementEditRequest = z.infer<typeof retirementEditRequest>;

/** `user` for the caller's own retirements (staff mode), otherwise the caller's role (admin mode). */
export const retirementListMode = z.enum(['user', ...roles], {
  message: 'Use user for your own retirements or your role for all retirements',
});

/**
 * `GET retirement/requests` (spec §7: optional search, status, limit, role, page). `limit` is the
 * page size (retirementPageSize by default, spec §9); `per_page` is accepted as its other name.
 */
export const retirementListQuery = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    limit: z.coerce.number().int().min(1).max(maxPageSize).optional(),
    per_page: z.coerce.number().int().min(1).max(maxPageSize).optional(),
    search: storableText().trim().max(200).optional(),
    status: z.enum(statusFilters).default('all'),
    role: retirementListMode.default('user'),
  })
  .transform(({ limit, per_page, ...rest }) => ({
    ...rest,
    per_page: per_page ?? limit ?? retirementPageSize,
  }));
export type RetirementListQuery = z.infer<typeof retirementListQuery>;

/** One step of a retirement's reviewer chain (spec §3 Review). */
export const retirementReviewResponse = z.object({
  id: z.uuid(),
  /** The submission the review belongs to, 1 for the first. */
  round: z.number().int(),
  step: z.number().int(),
  /** 'First Reviewer' … 'Fourth Reviewer'. */
  title: z.string(),
  reviewer_role: z.enum(reviewerHierarchy),
  /** The label of the step's role, e.g. 'Finance Officer'. */
  reviewer_title: z.string(),
  reviewer_name: z.string().nullable(),
  reviewer_id: z.uuid().nullable(),
  comments: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  is_funds_returned: z.boolean(),
  reviewed_at: isoDateTime.nullable(),
});
export type RetirementReviewResponse = z.infer<typeof retirementReviewResponse>;

/** A retirement as lists present it (spec §2 Retirements list). */
export const retirementItemResponse = z.object({
  id: z.uuid(),
  request_id: z.uuid(),
  retirement_owner_id: z.uuid(),
  /** The owner's name (the list's NAME column). */
  name: z.string(),
  purpose: z.enum(requestCategoryNames),
  approval_number: z.string().nullable(),
  budget_code: z.string(),
  status: z.enum(retirementStatuses),
  /** `YYYY-MM-DD`: the later of the expenditure date and the attach date, plus 14 days. */
  due_date: z.string(),
  /** When the owner last submitted it (the list's retirement date), null until then. */
  retirement_date: isoDateTime.nullable(),
  /** The request's approved amount (`amountReceived`, decisions §4); also its amount requested. */
  amount_requested: z.number(),
  amountReceived: z.number(),
  /** Null until the owner submits the amount spent. */
  amount_spent: z.number().nullable(),
  amount_currency: z.enum(currencies),
  /** The same as amount_currency; spec §3 names it `currency` (as budgets have both). */
  currency: z.enum(currencies),
  created_at: isoDateTime,
  modified_at: isoDateTime,
});
export type RetirementItemResponse = z.infer<typeof retirementItemResponse>;

/** A retirement with everything its form shows (spec §2 Retirement form, §3 Retirement). */
export const retirementResponse = retirementItemResponse.extend({
  /** The owner's comments for the reviewers. */
  comments: z.string().nullable(),
  file_paths: z.array(z.string()),
  files: z.array(
    z.object({
      name: z.string(),
      type: z.enum(['image', 'msdoc', 'pdf', 'zip', 'none']),
    }),
  ),
  is_funds_returned: z.boolean(),
  /** Every answered and pending review of every round, round by round, step by step. */
  reviews: z.array(retirementReviewResponse),
});
export type RetirementResponse = z.infer<typeof retirementResponse>;

/**
 * The retirement attached to a request (its `current_retirement`, spec §3): the summary fields of
 * the specification (status, amount_currency, amount_spent, modified_at) and the whole retirement.
 */
export const retirementSummary = retirementResponse;
export type RetirementSummary = RetirementResponse;

export const retirementListResponse = z.object({
  data: z.array(retirementItemResponse),
  /** The same array as `data`. */
  retirements: z.array(retirementItemResponse),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type RetirementListResponse = z.infer<typeof retirementListResponse>;

/**
 * `GET retirement/pending`: a page of the retirements waiting for the caller's review (Home's
 * 'Retirements Pending Your Review'), 10 by default and at most 100 like every list's; no search.
 */
export const pendingRetirementsQuery = pageQuery.pick({ page: true, per_page: true });
export type PendingRetirementsQuery = z.infer<typeof pendingRetirementsQuery>;

/** The page: oldest submission first, `total` every such retirement. */
export const pendingRetirementsResponse = z.object({
  data: z.array(retirementItemResponse),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type PendingRetirementsResponse = z.infer<typeof pendingRetirementsResponse>;

/** `GET retirement/download/{role}?id=`: `role` as in the list, `id` the user the file is named after. */
export const retirementDownloadParams = z.object({ role: retirementListMode });
export const retirementDownloadQuery = z.object({
  id: uuidInput('id must be the UUID of a user'),
});

/** A retirement the owner still has to account for, for their Home (pending or rejected). */
export const outstandingRetirement = z.object({
  id: z.uuid(),
  request_id: z.uuid(),
  purpose: z.enum(requestCategoryNames),
  status: z.enum(retirementStatuses),
  amountReceived: z.number(),
  amount_currency: z.enum(currencies),
  due_date: z.string(),
});
export type OutstandingRetirement = z.infer<typeof outstandingRetirement>;
