import type { Readable } from 'node:stream';
import type { Executor } from '../../db/client.ts';
import { dayValue, streamWorkbook } from '../../lib/workbook.ts';
import { requestBatch, type RequestSheetRow } from './queries.ts';

/** Streams an xlsx of the newest versions, newest first (spec §9). */
export function requestsWorkbook(
  db: Executor,
  options: { organizationId: string; ownerId?: string },
): Readable {
  return streamWorkbook<RequestSheetRow>({
    sheetName: 'Requests',
    columns: [
      { header: 'Purpose', key: 'purpose', width: 20 },
      {
        header: 'Expenditure date',
        key: 'expenditure_date',
        width: 16,
        style: { numFmt: 'dd/mm/yyyy' },
      },
      { header: 'Amount', key: 'amount', width: 18, style: { numFmt: '#,##0.00' } },
      { header: 'Currency', key: 'currency', width: 10 },
      { header: 'Budget code', key: 'budget_code', width: 12 },
      { header: 'Status', key: 'status', width: 14 },
      { header: 'Approval number', key: 'approval_number', width: 18 },
      { header: 'Created', key: 'created', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm' } },
    ],
    batch: (position) => requestBatch(db, { ...options, ...position }),
    row: (row) => ({
      purpose: row.purpose,
      expenditure_date: dayValue(row.expenditure_date),
      amount: Number(row.amount_requested),
      currency: row.amount_currency.toUpperCase(),
      budget_code: row.budget_code,
      status: row.current_status,
      approval_number: row.approval_number ?? '',
      created: row.created_at,
    }),
  });
}
