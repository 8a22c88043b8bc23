import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';

const batchSize = 500;

let excel: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded on the first download rather than at start: about 30 MB that a process which
 * never writes a spreadsheet does not carry (issue 13: memory at idle).
 */
export function loadExcelJS(): Promise<typeof ExcelJS> {
  excel ??= import('exceljs').then((module) => module.default);
  return excel;
}

/** A calendar day (`YYYY-MM-DD`) as a spreadsheet date: midnight UTC, shown without a time. */
export function dayValue(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * Streams a one-sheet xlsx, reading rows in keyset batches (`batch` answers the rows after the last
 * one it was given), so neither the rows nor the workbook are ever held whole in memory.
 */
export function streamWorkbook<T>(options: {
  sheetName: string;
  columns: Partial<ExcelJS.Column>[];
  batch: (options: { after: T | undefined; limit: number }) => Promise<T[]>;
  row: (record: T) => Record<string, unknown>;
}): Readable {
  const stream = new PassThrough();
  const write = async () => {
    const { stream: streaming } = await loadExcelJS();
    const workbook = new streaming.xlsx.WorkbookWriter({ stream, useStyles: true });
    const sheet = workbook.addWorksheet(options.sheetName);
    sheet.columns = options.columns;
    let after: T | undefined;
    for (;;) {
      const rows = await options.batch({ after, limit: batchSize });
      for (const record of rows) sheet.addRow(options.row(record)).commit();
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
