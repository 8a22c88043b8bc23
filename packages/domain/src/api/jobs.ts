import { z } from 'zod';
import { isCalendarDayText } from './common.ts';

const dayText = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `POST jobs/lock-overdue` (decisions §5): run the lock job now. `as_of` (`YYYY-MM-DD`) runs it as if
 * it were that day, and is accepted only in demo mode.
 */
export const lockOverdueRequest = z
  .object({
    as_of: z
      .string()
      .regex(dayText, 'as_of must be a date as YYYY-MM-DD')
      .refine(isCalendarDayText, 'as_of must be a real calendar date')
      .optional(),
  })
  // A call without a body (Fastify hands the schema null) runs as of today.
  .nullish()
  .transform((body) => body ?? {});
export type LockOverdueRequest = z.infer<typeof lockOverdueRequest>;

const lockedUser = z.object({ user_id: z.uuid(), fullname: z.string() });

export const lockOverdueResponse = z.object({
  /** The day the job judged by (`YYYY-MM-DD`, in ORG_TIMEZONE). */
  as_of: z.string(),
  /** Users this run locked. */
  locked: z.array(lockedUser),
  /** Users this run unlocked (locks the job had set, once nothing is overdue). */
  unlocked: z.array(lockedUser),
});
export type LockOverdueResponse = z.infer<typeof lockOverdueResponse>;
