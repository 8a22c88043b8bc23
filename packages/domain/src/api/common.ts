import { z } from 'zod';
import { defaultPageSize, maxPageSize } from '../constants.ts';
import { passwordProblem } from '../passwords.ts';

/** Error body of every 4xx/5xx answer (decisions §2). */
export const errorResponse = z.object({
  error: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** `page` from 1 and `per_page` up to 100 (decisions §2); query strings arrive as text. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
  search: z.string().trim().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const idParam = z.object({ id: z.uuid({ message: 'id must be a UUID' }) });

/** A trimmed, case-folded e-mail address. */
export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'Enter a valid e-mail address' }).max(254));

export const isoDateTime = z.string();

/**
 * A new password as the web can check it: the length rule (decisions §8). The server also refuses
 * the 10,000 most common passwords (`passwordProblem` with its list, docs/decisions/0010).
 */
export const newPassword = z.string().superRefine((value, context) => {
  const problem = passwordProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
