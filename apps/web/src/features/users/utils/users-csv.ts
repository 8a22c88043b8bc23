import { email as emailSchema } from '@imprest/domain/api/common.ts';
import { departments, type Department } from '@imprest/domain/enums.ts';
import Papa from 'papaparse';
import { departmentLabel } from '../../../lib/request-labels.ts';

/** Spec §9: the name of the bulk template. */
export const templateFileName = 'User_Data_Template.csv';

/** Spec §5: the bulk CSV's columns, in the template's order. */
export const csvColumns = ['full name', 'department', 'phone', 'email'] as const;

/** The template a person fills in: the header and one example row. */
export const templateCsv = `${csvColumns.join(',')}\r\nAsha Mwinyi,engineering,0712345678,asha.mwinyi@example.com\r\n`;

/** One user of a bulk upload as the preview and edit table hold it. */
export type CsvUserRow = {
  key: string;
  /** Its number among the file's users, from 1 (as the server's details count them). */
  row: number;
  fullname: string;
  /** A department of spec §3 once recognised, else the text as typed. */
  department: string;
  phone_number: string;
  email: string;
};

export type CsvParseResult = { rows: CsvUserRow[] } | { error: string };

/** Phone inputs keep digits only (spec §5). */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, '');
}

/**
 * A number a spreadsheet wrote in scientific notation (2.55712E+11): its digits are lost, and
 * keeping only the digits would make another number without a word. Kept as written, so the row
 * says what went wrong (`rowProblems`).
 */
const scientificNotation = /^[+-]?\d+(\.\d+)?e[+-]?\d+$/i;

/** A phone cell as the form keeps it: digits only, unless a spreadsheet rewrote the number. */
function phoneOf(text: string): string {
  return scientificNotation.test(text) ? text : digitsOnly(text);
}

function squash(value: string): string {
  return value.toLowerCase().replace(/[\s_-]+/g, '');
}

const departmentByName = new Map<string, Department>(
  departments.flatMap((department) => [
    [squash(department), department],
    [squash(departmentLabel(department)), department],
  ]),
);

/** The department a text names ('Stem Kits', 'stemkits' → stemKits), or null. */
export function departmentOf(text: string): Department | null {
  return departmentByName.get(squash(text)) ?? null;
}

/**
 * Reads the bytes of a CSV file as UTF-8, with or without a byte-order mark. Other encodings are
 * refused rather than shown garbled.
 */
export function decodeCsv(bytes: ArrayBuffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return null;
  }
}

let nextKey = 0;

/** A key for a row made in the browser (a parsed line, or one added while editing). */
export function newRowKey(): string {
  nextKey += 1;
  return `row-${nextKey}`;
}

/**
 * Parses a bulk-user CSV (spec §5): a header row naming exactly the template's columns (in any
 * order, any case), double-quote quoting, values trimmed, empty lines skipped.
 */
export function parseUsersCsv(text: string): CsvParseResult {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    quoteChar: '"',
    transform: (value) => value.trim(),
  });
  const lines = parsed.data;
  const header = lines[0];
  if (!header) return { error: 'The file is empty. Fill in the template and upload it again.' };
  const names = header.map((name) => name.toLowerCase());
  const missing = csvColumns.filter((column) => !names.includes(column));
  // A column without a name and without a value is no column: Excel saves one ("…,email,") when
  // a cleared column is still in the sheet's used range.
  const isEmptyColumn = (index: number) => lines.every((cells) => (cells[index] ?? '') === '');
  const extra = header.filter(
    (name, index) =>
      !(csvColumns as readonly string[]).includes(name.toLowerCase()) &&
      !(name === '' && isEmptyColumn(index)),
  );
  if (missing.length > 0 || extra.length > 0) {
    const parts = [
      missing.length > 0 ? `missing ${missing.map((name) => `"${name}"`).join(', ')}` : '',
      extra.length > 0
        ? `unexpected ${extra.map((name) => `"${name || '(blank)'}"`).join(', ')}`
        : '',
    ].filter(Boolean);
    return {
      error: `The header row must name the columns ${csvColumns.join(', ')}: ${parts.join('; ')}.`,
    };
  }
  const position = (column: (typeof csvColumns)[number]) => names.indexOf(column);
  const rows = lines
    .slice(1)
    .filter((cells) => cells.some((cell) => cell !== ''))
    .map((cells, index): CsvUserRow => {
      const cell = (column: (typeof csvColumns)[number]) => cells[position(column)] ?? '';
      const department = cell('department');
      return {
        key: newRowKey(),
        row: index + 1,
        fullname: cell('full name'),
        department: departmentOf(department) ?? department,
        phone_number: phoneOf(cell('phone')),
        email: cell('email'),
      };
    });
  if (rows.length === 0) return { error: 'The file has a header row but no users.' };
  return { rows };
}

/** Why a row cannot be saved yet, in words; empty when it can. */
export type RowProblems = Map<string, string[]>;

/**
 * The problems of each row: a missing name, an invalid e-mail, an e-mail twice in the file or
 * already taken, an unknown department; plus what the server said of it (`serverErrors`).
 */
export function rowProblems(
  rows: CsvUserRow[],
  options: { takenEmails?: ReadonlySet<string>; serverErrors?: ReadonlyMap<string, string[]> } = {},
): RowProblems {
  const firstRowOf = new Map<string, number>();
  for (const row of rows) {
    const address = row.email.trim().toLowerCase();
    if (address && !firstRowOf.has(address)) firstRowOf.set(address, row.row);
  }
  const seen = new Set<string>();
  const problems: RowProblems = new Map();
  for (const row of rows) {
    const list: string[] = [];
    if (!row.fullname.trim()) list.push('Full name is missing');
    const address = row.email.trim().toLowerCase();
    if (!address) list.push('E-mail is missing');
    else if (!emailSchema.safeParse(address).success) list.push('Invalid e-mail address');
    else if (seen.has(address))
      list.push(`Duplicate e-mail: also on row ${firstRowOf.get(address) ?? '?'} of this file`);
    else if (options.takenEmails?.has(address)) list.push('A user with this e-mail already exists');
    if (address) seen.add(address);
    if (scientificNotation.test(row.phone_number))
      list.push(
        `Phone ${row.phone_number} was rewritten by the spreadsheet: format the phone column as text and enter the number again`,
      );
    if (!departmentOf(row.department)) {
      list.push(
        row.department ? `Unknown department "${row.department}"` : 'Department is missing',
      );
    }
    list.push(...(options.serverErrors?.get(row.key) ?? []));
    if (list.length > 0) problems.set(row.key, list);
  }
  return problems;
}

/**
 * The server's 400 details mapped onto rows: a detail path such as `3.email` names the third row
 * sent, counting from 1 (`newUsersProblems`). Details without a row number are returned apart.
 */
export function serverErrorsByRow(
  rows: CsvUserRow[],
  details: { path: string; message: string }[],
): { byRow: Map<string, string[]>; general: string[] } {
  const byRow = new Map<string, string[]>();
  const general: string[] = [];
  for (const detail of details) {
    const match = /^(\d+)(?:\.|$)/.exec(detail.path);
    const row = match ? rows[Number(match[1]) - 1] : undefined;
    if (!row) {
      general.push(detail.message);
      continue;
    }
    // The table shows the row already: 'Row 3: e-mail … is taken.' reads 'E-mail … is taken.'
    const message = detail.message.replace(/^Row \d+:\s*/, '');
    byRow.set(row.key, [
      ...(byRow.get(row.key) ?? []),
      message.charAt(0).toUpperCase() + message.slice(1),
    ]);
  }
  return { byRow, general };
}
