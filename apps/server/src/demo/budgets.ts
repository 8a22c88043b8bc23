import { budgetCode } from '@imprest/domain/budget-code.ts';
import type { BudgetDepartment } from '@imprest/domain/budgets.ts';
import type { Branch, BudgetCategory, BudgetStatus, Currency } from '@imprest/domain/enums.ts';
import type { Executor } from '../db/client.ts';
import { budgetSnapshot } from '../features/budgets/presenter.ts';
import { insertBudget, recordBudgetChange, updateBudgetRow } from '../features/budgets/queries.ts';
import { findUserById } from '../features/users/queries.ts';

type DemoBudget = {
  category: BudgetCategory;
  branch: Branch;
  costCode: number;
  name: string;
  description: string;
  amount: number;
  currency: Currency;
  department: BudgetDepartment;
  status: BudgetStatus;
};

/** Four active budgets and one archived one (decisions §1: "a few active budgets"). */
export const demoBudgets: DemoBudget[] = [
  {
    category: 'operating cost',
    branch: 'stemParkDar',
    costCode: 5,
    name: 'Dar park operations',
    description: 'Running costs of the Dar es Salaam stem park. Source of funds: core grant.',
    amount: 500_000_000,
    currency: 'tzs',
    department: 'all',
    status: 'active',
  },
  {
    category: 'marketing and advertisements',
    branch: 'hq',
    costCode: 1,
    name: 'Marketing and outreach campaigns',
    description: 'Radio spots, banners and social media for the year.',
    amount: 80_000_000,
    currency: 'tzs',
    department: 'marketing',
    status: 'active',
  },
  {
    category: 'stem kits',
    branch: 'stemParkTanga',
    costCode: 1,
    name: 'Tanga kits',
    description: 'Science kits for partner schools around Tanga. Donor funds, kept in USD.',
    amount: 20_000,
    currency: 'usd',
    department: 'stemKits',
    status: 'active',
  },
  {
    category: 'administrational cost',
    branch: 'hq',
    costCode: 1,
    name: 'Head office administration',
    description: 'Rent, utilities and office supplies of the head office.',
    amount: 300_000_000,
    currency: 'tzs',
    department: 'all',
    status: 'active',
  },
  {
    category: 'youth boot camps',
    branch: 'hq',
    costCode: 24,
    name: 'Youth bootcamp 2024',
    description: 'Closed at the end of the 2024 bootcamp season.',
    amount: 45_000_000,
    currency: 'tzs',
    department: 'youthBootcamps',
    status: 'archived',
  },
];

/**
 * Inserts the demo budgets inside the caller's transaction, each with its create changelog row and
 * the archived one with its archive row, all by `createdBy` (the demo finance officer).
 */
export async function seedDemoBudgets(
  tx: Executor,
  options: { organizationId: string; createdBy: string },
): Promise<void> {
  const creator = await findUserById(tx, options.createdBy);
  if (!creator) throw new Error('demo budget creator not found');
  for (const budget of demoBudgets) {
    // Created active, then archived, so the changelog tells the same story as a real budget's.
    const row = await insertBudget(tx, {
      organization_id: options.organizationId,
      code: budgetCode(budget),
      cost_code: budget.costCode,
      name: budget.name,
      description: budget.description,
      amount: budget.amount.toFixed(2),
      department: budget.department,
      currency: budget.currency,
      category: budget.category,
      branch: budget.branch,
      current_status: 'active',
      created_by: creator.id,
    });
    const change = {
      organizationId: options.organizationId,
      budgetId: row.id,
      code: row.code,
      actor: creator,
    };
    await recordBudgetChange(tx, {
      ...change,
      action: 'create',
      before: null,
      after: budgetSnapshot(row),
    });
    if (budget.status === 'archived') {
      const archived = await updateBudgetRow(tx, row.id, { current_status: 'archived' });
      await recordBudgetChange(tx, {
        ...change,
        action: 'archive',
        before: budgetSnapshot(row),
        after: budgetSnapshot(archived),
      });
    }
  }
}
