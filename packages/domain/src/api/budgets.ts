import { z } from 'zod';
import {
  budgetChangeActions,
  budgetDepartments,
  defaultBudgetDepartment,
  type BudgetForm,
} from '../budgets.ts';
import { costCodeMax, costCodeMin } from '../constants.ts';
import {
  branchNames,
  budgetCategoryNames,
  budgetStatuses,
  currencies,
  requestStatuses,
} from '../enums.ts';
import { amountTooLarge, hasCents, maxAmount, positiveAmount } from '../money.ts';
import { isoDateTime, pageQuery, storableText, uuidInput } from './common.ts';

const costCodeMessage = `The cost code must be a whole number from ${costCodeMin} to ${costCodeMax}`;

/** The cost code as entered (spec §5: a number from 1 to 99); the server builds the budget code. */
export const costCode = z
  .number({ message: costCodeMessage })
  .int(costCodeMessage)
  .min(costCodeMin, costCodeMessage)
  .max(costCodeMax, costCodeMessage);

/** `meta_data`: the expense category first, the branch second (decisions §8). */
export const budgetMetaData = z.tuple(
  [
    z.enum(budgetCategoryNames, {
      message: `Unknown expense category; choose one of: ${budgetCategoryNames.join(', ')}`,
    }),
    z.enum(branchNames, { message: `Unknown branch; choose one of: ${branchNames.join(', ')}` }),
  ],
  { message: 'meta_data must be [expense category, branch]' },
);

const budgetDepartment = z.enum(budgetDepartments, {
  message: `Unknown department; choose 'all' or one of the departments`,
});
const budgetCurrency = z.enum(currencies, {
  message: `Unknown currency; choose one of: ${currencies.join(', ')}`,
});
const budgetName = storableText().trim().min(1, 'Name is required').max(200, 'Name is too long');
/** Optional free text (spec §5); the server stores an empty description as none. */
const budgetDescription = storableText().trim().max(2000, 'Description is too long').nullish();

/** `POST budget` (spec §7). */
export const createBudgetRequest = z.object({
  name: budgetName,
  description: budgetDescription,
  amount: positiveAmount,
  department: budgetDepartment.default(defaultBudgetDepartment),
  amount_currency: budgetCurrency,
  code: costCode,
  meta_data: budgetMetaData,
});
export type CreateBudgetRequest = z.infer<typeof createBudgetRequest>;

/** The fields an edit must carry; department and description keep their value when left out. */
const requiredEditFields = ['name', 'amount', 'amount_currency', 'code', 'meta_data'] as const;
const editFields = [...requiredEditFields, 'department', 'description'] as const;

/**
 * `PUT budget` (spec §7): either `{id, current_status}` to archive or re-activate, or the id with
 * the fields of `POST budget` to edit (an edit may carry current_status too). One object rather
 * than a union, so a bad field gets its own message instead of "Invalid input".
 */
