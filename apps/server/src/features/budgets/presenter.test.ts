import { describe, expect, it } from 'vitest';
import { presentHistory } from './presenter.ts';
import type { BudgetChangeRow, BudgetHistoryRow } from './queries.ts';

const march = Date.UTC(2026, 2, 1) - 3 * 60 * 60 * 1000; // 1 March 00:00 in Dar es Salaam
const april = Date.UTC(2026, 3, 1) - 3 * 60 * 60 * 1000;
const months: BudgetHistoryRow[] = [
  { month: '2026-02', ends_at: march, committed: '100.00', spent: '0' },
  { month: '2026-03', ends_at: april, committed: '150.50', spent: '100.00' },
];

let id = 0;
function change(at: number, amount: number | null): BudgetChangeRow {
  id += 1;
  return {
    id,
    organization_id: 'org',
    budget_id: 'budget',
    budget_code: '6105',
    action: amount === null ? 'delete' : 'edit',
    actor_id: null,
    actor_name: 'Chausiku Finance',
    before: null,
    after: amount === null ? null : { amount },
    created_at: new Date(at),
  };
}

/** The changelog as budgetChangelog reads it: newest first (created_at, then id). */
const newestFirst = (...changes: BudgetChangeRow[]) => [...changes].reverse();

describe('presentHistory', () => {
  it("gives each month the amount of the newest change before its end, or the budget's amount now", () => {
    const created = change(march - 20 * 86_400_000, 1000);
    const raised = change(april - 86_400_000, 2000);
    expect(presentHistory(months, newestFirst(created, raised), 5000)).toEqual([
      { month: '2026-02', amount: 1000, committed: 100, spent: 0 },
      { month: '2026-03', amount: 2000, committed: 150.5, spent: 100 },
    ]);
    expect(presentHistory(months, [], 5000).map((point) => point.amount)).toEqual([5000, 5000]);
  });

  it("counts a change at a month's end in the next month, and the later of two at one instant", () => {
    const created = change(march - 86_400_000, 1000);
    const atTheEnd = change(march, 3000);
    const sameInstant = change(march, 4000);
    const amounts = presentHistory(months, newestFirst(created, atTheEnd, sameInstant), 9000).map(
      (point) => point.amount,
    );
    expect(amounts).toEqual([1000, 4000]);
  });

  it('skips a change that left no budget (a deletion has no after)', () => {
    const created = change(march - 86_400_000, 1000);
    const deleted = change(march + 86_400_000, null);
    const amounts = presentHistory(months, newestFirst(created, deleted), 9000).map(
      (point) => point.amount,
    );
    expect(amounts).toEqual([1000, 1000]);
  });
});
