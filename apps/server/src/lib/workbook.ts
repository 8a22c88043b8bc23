import { PassThrough, type Readable } from 'node:stream';
import { clockIn } from '@imprest/domain/days.ts';
import { strToU8, Zip, ZipDeflate } from 'fflate';

/**
 * One-sheet xlsx files written as they stream (docs/decisions/0020): the workbook's parts are a
 * few lines of XML each, and the sheet is written a batch of rows at a time through fflate's
 * streaming zip, waiting whenever the client has not taken the last batch yet. So a download holds
 * one batch of rows and its compressed bytes in memory, however long it is. (exceljs's streaming
 * writer kept every chunk of the sheet until the end: exceljs issue #2916.)
 */

const batchSize = 500;

/** A column: its header, the row key it shows, its width in characters and its number format. */
export type SheetColumn = {
  header: string;
  key: string;
  width?: number;
  style?: { numFmt?: string };
};

/** A cell's value: text, a number, a date and time (as its clock reads, see wallClockIn), a yes/no, or nothing. */
type CellValue = string | number | boolean | Date | null | undefined;

/** Resolves once the stream wants more, or has been closed (the client went away). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** A calendar day (`YYYY-MM-DD`) as a spreadsheet date: midnight UTC, shown without a time. */
export function dayValue(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** A quarter of an hour: every zone's offset, and every change of it, falls on one. */
const slotMs = 15 * 60_000;
/** Per zone, the offset from UTC in each quarter-hour read so far (bounded below). */
const offsetsByZone = new Map<string, Map<number, number>>();

/**
 * A moment as the clock reads it in a time zone, as a spreadsheet date and time: a spreadsheet's
 * date carries no zone, so a moment written as UTC would read three hours early in Dar es Salaam
 * (and on the previous day near midnight). The lists show the viewer's local time; a download
 * shows the organisation's (ORG_TIMEZONE). The zone's offset is read once per quarter-hour, not
 * per row: a download of 100,000 rows reads it a few times.
 */
export function wallClockIn(moment: Date, timeZone: string): Date {
  let offsets = offsetsByZone.get(timeZone);
  if (!offsets) {
    offsets = new Map();
    offsetsByZone.set(timeZone, offsets);
  }
  const slot = Math.floor(moment.getTime() / slotMs);
  let offset = offsets.get(slot);
  if (offset === undefined) {
    const clock = clockIn(timeZone, new Date(slot * slotMs));
    const wall = Date.UTC(
      clock.year,
      clock.month - 1,
      clock.day,
      clock.hour,
      clock.minute,
      clock.second,
    );
    offset = wall - slot * slotMs;
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(slot, offset);
  }
  return new Date(moment.getTime() + offset);
}

/**
 * Text a spreadsheet would take for a formula once its cell is edited or the sheet saved as CSV
 * (OWASP: CSV injection), such as a full name "=HYPERLINK(…)": kept text by a leading apostrophe.
 */
function inertText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Days since 1899-12-30, the 1900 date system's day 0 (as Excel counts from 1900-03-01 on). */
function excelSerial(date: Date): number {
  return date.getTime() / 86_400_000 + 25_569;
}

/** Text as XML 1.0 allows it: the five specials escaped, control characters other than tab and newlines dropped. */
function xmlText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** The column letters of a 0-based index: 0 → A, 25 → Z, 26 → AA. */
function columnLetters(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/** One cell's XML; `style` is the cell format's index in styles.xml (0: none). */
function cellXml(reference: string, value: CellValue, style: number): string {
  const styled = style > 0 ? ` s="${style}"` : '';
  if (value === null || value === undefined || value === '') return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    return `<c r="${reference}"${styled}><v>${excelSerial(value)}</v></c>`;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return `<c r="${reference}"${styled}><v>${value}</v></c>`;
  }
  if (typeof value === 'boolean') {
    return `<c r="${reference}" t="b"${styled}><v>${value ? 1 : 0}</v></c>`;
  }
  const text = xmlText(inertText(value));
  const space = text.trim() === text ? '' : ' xml:space="preserve"';
  return `<c r="${reference}" t="inlineStr"${styled}><is><t${space}>${text}</t></is></c>`;
}

/** The number formats of the columns as styles.xml cell formats: one per distinct format. */
function cellFormats(columns: SheetColumn[]): { styles: string; styleOf: number[] } {
  const formats: string[] = [];
  const styleOf = columns.map((column) => {
    const format = column.style?.numFmt;
    if (!format) return 0;
    const known = formats.indexOf(format);
    if (known >= 0) return known + 1;
    formats.push(format);
    return formats.length;
  });
  // Custom number formats take ids from 164 on; cell format 0 is the default.
  const numFmts = formats
    .map((format, index) => `<numFmt numFmtId="${164 + index}" formatCode="${xmlText(format)}"/>`)
    .join('');
  const xfs = formats
    .map(
      (_, index) =>
        `<xf numFmtId="${164 + index}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
    )
    .join('');
  const styles =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    (formats.length > 0 ? `<numFmts count="${formats.length}">${numFmts}</numFmts>` : '') +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${formats.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>';
  return { styles, styleOf };
}

/** The parts around the sheet: content types, relationships and the workbook naming the sheet. */
function packageParts(sheetName: string): [string, string][] {
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const relationships = 'http://schemas.openxmlformats.org/package/2006/relationships';
  const officeRelationships = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  // A sheet name: at most 31 characters, none of : \ / ? * [ ].
  const name = xmlText(sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1');
  return [
    [
      '[Content_Types].xml',
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${xml}<Relationships xmlns="${relationships}">` +
        `<Relationship Id="rId1" Type="${officeRelationships}/officeDocument" Target="xl/workbook.xml"/>` +
        '</Relationships>',
    ],
    [
      'xl/workbook.xml',
      `${xml}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${officeRelationships}">` +
        `<sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${xml}<Relationships xmlns="${relationships}">` +
        `<Relationship Id="rId1" Type="${officeRelationships}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${officeRelationships}/styles" Target="styles.xml"/>` +
        '</Relationships>',
    ],
  ];
}

