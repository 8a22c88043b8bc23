import {
  fileExtension,
  previewCellCharacters,
  previewColumnLimit,
  previewRowLimit,
  readZipDirectory,
  zipArchiveRefusal,
} from '@imprest/domain/files.ts';
import Papa from 'papaparse';
import readXlsxFile from 'read-excel-file/web-worker';
import { answerWith, PreviewRefusal } from './run-worker.ts';

/** One sheet as text cells, cut to the preview's limits, with its real size. */
export type SheetTable = {
  name: string;
  rows: string[][];
  totalRows: number;
  totalColumns: number;
};
export type SheetResult = { sheets: SheetTable[] };

function cellText(value: unknown): string {
  if (value == null) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
  }
  const text = String(value);
  return text.length > previewCellCharacters ? `${text.slice(0, previewCellCharacters)}…` : text;
}

/** Keeps the first rows and columns and counts the rest. */
class TableBuilder {
  rows: string[][] = [];
  totalRows = 0;
  totalColumns = 0;

  add(row: readonly unknown[]): void {
    this.totalRows += 1;
    this.totalColumns = Math.max(this.totalColumns, row.length);
    if (this.rows.length < previewRowLimit) {
      this.rows.push(row.slice(0, previewColumnLimit).map(cellText));
    }
  }

  table(name: string): SheetTable {
    return { name, rows: this.rows, totalRows: this.totalRows, totalColumns: this.totalColumns };
  }
}

function readCsv(bytes: Uint8Array): SheetResult {
  // UTF-8 with or without its mark; a byte that is not UTF-8 shows as �, not as a failure.
  const text = new TextDecoder('utf-8').decode(bytes);
  const builder = new TableBuilder();
  // Spec §5: CSV files are read skipping empty lines, with double-quote quoting.
  Papa.parse<string[]>(text, {
    skipEmptyLines: true,
    quoteChar: '"',
    step: (result) => builder.add(result.data),
  });
  return { sheets: [builder.table('Sheet 1')] };
}

async function readXlsx(bytes: Uint8Array): Promise<SheetResult> {
  // An .xlsx is a ZIP archive: its directory is checked before anything is expanded (zip bombs).
  const refusal = zipArchiveRefusal(readZipDirectory(bytes).entries);
  if (refusal) throw new PreviewRefusal('refused', refusal);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const sheets = await readXlsxFile(buffer as ArrayBuffer);
  return {
    sheets: sheets.map(({ sheet, data }) => {
      const builder = new TableBuilder();
      for (const row of data) builder.add(row);
      return builder.table(sheet);
    }),
  };
}

answerWith<SheetResult, { bytes: Uint8Array; fileName: string }>(({ bytes, fileName }) => {
  if (bytes.length === 0) throw new PreviewRefusal('empty', 'The file is empty.');
  return fileExtension(fileName) === 'csv' ? readCsv(bytes) : readXlsx(bytes);
});
