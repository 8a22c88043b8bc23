import { z } from 'zod';
import { auditActions, auditObjectTypes } from '../audit.ts';
import { isCalendarDayText, isoDateTime, isUuid, storableText, uuidInput } from './common.ts';

/** Events a page of the audit trail holds by default, and at most. */
export const auditPageSize = 50;
export const maxAuditPageSize = 200;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' })
  .refine(isCalendarDayText, { message: 'must be a real date' });

/** Keyset paging: the previous page's `next_cursor`, and a page size. */
const pageFields = {
  cursor: z
    .string()
    .max(200)
    .regex(/^[\w-]+$/, { message: 'cursor must be the next_cursor of a previous page' })
    .optional(),
  per_page: z.coerce.number().int().min(1).max(maxAuditPageSize).default(auditPageSize),
};

const auditFilters = {
  actor_id: uuidInput('actor_id must be a UUID').optional(),
  action: z
    .enum(auditActions, { message: 'action is not an action of the audit trail' })
    .optional(),
  object_type: z
    .enum(auditObjectTypes, { message: 'object_type is not a kind of object of the audit trail' })
    .optional(),
  // The trail keeps ids of rows in lower case; other object ids (a setting's) as they are.
  object_id: storableText()
    .trim()
    .min(1)
    .max(100)
    .transform((id) => (isUuid(id) ? id.toLowerCase() : id))
    .optional(),
  from: day.optional(),
  to: day.optional(),
};

function checkRange(query: { from?: string; to?: string }, context: z.RefinementCtx): void {
  if (query.from && query.to && query.from > query.to)
    context.addIssue({ code: 'custom', message: 'from must not be after to', path: ['from'] });
}

/**
 * `GET audit` (director; issue 15): filters, newest first, keyset pagination through the opaque
 * `cursor` of the previous page. `from` and `to` are days in ORG_TIMEZONE, both included.
 */
export const auditQuery = z.object({ ...auditFilters, ...pageFields }).superRefine(checkRange);
export type AuditQuery = z.infer<typeof auditQuery>;

/** The download takes the same filters, without paging. */
export const auditDownloadQuery = z.object(auditFilters).superRefine(checkRange);
export type AuditDownloadQuery = z.infer<typeof auditDownloadQuery>;

export const auditEventResponse = z.object({
  id: z.number().int(),
  at: isoDateTime,
  actor_id: z.uuid().nullable(),
  actor_name: z.string(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string().nullable(),
  /**
   * What names the object's page when its id does not: a retirement's request id (the retirement
   * is shown on its request's page), a budget's code; null for other objects and deleted ones.
   */
  object_key: z.string().nullable(),
  /** Before → after of the fields that changed: `{field: {from?, to?}}`. */
  changes: z
    .record(z.string(), z.object({ from: z.unknown().optional(), to: z.unknown().optional() }))
    .nullable(),
  request_id: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEventResponse = z.infer<typeof auditEventResponse>;

export const auditPageResponse = z.object({
  events: z.array(auditEventResponse),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AuditPageResponse = z.infer<typeof auditPageResponse>;

/** `GET audit/history/{object_type}/{object_id}`: one object's own history, for whoever may read it. */
export const auditHistoryParams = z.object({
  object_type: z.enum(['request', 'budget', 'user'], {
    message: 'object_type must be request, budget or user',
  }),
  // The trail stores ids as text in lower case: an upper-case id reads the same history.
  object_id: uuidInput('object_id must be a UUID'),
});
export type AuditHistoryParams = z.infer<typeof auditHistoryParams>;

export const auditHistoryQuery = z.object(pageFields);
export type AuditHistoryQuery = z.infer<typeof auditHistoryQuery>;
