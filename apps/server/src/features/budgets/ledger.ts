import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { budgets } from '../../db/schema.ts';

export type BudgetRow = typeof budgets.$inferSelect;

/** Request statuses whose amount is held against a budget (decisions §3). */
export const committingStatuses = ['pending', 'on_progress', 'approved'] as const;

/**
 * Committed amount of a budget (decisions §3): the figure kept on the budget row by the ledger
 * triggers of migration 0008, read by primary key, so it costs the same whatever the number of
 * requests behind the budget (docs/decisions/0008).
 */
export async function committedAmount(db: Executor, budgetId: string): Promise<number> {
  const [row] = await db
    .select({ committed: budgets.committed })
    .from(budgets)
    .where(eq(budgets.id, budgetId));
  return Number(row?.committed ?? 0);
}

/** The committed amount recomputed from the request and retirement rows, for tests and checks. */
export async function recomputedCommittedAmount(db: Executor, budgetId: string): Promise<number> {
  const result = await db.execute<{ total: string }>(
    sql`SELECT budget_committed_recomputed(${budgetId}::uuid) AS total`,
  );
  return Number(result.rows[0]?.total ?? 0);
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
 * Whether a budget's available amount (amount − committed) covers an amount, decided in SQL
 * numeric on the stored figures, never on doubles (docs/decisions/0013). The amount goes as the
 * text of a two-decimal amount within `maxAmount` (`toFixed(2)`, exact). Read with the budget's row,
 * so the check costs no statement of its own (issue 13).
 */
const coversSql = sql<boolean>`${budgets.amount} - ${budgets.committed} >= ${sql.placeholder('amount')}::numeric`;

/** A budget's columns and whether it covers the `amount` placeholder. */
export const budgetWithRoomColumns = { ...getTableColumns(budgets), has_room: coversSql };

/** A budget row and whether it covers an amount, as of the statement that read it. */
export type BudgetWithRoom = BudgetRow & { has_room: boolean };

/**
 * The statements of lockBudget and lockBudgetWithRoom, prepared under names (issue 13): every
 * submission of a request sends the second, and PostgreSQL planned it afresh on every call
 * (decision 0026). A submission locks its budget by code, so the lock can go out with the read of
 * its terms instead of waiting for that read's id (requests/service.ts).
 */
const lockedBudgetBy = (name: string, key: SQL) =>
  preparedOnce((db: Executor) =>
    db
      .select(budgetWithRoomColumns)
      .from(budgets)
      .where(and(eq(budgets.organization_id, sql.placeholder('organizationId')), key))
      .for('update')
      .prepare(name),
  );

const lockBudgetQuery = lockedBudgetBy('lock_budget', eq(budgets.id, sql.placeholder('budgetId')));
const lockBudgetByCodeQuery = lockedBudgetBy(
  'lock_budget_by_code',
  eq(budgets.code, sql.placeholder('code')),
);

/**
 * Locks a budget row of an organisation for the rest of the transaction. Every change that reads
 * the available amount and then commits money against it takes this lock first, so concurrent
 * submissions are serialised per budget and can never over-commit it.
 */
export async function lockBudget(
  tx: Executor,
  options: { organizationId: string; budgetId: string },
): Promise<BudgetRow | undefined> {
  const [row] = await lockBudgetQuery(tx).execute({ ...options, amount: '0.00' });
  return row;
}

/**
 * lockBudget by the budget's code, and whether the locked row covers `amount`: FOR UPDATE answers
 * the newest committed row once the lock is granted (PostgreSQL re-reads it), so the check sees
 * every commitment made before it and none can be made until this transaction ends.
 */
export async function lockBudgetWithRoom(
  tx: Executor,
  options: { organizationId: string; code: string; amount: number },
): Promise<BudgetWithRoom | undefined> {
  const [row] = await lockBudgetByCodeQuery(tx).execute({
    ...options,
    amount: options.amount.toFixed(2),
  });
  return row;
}