export const updateBudgetRequest = z
  .object({
    id: uuidInput('id must be a UUID'),
    current_status: z
      .enum(budgetStatuses, { message: "current_status is 'active' or 'archived'" })
      .optional(),
    name: budgetName.optional(),
    description: budgetDescription,
    amount: positiveAmount.optional(),
    department: budgetDepartment.optional(),
    amount_currency: budgetCurrency.optional(),
    code: costCode.optional(),
    meta_data: budgetMetaData.optional(),
  })
  .superRefine((value, context) => {
    const isStatusChange = editFields.every((field) => value[field] === undefined);
    if (isStatusChange) {
      if (value.current_status === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['current_status'],
          message: 'Send current_status to archive or re-activate, or the budget fields to edit',
        });
      }
      return;
    }
    for (const field of requiredEditFields) {
      if (value[field] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} is required to edit a budget`,
        });
      }
    }
  });
export type UpdateBudgetRequest = z.infer<typeof updateBudgetRequest>;

/** The fields of an edit, once the schema has checked they are all there. */
export type BudgetEdit = Omit<CreateBudgetRequest, 'department' | 'description'> &
  Partial<Pick<CreateBudgetRequest, 'department' | 'description'>>;

/** The edit an update carries, or null for an archive / re-activate (`{id, current_status}` only). */
export function budgetEditOf(update: UpdateBudgetRequest): BudgetEdit | null {
  const { name, amount, amount_currency, code, meta_data } = update;
  if (name === undefined || amount === undefined || amount_currency === undefined) return null;
  if (code === undefined || meta_data === undefined) return null;
  return {
    name,
    amount,
    amount_currency,
    code,
    meta_data,
    ...(update.department === undefined ? {} : { department: update.department }),
    ...(update.description === undefined ? {} : { description: update.description }),
  };
}

/** `POST budget/remove` (spec §7). */
export const removeBudgetRequest = z.object({ id: uuidInput('id must be a UUID') });
export type RemoveBudgetRequest = z.infer<typeof removeBudgetRequest>;

/** `GET budget` query: page, per_page, search (name or code) and department. */
export const budgetListQuery = pageQuery.extend({ department: budgetDepartment.optional() });
export type BudgetListQuery = z.infer<typeof budgetListQuery>;

/** A budget code in a path (decisions §8: the code string, e.g. "6105"). */
export const budgetCodeParam = z.object({ code: storableText().trim().min(1).max(20) });

/** `GET budget/{code}/balance?amount=`; the amount is optional while the form is still empty. */
export const balanceQuery = z.object({
  // Decimal digits only: a number's other spellings (0x10, 1e3, an empty text read as 0) are not
  // amounts anyone typed.
  amount: z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/, 'amount must be a number')
    .transform(Number)
    .pipe(
      z
        .number()
        .nonnegative('amount must not be negative')
        .max(maxAmount, amountTooLarge)
        .refine(hasCents, 'Amount may have at most two decimals'),
    )
    .optional(),
});
export type BalanceQuery = z.infer<typeof balanceQuery>;

/** A budget as every API answer presents it (spec §3); amounts are JSON numbers. */
export const budgetResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  amount: z.number(),
  department: z.enum(budgetDepartments),
  amount_currency: z.enum(currencies),
  /** The same as amount_currency; spec §3 names it both ways. */
  currency: z.enum(currencies),
  code: z.string(),
  cost_code: z.number().int(),
  current_status: z.enum(budgetStatuses),
  meta_data: z.tuple([z.enum(budgetCategoryNames), z.enum(branchNames)]),
  requests: z.object({ total: z.number().int() }),
  committed: z.number(),
  available: z.number(),
  created_at: isoDateTime,
  modified_at: isoDateTime,
});
export type BudgetResponse = z.infer<typeof budgetResponse>;

/** What a changelog row records of a budget before and after a change. */
export const budgetSnapshot = budgetResponse.pick({
  name: true,
  description: true,
  amount: true,
  department: true,
  amount_currency: true,
  code: true,
  cost_code: true,
  current_status: true,
  meta_data: true,
});
export type BudgetSnapshot = z.infer<typeof budgetSnapshot>;

/** One changelog row: who, when, before → after (spec §3: every modification). */
export const budgetChangeResponse = z.object({
  id: z.number().int(),
  action: z.enum(budgetChangeActions),
  actor_id: z.uuid().nullable(),
  actor_name: z.string(),
  before: budgetSnapshot.nullable(),
  after: budgetSnapshot.nullable(),
  created_at: isoDateTime,
});
export type BudgetChangeResponse = z.infer<typeof budgetChangeResponse>;

/** A request as the budget detail and its download list it. */
export const budgetRequestResponse = z.object({
  id: z.uuid(),
  request_owner_name: z.string(),
  purpose: z.string(),
  expenditure_date: z.string(),
  amount_requested: z.number(),
  amount_currency: z.enum(currencies),
  current_status: z.enum(requestStatuses),
  approval_number: z.string().nullable(),
});
export type BudgetRequestResponse = z.infer<typeof budgetRequestResponse>;

/**
 * One month of a budget's history: the amount in force at the month's end, and the requests
 * raised up to then that are committed (pending, on_progress, approved) and spent (approved).
 */
export const budgetHistoryPoint = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  amount: z.number(),
  committed: z.number(),
  spent: z.number(),
});
export type BudgetHistoryPoint = z.infer<typeof budgetHistoryPoint>;

/** Most recent requests the detail lists; the download has them all. */
export const budgetDetailRequestLimit = 50;

/** `GET budget/{code}`: `{data: budget}` with its newest requests, changelog and monthly history. */
export const budgetDetailResponse = z.object({
  data: budgetResponse.extend({
    requests: z.object({ total: z.number().int(), data: z.array(budgetRequestResponse) }),
    /**
     * Whether the budget has had requests (spec §4's prior requests): one counted in
     * `requests.total`, or an earlier version of a request later resubmitted on another budget.
     * Its currency, categories, branch and code are then frozen, and it cannot be deleted.
     */
    has_prior_requests: z.boolean(),
    changelog: z.array(budgetChangeResponse),
    history: z.array(budgetHistoryPoint),
  }),
});
export type BudgetDetailResponse = z.infer<typeof budgetDetailResponse>;

/** `GET budget` (spec §3 list shape). */
export const budgetListResponse = z.object({
  budget_codes: z.array(budgetResponse),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
});
export type BudgetListResponse = z.infer<typeof budgetListResponse>;

/** Most codes one lookup of `GET budget/codes` answers with. */
export const maxBudgetCodeLookup = 100;

/**
 * `GET budget/codes?search=&limit=`: without either, every active code (spec §7). `search` keeps
 * the codes whose code or name contains it, codes starting with it first; `limit` caps the answer,
 * so the request form asks for the few codes matching what is typed, not all of them.
 */
export const budgetCodesQuery = z.object({
  search: storableText().trim().max(200).optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(maxBudgetCodeLookup, `limit must be at most ${maxBudgetCodeLookup}`)
    .optional(),
});
export type BudgetCodesQuery = z.infer<typeof budgetCodesQuery>;

/** `GET budget/codes`: active codes, for the request form's budget-code field. */
export const budgetCodesResponse = z.object({
  budget_codes: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      currency: z.enum(currencies),
      has_balance: z.boolean(),
      available: z.number(),
    }),
  ),
});
export type BudgetCodesResponse = z.infer<typeof budgetCodesResponse>;

/**
 * `GET budget/{code}/balance`: `total` is the budget's committed amount (decisions §8), so that
 * Remaining Balance = amount − total (spec §2); `amount` and `available` spare the reader that sum.
 */
export const balanceResponse = z.object({
  has_balance: z.boolean(),
  currency: z.enum(currencies),
  total: z.number(),
  amount: z.number(),
  available: z.number(),
});
export type BalanceResponse = z.infer<typeof balanceResponse>;

/** Answer of a create or an edit: the budget, with the code the server computed. */
export const budgetMutationResponse = z.object({ data: budgetResponse });
export type BudgetMutationResponse = z.infer<typeof budgetMutationResponse>;

/** Answer of `POST budget/remove`. */
export const removeBudgetResponse = z.object({ id: z.uuid(), code: z.string() });
export type RemoveBudgetResponse = z.infer<typeof removeBudgetResponse>;

/** The payload of `POST budget` / `PUT budget` built from the validated form (spec §3 → §7). */
export function budgetPayload(form: BudgetForm): CreateBudgetRequest {
  return {
    name: form.name,
    description: form.description || null,
    amount: form.amount,
    department: form.department,
    amount_currency: form.currency,
    code: form.code,
    meta_data: [form.categories, form.branch],
  };
}
