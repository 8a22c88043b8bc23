import {
  branches,
  budgetCategories,
  type Branch,
  type BudgetCategory,
} from '@imprest/domain/enums.ts';

/** The code part an expense category adds (spec §3), e.g. 9000. */
export function categoryCode(category: BudgetCategory): number {
  return budgetCategories[category];
}

/** The code part a branch adds (spec §3), shown with three digits, e.g. "000", "100". */
export function branchCode(branch: Branch): string {
  return String(branches[branch]).padStart(3, '0');
}
