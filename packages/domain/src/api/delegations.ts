import { z } from 'zod';
import { delegationStatuses, maxDelegationNoteLength } from '../delegations.ts';
import { roles } from '../enums.ts';
import { isoDateTime, pageQuery, storableText, uuidInput } from './common.ts';

/** A calendar day as `YYYY-MM-DD` (a day in ORG_TIMEZONE). */
const day = (name: string) => z.iso.date({ message: `${name} must be a date as YYYY-MM-DD` });

/**
 * `POST delegations` (issue 15): the caller (or, for the director, `delegator_id`) names a
 * delegate for the days from `starts_on` to `ends_on`, both included. The rules are the server's
 * (docs/decisions/0019).
 */
export const createDelegationRequest = z.object({
  delegate_id: uuidInput('delegate_id must be the UUID of a user'),
  starts_on: day('starts_on'),
  ends_on: day('ends_on'),
  note: storableText()
    .trim()
    .max(maxDelegationNoteLength)
    .nullish()
    .transform((value) => value || null),
  /** Only the director names someone else; the caller by default. */
  delegator_id: uuidInput('delegator_id must be the UUID of a user').optional(),
});
export type CreateDelegationRequest = z.infer<typeof createDelegationRequest>;

/** A person of a delegation. */
export const delegationPerson = z.object({
  id: z.uuid(),
  fullname: z.string(),
  role: z.enum(roles),
});
export type DelegationPerson = z.infer<typeof delegationPerson>;

/** One delegation; `status` is where it stands today in ORG_TIMEZONE. */
export const delegationResponse = z.object({
  id: z.uuid(),
  delegator: delegationPerson,
  delegate: delegationPerson,
  /** `YYYY-MM-DD`, the first day the delegate may act. */
  starts_on: z.string(),
  /** `YYYY-MM-DD`, the last day the delegate may act. */
  ends_on: z.string(),
  note: z.string().nullable(),
  status: z.enum(delegationStatuses),
  created_by: z.object({ id: z.uuid(), fullname: z.string() }),
  created_at: isoDateTime,
  /** When it was ended early, and by whom; null otherwise. */
  ended_at: isoDateTime.nullable(),
  ended_by: z.object({ id: z.uuid(), fullname: z.string() }).nullable(),
});
export type DelegationResponse = z.infer<typeof delegationResponse>;

/** Which delegations a list shows. */
export const delegationFilters = ['all', ...delegationStatuses] as const;
export type DelegationFilter = (typeof delegationFilters)[number];

/**
 * `GET delegations`: the caller's own, as delegator or delegate; every one of the organisation for
 * the director. `page` from 1, `per_page` 10 by default, at most 100.
 */
export const delegationListQuery = pageQuery.pick({ page: true, per_page: true }).extend({
  status: z.enum(delegationFilters).default('all'),
});
export type DelegationListQuery = z.infer<typeof delegationListQuery>;

/** Latest first day first (decisions §2 list shape). */
export const delegationListResponse = z.object({
  data: z.array(delegationResponse),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type DelegationListResponse = z.infer<typeof delegationListResponse>;
