import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { budgets, requests } from '../../db/schema.ts';

export type BudgetRow = typeof budgets.$inferSelect;

/** Request statuses whose amount is held against a budget (decisions §3). */
export const committingStatuses = ['pending', 'on_progress', 'approved'] as const;

/**
 * The one aggregate behind every committed and available amount: requested amounts of the newest
 * versions that are pending, on_progress or approved (decisions §3), for one budget id or, inside
 * a larger query, for the budget of an outer row. It is an index-only scan of
 * requests_budget_status_idx (budget_id, current_status, amount_requested); rows never travel to
 * Node. Retirements adjust this when that issue lands.
 */
function committedQuery(db: Executor, budgetId: string | AnyPgColumn) {
  return db
    .select({ total: sql<string>`coalesce(sum(${requests.amount_requested}), 0)`.as('total') })
    .from(requests)
    .where(
      and(
        eq(requests.budget_id, budgetId),
        eq(requests.is_latest, true),
        inArray(requests.current_status, [...committingStatuses]),
      ),
    );
}

/** Committed amount of a budget (decisions §3). */
export async function committedAmount(db: Executor, budgetId: string): Promise<number> {
  const [row] = await committedQuery(db, budgetId);
  return Number(row?.total ?? 0);
}

/** The committed amount of the budget in `budgetId` (a column of an outer query), as SQL NUMERIC text. */
export function committedAmountSql(db: Executor, budgetId: AnyPgColumn): SQL<string> {
  return sql<string>`(${committedQuery(db, budgetId)})`;
}

/** Available = amount − committed, rounded to cents so sums of two-decimal amounts show no float dust. */
export function availableOf(amount: number, committed: number): number {
  return Math.round((amount - committed) * 100) / 100;
}

/** Amount, committed and available of a budget. */
export async function budgetBalance(
  db: Executor,
  budget: Pick<BudgetRow, 'id' | 'amount'>,
): Promise<{ amount: number; committed: number; available: number }> {
  const committed = await committedAmount(db, budget.id);
  const amount = Number(budget.amount);
  return { amount, committed, available: availableOf(amount, committed) };
}

/**
 * Locks a budget row of an organisation for the rest of the transaction. Every change that reads
 * the available amount and then commits money against it takes this lock first, so concurrent
 * submissions are serialised per budget and can never over-commit it.
 */
export async function lockBudget(
  tx: Executor,
  options: { organizationId: string; budgetId: string },
): Promise<BudgetRow | undefined> {
  const [row] = await tx
    .select()
    .from(budgets)
    .where(
      and(eq(budgets.id, options.budgetId), eq(budgets.organization_id, options.organizationId)),
    )
    .for('update');
  return row;
}
