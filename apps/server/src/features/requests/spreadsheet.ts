import type { Readable } from 'node:stream';
import {
  baseCurrency,
  departmentLabels,
  labelOf,
  paymentMethodLabels,
  requestCategoryLabels,
  requestStatusLabels,
} from '@imprest/domain/enums.ts';
import type { Executor } from '../../db/client.ts';
import { dayValue, streamWorkbook, wallClockIn } from '../../lib/workbook.ts';
import { requestBatch, type RequestSheetRow } from './queries.ts';

const baseAmountHeader = `Amount (${baseCurrency.toUpperCase()})`;

/**
 * Streams an xlsx of the newest versions, newest first (spec §9; a budget's download too), with the list's columns and what
 * finance reconciles by (department, supplier, the base amount, payment mode, justification); the
 * owner's name first (an organisation-wide download tells whose each request is), purposes,
 * statuses and modes in the words the pages use, and times as the organisation's clock reads them.
 */
export function requestsWorkbook(
  db: Executor,
  options: {
    organizationId: string;
    /** One owner's requests (staff mode), or one budget's (the budget's download). */
    ownerId?: string;
    budgetId?: string;
    timeZone: string;
    sheetName?: string;
    batchSize?: number;
  },
): Readable {
  const { timeZone, sheetName = 'Requests', batchSize, ...filter } = options;
  return streamWorkbook<RequestSheetRow>({
    sheetName,
    batchSize,
    columns: [
      { header: 'Name', key: 'name', width: 24 },
      { header: 'Department', key: 'department', width: 18 },
      { header: 'Purpose', key: 'purpose', width: 20 },
      { header: 'Supplier', key: 'supplier', width: 24 },
      {
        header: 'Expenditure date',
        key: 'expenditure_date',
        width: 16,
        style: { numFmt: 'dd/mm/yyyy' },
      },
      { header: 'Amount', key: 'amount', width: 18, style: { numFmt: '#,##0.00' } },
      { header: 'Currency', key: 'currency', width: 10 },
      // Every request in the base currency too (at the rate stored on it), so a column adds up.
      { header: baseAmountHeader, key: 'amount_base', width: 18, style: { numFmt: '#,##0.00' } },
      { header: 'Budget code', key: 'budget_code', width: 12 },
      { header: 'Payment mode', key: 'payment_mode', width: 15 },
      { header: 'Status', key: 'status', width: 14 },
      { header: 'Approval number', key: 'approval_number', width: 18 },
      { header: 'Justification', key: 'justification', width: 48 },
      { header: 'Created', key: 'created', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm' } },
    ],
    batch: (position) => requestBatch(db, { ...filter, ...position }),
    row: (row) => ({
      name: row.request_owner_name,
      department: labelOf(departmentLabels, row.department),
      purpose: labelOf(requestCategoryLabels, row.purpose),
      supplier: row.name_of_establishment,
      expenditure_date: dayValue(row.expenditure_date),
      amount: Number(row.amount_requested),
      currency: row.amount_currency.toUpperCase(),
      amount_base: Number(row.amount_base),
      budget_code: row.budget_code,
      payment_mode: labelOf(paymentMethodLabels, row.payment_mode),
      status: labelOf(requestStatusLabels, row.current_status),
      approval_number: row.approval_number ?? '',
      justification: row.expenditure_justification,
      created: wallClockIn(row.created_at, timeZone),
    }),
  });
}
