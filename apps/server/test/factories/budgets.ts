import { budgetCode } from '@imprest/domain/budget-code.ts';
import {
  branchNames,
  budgetCategoryNames,
  type Branch,
  type BudgetCategory,
  type Currency,
} from '@imprest/domain/enums.ts';
import type { Executor } from '../../src/db/client.ts';
import { budgets } from '../../src/db/schema.ts';
import type { BudgetRow } from '../../src/features/budgets/ledger.ts';

let counter = 0;

/** A distinct category, branch and cost code per call, so default codes never collide in one file. */
function nextCodeParts(): { category: BudgetCategory; branch: Branch; costCode: number } {
  const n = counter;
  counter += 1;
  const costCode = (n % 99) + 1;
  const branch = branchNames[Math.floor(n / 99) % branchNames.length] ?? 'hq';
  const category =
    budgetCategoryNames[Math.floor(n / (99 * branchNames.length)) % budgetCategoryNames.length] ??
    'unicef';
  return { category, branch, costCode };
}

/** Inserts a budget row directly (the budgets API is another feature's). */
export async function buildBudget(
  db: Executor,
  options: {
    organizationId: string;
    code?: string;
    amount?: number | string;
    currency?: Currency;
    status?: 'active' | 'archived';
    name?: string;
    department?: string;
  },
): Promise<BudgetRow> {
  const parts = nextCodeParts();
  const [row] = await db
    .insert(budgets)
    .values({
      organization_id: options.organizationId,
      code: options.code ?? budgetCode(parts),
      cost_code: parts.costCode,
      name: options.name ?? `Budget ${parts.costCode}`,
      amount: String(options.amount ?? 1_000_000),
      department: options.department ?? 'all',
      currency: options.currency ?? 'tzs',
      category: parts.category,
      branch: parts.branch,
      current_status: options.status ?? 'active',
    })
    .returning();
  if (!row) throw new Error('no budget');
  return row;
}
