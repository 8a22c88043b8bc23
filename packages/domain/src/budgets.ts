import { z } from 'zod';
import { costCodeMax, costCodeMin } from './constants.ts';
import {
  branchNames,
  budgetCategoryNames,
  currencies,
  departmentLabels,
  departments,
  labelOf,
  type Branch,
  type BudgetCategory,
  type BudgetStatus,
  type Currency,
  type Department,
  type Role,
} from './enums.ts';
import { positiveAmount } from './money.ts';
import { seesAllBudgets } from './permissions.ts';

/** Departments a budget may belong to: every department, or 'all' of them (the default). */
export const budgetDepartments = ['all', ...departments] as const;
export type BudgetDepartment = (typeof budgetDepartments)[number];
export const defaultBudgetDepartment: BudgetDepartment = 'all';

/** A department of a budget in words; budgets also belong to 'all' departments. */
export function budgetDepartmentLabel(department: string): string {
  return department === 'all' ? 'All departments' : labelOf(departmentLabels, department);
}

/**
 * The departments whose budgets a user may list and read (spec §6): `null` means every department;
 * otherwise the user's own department and budgets shared with 'all'.
 */
export function visibleBudgetDepartments(
  role: Role,
  userDepartment: Department,
): BudgetDepartment[] | null {
  return seesAllBudgets(role) ? null : [userDepartment, 'all'];
}

/** Whether a department is among `visible`, as visibleBudgetDepartments answers it (null: all). */
export function isVisibleDepartment(
  visible: readonly string[] | null,
  budgetDepartment: string,
): boolean {
  return visible === null || visible.includes(budgetDepartment);
}

/** Whether a user may see a budget of a department (spec §6, the department rule). */
export function canSeeBudget(
  role: Role,
  userDepartment: Department,
  budgetDepartment: string,
): boolean {
  return isVisibleDepartment(visibleBudgetDepartments(role, userDepartment), budgetDepartment);
}

/** The terms of a budget that decide its code and its money. */
export type BudgetTerms = {
  amount: number;
  currency: Currency;
  category: BudgetCategory;
  branch: Branch;
  costCode: number;
};

/** Fields that may not change once a budget has requests (spec §4: currency, categories, branch, code). */
export const frozenBudgetFields = ['currency', 'category', 'branch', 'costCode'] as const;
export type FrozenBudgetField = (typeof frozenBudgetFields)[number];

/** The frozen fields that an edit changes; an empty list when the edit leaves them alone. */
export function frozenFieldsChanged(
  before: Omit<BudgetTerms, 'amount'>,
  after: Omit<BudgetTerms, 'amount'>,
): FrozenBudgetField[] {
  return frozenBudgetFields.filter((field) => before[field] !== after[field]);
}

/** Whether an edit lowers the amount, which is never allowed (spec §2: amounts may only increase). */
export function isAmountDecrease(before: number, after: number): boolean {
  return after < before;
}

/** Changelog actions: one row for each create, edit, archive, re-activate and delete (spec §3). */
export const budgetChangeActions = ['create', 'edit', 'archive', 'reactivate', 'delete'] as const;
export type BudgetChangeAction = (typeof budgetChangeActions)[number];

/**
 * The changelog action of an edit: a change of status alone is an archive or a re-activation;
 * anything else is an edit. `null` when nothing changed, so no row is written.
 */
export function budgetChangeAction<T extends { current_status: BudgetStatus }>(
  before: T,
  after: T,
): BudgetChangeAction | null {
  const changed = (Object.keys(after) as (keyof T)[]).filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  if (changed.length === 0) return null;
  if (changed.length === 1 && changed[0] === 'current_status') {
    return after.current_status === 'archived' ? 'archive' : 'reactivate';
  }
  return 'edit';
}

/**
 * Whether a budget can fund an amount: it must be active (spec §4: archived codes are not
 * available to new requests), hold something, and hold at least that amount.
 */
export function hasBalance(options: {
  available: number;
  amount?: number;
  status: BudgetStatus;
}): boolean {
  const amount = options.amount ?? 0;
  return options.status === 'active' && options.available > 0 && amount <= options.available;
}

/** Strips what a person types around a number ("500,000,000" → 500000000); spec §5. */
export function parseTypedAmount(text: string): number {
  const digits = text.replace(/[^\d.]/g, '');
  return digits === '' ? Number.NaN : Number(digits);
}

const required = (label: string) => `${label} is required`;

/** The add/edit budget form of spec §5, with the field names and defaults of spec §3. */
export const budgetForm = z.object({
  name: z.string().trim().min(1, required('Name')).max(200),
  amount: z
    .string()
    .trim()
    .min(1, required('Amount'))
    .transform(parseTypedAmount)
    .pipe(positiveAmount),
  department: z.enum(budgetDepartments, { message: 'Choose a department' }),
  currency: z.enum(currencies, { message: required('Currency') }),
  categories: z.enum(budgetCategoryNames, { message: required('Expense category') }),
  branch: z.enum(branchNames, { message: required('Branch') }),
  description: z.string().trim().max(2000).optional(),
  code: z
    .number({ message: required('Code') })
    .int(`Code must be a whole number from ${costCodeMin} to ${costCodeMax}`)
    .min(costCodeMin, `Code must be a number from ${costCodeMin} to ${costCodeMax}`)
    .max(costCodeMax, `Code must be a number from ${costCodeMin} to ${costCodeMax}`),
});
export type BudgetFormInput = z.input<typeof budgetForm>;
export type BudgetForm = z.output<typeof budgetForm>;

/** Defaults of the add-budget form (spec §3): all departments, TZS, a Dar es Salaam branch, operating cost. */
export const budgetFormDefaults = {
  name: '',
  amount: '',
  department: defaultBudgetDepartment,
  currency: 'tzs',
  categories: 'operating cost',
  branch: 'stemParkDar',
  description: '',
} as const satisfies Partial<BudgetFormInput>;
