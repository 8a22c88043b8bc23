import { z } from 'zod';
import { storableText } from './common.ts';
import { approvalMatrixProblem } from '../approval-matrix.ts';
import { amountTooLarge, hasCents, maxAmount } from '../money.ts';
import { roleLabels } from '../enums.ts';
import { maxReviewers, reviewerHierarchy, reviewerRank } from '../requests.ts';

/** A start or end amount in tzs: whole cents up to the money cap (docs/decisions/0013). */
const matrixAmount = z
  .number({ message: 'Amounts must be numbers' })
  .min(0, 'Amounts must not be negative')
  .max(maxAmount, amountTooLarge)
  .refine(hasCents, 'Amounts may have at most two decimals');

const userRoles = z
  .array(
    z.enum(reviewerHierarchy, {
      message: `Reviewer roles must be one of ${reviewerHierarchy.join(', ')}`,
    }),
  )
  .min(1, 'Each row needs at least one reviewer role')
  .max(maxReviewers, `Each row has at most ${maxReviewers} reviewer roles`)
  .refine(
    (list) => new Set(list).size === list.length,
    'A reviewer role may appear only once in a row',
  )
  // Spec §4: reviewers are ordered by the fixed hierarchy, the lowest rank reviewing first.
  .refine(
    (list) =>
      list.every(
        (role, index) => index === 0 || reviewerRank(list[index - 1]!) < reviewerRank(role),
      ),
    `Reviewer roles follow the hierarchy: ${reviewerHierarchy.map((role) => roleLabels[role]).join(', ')}`,
  );

/** One row as `PUT approval-matrix` takes it. */
export const approvalMatrixRowInput = z.object({
  start_value: matrixAmount,
  /** Null (or absent) means no upper bound. */
  end_value: matrixAmount.nullish().transform((value) => value ?? null),
  description: storableText().trim().max(200).default(''),
  user_role: userRoles,
  cascading_notification: z.boolean().default(false),
});

/** `PUT approval-matrix` (decisions §5): the rows replace the matrix; they must cover [0, ∞) once. */
export const updateApprovalMatrixRequest = z
  .object({ rows: z.array(approvalMatrixRowInput).max(50) })
  .superRefine((value, context) => {
    const problem = approvalMatrixProblem(value.rows);
    if (problem) context.addIssue({ code: 'custom', path: ['rows'], message: problem });
  });
export type UpdateApprovalMatrixRequest = z.infer<typeof updateApprovalMatrixRequest>;

export const approvalMatrixRowResponse = z.object({
  /** Null for the rows of the default matrix, which is not stored. */
  id: z.uuid().nullable(),
  start_value: z.number(),
  end_value: z.number().nullable(),
  description: z.string(),
  user_role: z.array(z.enum(reviewerHierarchy)),
  cascading_notification: z.boolean(),
});
export type ApprovalMatrixRowResponse = z.infer<typeof approvalMatrixRowResponse>;

/** `GET approval-matrix`: rows by start amount; `is_default` while the organisation has saved none. */
export const approvalMatrixResponse = z.object({
  rows: z.array(approvalMatrixRowResponse),
  is_default: z.boolean(),
});
export type ApprovalMatrixResponse = z.infer<typeof approvalMatrixResponse>;

/**
 * `GET approval-matrix/vacancies` (admins): the reviewer positions of the matrix in force that no
 * user of the organisation can answer (none holds the position, or every holder is locked), in the
 * hierarchy's order. A request reaching such a step waits there until someone is given it.
 */
export const approvalMatrixVacanciesResponse = z.object({
  roles: z.array(z.enum(reviewerHierarchy)),
});
export type ApprovalMatrixVacanciesResponse = z.infer<typeof approvalMatrixVacanciesResponse>;
