import type { RetirementSummary } from '@imprest/domain/api/retirements.ts';
import type { Currency, RetirementStatus } from '@imprest/domain/enums.ts';
import { toAmount } from '@imprest/domain/money.ts';
import { isoRequired } from '../../lib/time.ts';
import type { RetirementRow } from './queries.ts';

/** A retirement as a request shows it (`current_retirement`, spec §3). */
export function presentRetirementSummary(row: RetirementRow): RetirementSummary {
  return {
    id: row.id,
    status: row.status as RetirementStatus,
    amount_currency: row.amount_currency as Currency,
    amount_spent: row.amount_spent === null ? null : toAmount(row.amount_spent),
    due_date: row.due_date,
    modified_at: isoRequired(row.modified_at),
  };
}
