import type {
  BudgetChangeResponse,
  BudgetHistoryPoint,
  BudgetRequestResponse,
  BudgetResponse,
  BudgetSnapshot,
} from '@imprest/domain/api/budgets.ts';
import type { BudgetChangeAction, BudgetDepartment } from '@imprest/domain/budgets.ts';
import type {
  Branch,
  BudgetCategory,
  BudgetStatus,
  Currency,
  RequestStatus,
} from '@imprest/domain/enums.ts';
import { toAmount } from '@imprest/domain/money.ts';
import { entityTag } from '../../lib/entity-tag.ts';
import { isoRequired } from '../../lib/time.ts';
import { availableOf, type BudgetRow } from './ledger.ts';
import type {
  BudgetChangeRow,
  BudgetHistoryRow,
  BudgetRequestRow,
  BudgetWithTotals,
} from './queries.ts';

/** What a changelog row keeps of a budget; the same fields the API shows. */
export function budgetSnapshot(row: BudgetRow): BudgetSnapshot {
  return {
    name: row.name,
    description: row.description,
    amount: toAmount(row.amount),
    department: row.department as BudgetDepartment,
    amount_currency: row.currency as Currency,
    code: row.code,
    cost_code: row.cost_code,
    current_status: row.current_status as BudgetStatus,
    meta_data: [row.category as BudgetCategory, row.branch as Branch],
  };
}

/**
 * The version of a budget's terms, the `ETag` of its detail and the `If-Match` of an edit
 * (docs/decisions/0036): only what an edit replaces, so a request moving the balance meanwhile
 * does not refuse an edit.
 */
export function budgetVersion(budget: BudgetSnapshot): string {
  const { name, description, amount, department, amount_currency, code, cost_code } = budget;
  const { current_status, meta_data } = budget;
  return entityTag({
    name,
    description,
    amount,
    department,
    amount_currency,
    code,
    cost_code,
    current_status,
    meta_data,
  });
}

/** Builds the API budget object (spec §3) from a row and its totals. */
export function presentBudget(
  row: BudgetRow & Pick<BudgetWithTotals, 'request_total'>,
): BudgetResponse {
  const snapshot = budgetSnapshot(row);
  const committed = toAmount(row.committed);
  return {
    id: row.id,
    ...snapshot,
    currency: snapshot.amount_currency,
    requests: { total: row.request_total },
    committed,
    available: availableOf(snapshot.amount, committed),
    created_at: isoRequired(row.created_at),
    modified_at: isoRequired(row.modified_at),
  };
}

/** Builds a changelog entry. */
export function presentBudgetChange(row: BudgetChangeRow): BudgetChangeResponse {
  return {
    id: row.id,
    action: row.action as BudgetChangeAction,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    // Written only by recordBudgetChange from budgetSnapshot, so the shape is known.
    before: row.before as BudgetSnapshot | null,
    after: row.after as BudgetSnapshot | null,
    created_at: isoRequired(row.created_at),
  };
}

/** Builds a request line of the budget detail. */
export function presentBudgetRequest(row: BudgetRequestRow): BudgetRequestResponse {
  return {
    id: row.id,
    request_owner_name: row.request_owner_name,
    purpose: row.purpose,
    expenditure_date: row.expenditure_date,
    amount_requested: toAmount(row.amount_requested),
    amount_currency: row.amount_currency as Currency,
    current_status: row.current_status as RequestStatus,
    approval_number: row.approval_number,
  };
}

/**
 * Builds the budget's history (budgetHistory's months, oldest first) with the amount in force at
 * each month's end: the amount the newest change before that end left the budget with, or the
 * budget's amount now when no such change came before it. `changes` is the budget's changelog,
 * newest first, as budgetChangelog reads it; a deletion (no `after`) leaves no amount.
 */
export function presentHistory(
  months: BudgetHistoryRow[],
  changes: BudgetChangeRow[],
  currentAmount: number,
): BudgetHistoryPoint[] {
  const oldestFirst = changes.filter((change) => change.after !== null).reverse();
  let next = 0;
  let amount: number | undefined;
  return months.map((row) => {
    for (; next < oldestFirst.length; next += 1) {
      const change = oldestFirst[next]!;
      if (change.created_at.getTime() >= row.ends_at) break;
      amount = (change.after as BudgetSnapshot).amount;
    }
    return {
      month: row.month,
      amount: amount ?? currentAmount,
      committed: toAmount(row.committed),
      spent: toAmount(row.spent),
    };
  });
}
