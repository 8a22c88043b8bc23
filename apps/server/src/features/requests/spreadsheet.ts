import type { Readable } from 'node:stream';
import { labelOf, requestCategoryLabels, requestStatusLabels } from '@imprest/domain/enums.ts';
import type { Executor } from '../../db/client.ts';
import { dayValue, streamWorkbook, wallClockIn } from '../../lib/workbook.ts';
import { requestBatch, type RequestSheetRow } from './queries.ts';

/**
 * Streams an xlsx of the newest versions, newest first (spec §9), with the list's columns (the
 * owner's name first: an organisation-wide download tells whose each request is), purposes and
 * statuses in the words the pages use, and times as the organisation's clock reads them.
 */
export function requestsWorkbook(
  db: Executor,
  options: { organizationId: string; ownerId?: string; timeZone: string },
): Readable {
  const { timeZone, ...filter } = options;
  return streamWorkbook<RequestSheetRow>({
    sheetName: 'Requests',
    columns: [
      { header: 'Name', key: 'name', width: 24 },
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
    batch: (position) => requestBatch(db, { ...filter, ...position }),
    row: (row) => ({
      name: row.request_owner_name,
      purpose: labelOf(requestCategoryLabels, row.purpose),
      expenditure_date: dayValue(row.expenditure_date),
      amount: Number(row.amount_requested),
      currency: row.amount_currency.toUpperCase(),
      budget_code: row.budget_code,
      status: labelOf(requestStatusLabels, row.current_status),
      approval_number: row.approval_number ?? '',
      created: wallClockIn(row.created_at, timeZone),
    }),
  });
}