/**
 * Streams a one-sheet xlsx, reading rows in keyset batches (`batch` answers the rows after the last
 * one it was given), so neither the rows nor the workbook are ever held whole in memory: the next
 * batch is read only once the client has taken the last one. The first row holds the headers.
 */
export function streamWorkbook<T>(options: {
  sheetName: string;
  columns: SheetColumn[];
  batch: (options: { after: T | undefined; limit: number }) => Promise<T[]>;
  row: (record: T) => Record<string, CellValue>;
  batchSize?: number;
}): Readable {
  const output = new PassThrough();
  const limit = options.batchSize ?? batchSize;
  const zip = new Zip((error, chunk, isFinal) => {
    if (error) {
      output.destroy(error);
      return;
    }
    output.write(chunk);
    if (isFinal) output.end();
  });
  const { styles, styleOf } = cellFormats(options.columns);
  const letters = options.columns.map((_, index) => columnLetters(index));

  const write = async () => {
    for (const [name, text] of packageParts(options.sheetName)) {
      const part = new ZipDeflate(name, { level: 6 });
      zip.add(part);
      part.push(strToU8(text), true);
    }
    const stylesPart = new ZipDeflate('xl/styles.xml', { level: 6 });
    zip.add(stylesPart);
    stylesPart.push(strToU8(styles), true);

    const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 });
    zip.add(sheet);
    const widths = options.columns
      .map((column, index) =>
        column.width
          ? `<col min="${index + 1}" max="${index + 1}" width="${column.width}" customWidth="1"/>`
          : '',
      )
      .join('');
    const header = options.columns
      .map((column, index) => cellXml(`${letters[index]}1`, column.header, 0))
      .join('');
    sheet.push(
      strToU8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
          '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
          (widths ? `<cols>${widths}</cols>` : '') +
          `<sheetData><row r="1">${header}</row>`,
      ),
    );
    let rowNumber = 1;
    let after: T | undefined;
    for (;;) {
      const records = await options.batch({ after, limit });
      // The batch's XML as pieces joined once: a string built with += is copied again on each
      // row and once more when encoded (issue 13: the download's largest allocation).
      const pieces: string[] = [];
      for (const record of records) {
        rowNumber += 1;
        const values = options.row(record);
        pieces.push(`<row r="${rowNumber}">`);
        options.columns.forEach((column, index) => {
          pieces.push(
            cellXml(`${letters[index]}${rowNumber}`, values[column.key], styleOf[index] ?? 0),
          );
        });
        pieces.push('</row>');
      }
      if (pieces.length > 0) sheet.push(strToU8(pieces.join('')));
      // Back-pressure: the next batch waits until the client has read what this one made.
      if (output.writableNeedDrain) await drained(output);
      if (output.destroyed) return;
      if (records.length < limit) break;
      after = records[records.length - 1];
    }
    sheet.push(strToU8('</sheetData></worksheet>'), true);
    zip.end();
  };
  write().catch((error: unknown) =>
    output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
