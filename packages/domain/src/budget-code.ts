import { branches, budgetCategories, type Branch, type BudgetCategory } from './enums.ts';
import { costCodeMax, costCodeMin } from './constants.ts';

/** Whether a cost code is a whole number from 1 to 99 (spec §5). */
export function isCostCode(value: number): boolean {
  return Number.isInteger(value) && value >= costCodeMin && value <= costCodeMax;
}

/**
 * The budget code string: category code + branch code + cost code (spec §3),
 * e.g. operating cost 6000 + stemParkDar 100 + 5 → "6105".
 */
export function budgetCode(options: {
  category: BudgetCategory;
  branch: Branch;
  costCode: number;
}): string {
  if (!isCostCode(options.costCode))
    throw new RangeError(`cost code must be ${costCodeMin}–${costCodeMax}`);
  return String(budgetCategories[options.category] + branches[options.branch] + options.costCode);
}

/**
 * Whether typed text could be the start of a budget code. A code is a sum of numbers, so it is
 * digits only: the codes lookup reads codes starting with the text only when this holds.
 */
export function couldStartBudgetCode(text: string): boolean {
  return /^\d+$/.test(text);
}
