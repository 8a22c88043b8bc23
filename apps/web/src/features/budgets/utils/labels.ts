import type { BudgetDepartment } from '@imprest/domain/budgets.ts';
import {
  branches,
  budgetCategories,
  type Branch,
  type BudgetCategory,
  type BudgetStatus,
} from '@imprest/domain/enums.ts';
import { departmentLabel } from '../../../lib/request-labels.ts';

/** Branches in words; the stored names stay those of spec §3. */
export const branchLabels: Record<Branch, string> = {
  hq: 'HQ',
  stemParkDar: 'Stem Park Dar es Salaam',
  stemParkTanga: 'Stem Park Tanga',
};

export const budgetStatusLabels: Record<BudgetStatus, string> = {
  active: 'Active',
  archived: 'Archived',
};

/** An expense category in words: 'youth boot camps' → 'Youth boot camps'. */
export function categoryLabel(category: BudgetCategory): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}

/** A department of a budget in words; budgets also belong to 'all' departments. */
export function budgetDepartmentLabel(department: BudgetDepartment): string {
  return department === 'all' ? 'All departments' : departmentLabel(department);
}

/** The code part an expense category adds (spec §3), e.g. 9000. */
export function categoryCode(category: BudgetCategory): number {
  return budgetCategories[category];
}

/** The code part a branch adds (spec §3), shown with three digits, e.g. "000", "100". */
export function branchCode(branch: Branch): string {
  return String(branches[branch]).padStart(3, '0');
}
