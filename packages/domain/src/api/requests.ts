import { z } from 'zod';
import {
  attachmentTypes,
  currencies,
  paymentMethods,
  requestCategories,
  requestCategoryNames,
  requestStatuses,
  roles,
  statusFilters,
  taxModes,
} from '../enums.ts';
import { positiveAmount } from '../money.ts';
import { isExpenditureDateText } from '../requests.ts';
import {
  isoDateTime,
  isStorableText,
  pageQuery,
  storableText,
  unstorableTextMessage,
  uuidInput,
} from './common.ts';
import { outstandingRetirement, retirementSummary } from './retirements.ts';
import { reviewResponse } from './reviews.ts';

/** `YYYY-MM-DD` or a full ISO date-time (decisions §8); "not before today" is checked by the server. */
export const expenditureDate = z
  .string({ message: 'expenditure_date must be a date' })
  .trim()
  .refine(
    isExpenditureDateText,
    'expenditure_date must be a date as YYYY-MM-DD or an ISO date-time',
  );

/** A stored file name as returned by the upload (random prefix + sanitised name). */
const storedFileName = storableText().trim().min(1).max(300);

const optionalText = (max: number) =>
  storableText()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

/**
 * The submit payload of spec §3. The owner's id, name and department come from the token, so
 * request_owner_id, request_owner_name and department are accepted and ignored.
 */
const requestPayload = z.object({
  amount_requested: positiveAmount,
  amount_currency: z.enum(currencies).default('tzs'),
  purpose: z.enum(requestCategoryNames, {
    message: 'purpose must be one of the request categories',
  }),
  /** One of the purpose's modes when it has modes; ignored for purposes without modes. */
  mode_of_service: optionalText(100),
  name_of_establishment: optionalText(200),
  expenditure_date: expenditureDate,
  expenditure_justification: storableText().trim().max(5000).default(''),
  tax_status: z.enum(taxModes).default('taxInclusive'),
  budget_code: z
    .string({ message: 'budget_code is required' })
    .refine(isStorableText, unstorableTextMessage)
    .trim()
    .min(1, 'budget_code is required')
    .max(20),
  payment_mode: z.enum(paymentMethods).default('cash'),
  comments: optionalText(5000),
  file_paths: z.array(storedFileName).max(50).default([]),
  department: z.unknown().optional(),
  request_owner_name: z.unknown().optional(),
  request_owner_id: z.unknown().optional(),
});

type Payload = z.infer<typeof requestPayload>;

function checkPayload(value: Payload, context: z.RefinementCtx): void {
  const modes: readonly string[] = requestCategories[value.purpose].modes;
  if (modes.length > 0 && !modes.includes(value.mode_of_service ?? '')) {
    context.addIssue({
      code: 'custom',
      path: ['mode_of_service'],
      message: `mode_of_service must be one of ${modes.join(', ')} for ${value.purpose}`,
    });
  }
  // Spec §5: an exclusive tax status must be explained in the description.
  if (value.tax_status === 'taxExclusive' && !value.expenditure_justification) {
    context.addIssue({
      code: 'custom',
      path: ['expenditure_justification'],
      message: 'Explain the tax status in the justification when tax is exclusive',
    });
  }
}

function normalisePayload<T extends Payload>(value: T): T {
  const hasModes = requestCategories[value.purpose].modes.length > 0;
  return { ...value, mode_of_service: hasModes ? value.mode_of_service : null };
}

/** `POST requests`: a new request (spec §3, §7). */
export const createRequestRequest = requestPayload
  .extend({ parent_request: z.unknown().optional() })
  .superRefine(checkPayload)
  .transform(normalisePayload);
export type CreateRequestRequest = z.infer<typeof createRequestRequest>;

/** `POST requests/request/request-edit`: the next version of a request returned for edits. */
export const resubmitRequestRequest = requestPayload
  .extend({
    parent_request: uuidInput('parent_request must be the id of the request returned for edits'),
  })
  .superRefine(checkPayload)
  .transform(normalisePayload);
export type ResubmitRequestRequest = z.infer<typeof resubmitRequestRequest>;

export const requestFileResponse = z.object({
  /** The stored name (what `files/presigned-get-url` takes); the first 7 characters are a random prefix. */
  name: z.string(),
  type: z.enum([...(Object.keys(attachmentTypes) as (keyof typeof attachmentTypes)[]), 'none']),
});

