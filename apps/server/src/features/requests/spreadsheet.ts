import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Executor } from '../../db/client.ts';
import { requestBatch, type RequestRecord } from './queries.ts';

const batchSize = 500;

/** A calendar day as a spreadsheet date (midnight UTC, shown without a time). */
function dayValue(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * Streams an xlsx of the newest versions, newest first, reading the database in keyset batches so
 * neither the rows nor the workbook are ever held whole in memory.
 */
export function requestsWorkbook(
  db: Executor,
  options: { organizationId: string; ownerId?: string },
): Readable {
  const stream = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  const sheet = workbook.addWorksheet('Requests');
  sheet.columns = [
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
  ];
  const write = async () => {
    let after: RequestRecord | undefined;
    for (;;) {
      const rows = await requestBatch(db, { ...options, after, limit: batchSize });
      for (const row of rows) {
        sheet
          .addRow({
            purpose: row.purpose,
            expenditure_date: dayValue(row.expenditure_date),
            amount: Number(row.amount_requested),
            currency: row.amount_currency.toUpperCase(),
            budget_code: row.budget_code,
            status: row.current_status,
            approval_number: row.approval_number ?? '',
            created: row.created_at,
          })
          .commit();
      }
      if (rows.length < batchSize) break;
      after = rows[rows.length - 1];
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) =>
    stream.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return stream;
}
