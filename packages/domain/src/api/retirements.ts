import { z } from 'zod';
import { currencies, retirementStatuses } from '../enums.ts';
import { isoDateTime } from './common.ts';

/** `POST retirement/attach-retirement`: `id` is the request's id (decisions §8). */
export const attachRetirementRequest = z.object({
  id: z.uuid({ message: 'id must be the UUID of the request' }),
});
export type AttachRetirementRequest = z.infer<typeof attachRetirementRequest>;

/** A retirement as a request shows it (its `current_retirement`, spec §3). */
export const retirementSummary = z.object({
  id: z.uuid(),
  status: z.enum(retirementStatuses),
  amount_currency: z.enum(currencies),
  /** Null until the owner submits the amount spent. */
  amount_spent: z.number().nullable(),
  /** `YYYY-MM-DD`: the later of the expenditure date and the attach date, plus 14 days. */
  due_date: z.string(),
  modified_at: isoDateTime,
});
export type RetirementSummary = z.infer<typeof retirementSummary>;
