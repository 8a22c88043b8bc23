import type { Readable } from 'node:stream';
import { labelOf, requestCategoryLabels, retirementStatusLabels } from '@imprest/domain/enums.ts';
import { cashToReturn } from '@imprest/domain/retirements.ts';
import type { Executor } from '../../db/client.ts';
import { dayValue, streamWorkbook, wallClockIn } from '../../lib/workbook.ts';
import { retirementBatch, type RetirementSheetRow } from './queries.ts';

/** Streams an xlsx of retirements, newest first (spec §9). */
export function retirementsWorkbook(
  db: Executor,
  options: { organizationId: string; ownerId?: string; timeZone: string },
): Readable {
  const { timeZone, ...filter } = options;
  return streamWorkbook<RetirementSheetRow>({
    sheetName: 'Retirements',
    columns: [
      { header: 'Name', key: 'name', width: 24 },
      { header: 'Purpose', key: 'purpose', width: 20 },
      { header: 'Approval number', key: 'approval_number', width: 18 },
      { header: 'Budget code', key: 'budget_code', width: 12 },
      { header: 'Due date', key: 'due_date', width: 14, style: { numFmt: 'dd/mm/yyyy' } },
      {
        header: 'Retirement date',
        key: 'retirement_date',
        width: 20,
        style: { numFmt: 'dd/mm/yyyy hh:mm' },
      },
      { header: 'Amount received', key: 'received', width: 18, style: { numFmt: '#,##0.00' } },
      { header: 'Amount spent', key: 'spent', width: 18, style: { numFmt: '#,##0.00' } },
      { header: 'Currency', key: 'currency', width: 10 },
      { header: 'Status', key: 'status', width: 14 },
      // What was left over, as the form and the reviewer see it, beside whether it came back.
      { header: 'Cash to return', key: 'to_return', width: 16, style: { numFmt: '#,##0.00' } },
      { header: 'Cash returned', key: 'funds_returned', width: 14 },
    ],
    batch: (position) => retirementBatch(db, { ...filter, ...position }),
    row: (row) => ({
      name: row.name,
      purpose: labelOf(requestCategoryLabels, row.purpose),
      approval_number: row.approval_number ?? '',
      budget_code: row.budget_code,
      due_date: dayValue(row.due_date),
      retirement_date: row.submitted_at ? wallClockIn(row.submitted_at, timeZone) : '',
      received: Number(row.amount_received),
      spent: row.amount_spent === null ? '' : Number(row.amount_spent),
      currency: row.amount_currency.toUpperCase(),
      status: labelOf(retirementStatusLabels, row.status),
      // Nothing spent reported yet: nothing to say.
      to_return:
        row.amount_spent === null
          ? ''
          : cashToReturn(Number(row.amount_received), Number(row.amount_spent)),
      funds_returned: row.is_funds_returned ? 'Yes' : 'No',
    }),
  });
}
