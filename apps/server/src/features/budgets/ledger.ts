import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { budgets, requests } from '../../db/schema.ts';

export type BudgetRow = typeof budgets.$inferSelect;

/** Request statuses whose amount is held against a budget (decisions §3). */
export const committingStatuses = ['pending', 'on_progress', 'approved'] as const;

/**
 * Committed amount of a budget: requested amounts of the newest versions that are pending,
 * on_progress or approved (decisions §3). One indexed aggregate (requests_budget_status_idx);
 * rows never travel to Node. Retirements adjust this when that issue lands.
 */
export async function committedAmount(db: Executor, budgetId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${requests.amount_requested}), 0)` })
    .from(requests)
    .where(and(eq(requests.budget_id, budgetId), eq(requests.is_latest, true), inArray(requests.current_status, [...committingStatuses])));
  return Number(row?.total ?? 0);
}

/** Amount, committed and available of a budget. */
export async function budgetBalance(db: Executor, budget: Pick<BudgetRow, 'id' | 'amount'>): Promise<{ amount: number; committed: number; available: number }> {
  const committed = await committedAmount(db, budget.id);
  const amount = Number(budget.amount);
  // Round to cents so sums of two-decimal amounts never show float dust.
  return { amount, committed, available: Math.round((amount - committed) * 100) / 100 };
}

/**
 * Locks a budget row of an organisation for the rest of the transaction. Every change that reads
 * the available amount and then commits money against it takes this lock first, so concurrent
 * submissions are serialised per budget and can never over-commit it.
 */
export async function lockBudget(tx: Executor, options: { organizationId: string; budgetId: string }): Promise<BudgetRow | undefined> {
  const [row] = await tx
    .select()
    .from(budgets)
    .where(and(eq(budgets.id, options.budgetId), eq(budgets.organization_id, options.organizationId)))
    .for('update');
  return row;
}