/** A request as lists present it. */
export const requestItemResponse = z.object({
  id: z.uuid(),
  /** The id of the first version; every version of one request shares it. */
  chain_id: z.uuid(),
  version: z.number().int(),
  parent_request: z.uuid().nullable(),
  is_latest: z.boolean(),
  request_owner_id: z.uuid(),
  request_owner_name: z.string(),
  department: z.string(),
  purpose: z.enum(requestCategoryNames),
  mode_of_service: z.string().nullable(),
  name_of_establishment: z.string().nullable(),
  /** `YYYY-MM-DD`. */
  expenditure_date: z.string(),
  expenditure_justification: z.string(),
  amount_requested: z.number(),
  amount_currency: z.enum(currencies),
  /** Tzs per unit of amount_currency used at submission. */
  exchange_rate: z.number(),
  /** amount_requested in tzs. */
  amount_base: z.number(),
  budget_code: z.string(),
  budget: z.object({ code: z.string(), name: z.string() }),
  payment_mode: z.enum(paymentMethods),
  tax_status: z.enum(taxModes),
  comments: z.string().nullable(),
  current_status: z.enum(requestStatuses),
  approval_number: z.string().nullable(),
  file_paths: z.array(z.string()),
  files: z.array(requestFileResponse),
  created_at: isoDateTime,
  modified_at: isoDateTime,
});
export type RequestItemResponse = z.infer<typeof requestItemResponse>;

export const versionHistoryEntry = z.object({
  id: z.uuid(),
  version: z.number().int(),
  created_at: isoDateTime,
  current_status: z.enum(requestStatuses),
});
export type VersionHistoryEntry = z.infer<typeof versionHistoryEntry>;

/** The retirement attached to a request (spec §3), or null while it has none. */
export const currentRetirementResponse = retirementSummary.nullable();

/** One request with its reviews and version history (`GET requests/request/{id}`). */
export const requestResponse = requestItemResponse.extend({
  reviews: z.array(reviewResponse),
  /** Every version of the chain, oldest first. */
  version_history: z.array(versionHistoryEntry),
  current_retirement: currentRetirementResponse,
  /**
   * The owner's approved requests whose retirement is not approved yet, in tzs, for the reviewer
   * to weigh.
   */
  owner_unretired_total: z.number(),
  /** The oldest due date (`YYYY-MM-DD`) of the owner's pending or rejected retirements, or null. */
  owner_oldest_due_date: z.string().nullable(),
});
export type RequestResponse = z.infer<typeof requestResponse>;

export const requestIdParam = z.object({ id: uuidInput('id must be a UUID') });

/** `user` for the caller's own requests (staff mode), otherwise the caller's role (admin mode). */
export const requestListMode = z.enum(['user', ...roles], {
  message: 'Use user for your own requests or your role for all requests',
});

export const requestListParams = z.object({
  systemRole: requestListMode,
  userId: uuidInput('userId must be a UUID'),
});

export const requestListQuery = pageQuery.extend({
  status: z.enum(statusFilters).default('all'),
});
export type RequestListQuery = z.infer<typeof requestListQuery>;

export const requestListResponse = z.object({
  data: z.array(requestItemResponse),
  /** The same array as `data` (spec §3: "data (or requests)"). */
  requests: z.array(requestItemResponse),
  page: z.number().int(),
  per_page: z.number().int(),
  /** Every match; for a search, at most searchCountLimit (docs/decisions/0006). */
  total: z.number().int(),
  /** True when a search matched more than `total` requests and stopped counting there. */
  total_capped: z.boolean(),
});
export type RequestListResponse = z.infer<typeof requestListResponse>;

export const pendingListParams = z.object({
  role: z.enum(roles),
  id: uuidInput('id must be a UUID'),
});

/** A page of it like every list's (decisions §2: 10 by default, at most 100); no search. */
export const pendingListQuery = pageQuery.pick({ page: true, per_page: true });

/**
 * A request of a pending list: `delegated_from` names the delegator whose step it is when it waits
 * for the caller only as their delegate (issue 15), null when it waits for the caller's own role.
 */
export const pendingItemResponse = requestItemResponse.extend({
  delegated_from: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type PendingItemResponse = z.infer<typeof pendingItemResponse>;

/** A requests list's shape (spec §3 "List responses": data, page, per_page, total). */
export const pendingListResponse = z.object({
  data: z.array(pendingItemResponse),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type PendingListResponse = z.infer<typeof pendingListResponse>;

/** Home counts (spec §3): `pending` counts requests awaiting approval (pending or on_progress). */
export const summaryResponse = z.object({
  pending: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  pending_retirement: z.number().int(),
  requests: z.number().int(),
  /** The user's pending or rejected retirements, oldest due date first (at most 10). */
  outstanding_retirements: z.array(outstandingRetirement),
});
export type SummaryResponse = z.infer<typeof summaryResponse>;

export const downloadParams = z.object({ system_role: requestListMode });
export const downloadQuery = z.object({ id: uuidInput('id must be the UUID of a user') });
