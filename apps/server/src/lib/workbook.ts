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

/** A column: its header, the row key it shows, its width in characters and its cells' style. */
export type SheetColumn = {
  header: string;
  key: string;
  width?: number;
  /** A number format, and whether long text wraps onto lines (top-aligned) in the cell. */
  style?: { numFmt?: string; wrapText?: boolean };
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
const dayMs = 86_400_000;
/**
 * Per zone, its offset from UTC on each UTC day read so far, NaN for a day on which it changes
 * (bounded below: a download's rows span a few hundred days, not a cache's worth of entries).
 */
const offsetsByZone = new Map<string, Map<number, number>>();

/** A zone's offset from UTC, in milliseconds, at a moment on a whole second. */
function offsetAt(timeZone: string, at: number): number {
  const clock = clockIn(timeZone, new Date(at));
  return (
    Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second) - at
  );
}

/**
 * A moment as the clock reads it in a time zone, as a spreadsheet date and time: a spreadsheet's
 * date carries no zone, so a moment written as UTC would read three hours early in Dar es Salaam
 * (and on the previous day near midnight). The lists show the viewer's local time; a download
 * shows the organisation's (ORG_TIMEZONE). The zone's offset is read twice per UTC day, at its
 * start and at the next day's: where they agree it holds all day (no zone changes its offset and
 * back within a day); on a day of a change it is read at the moment's quarter-hour. So a download
 * of 100,000 rows asks the zone's clock a few hundred times, and keeps no entry per row.
 */
export function wallClockIn(moment: Date, timeZone: string): Date {
  let offsets = offsetsByZone.get(timeZone);
  if (!offsets) {
    offsets = new Map();
    offsetsByZone.set(timeZone, offsets);
  }
  const time = moment.getTime();
  const day = Math.floor(time / dayMs);
  let offset = offsets.get(day);
  if (offset === undefined) {
    const start = offsetAt(timeZone, day * dayMs);
    offset = start === offsetAt(timeZone, (day + 1) * dayMs) ? start : Number.NaN;
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(day, offset);
  }
  if (Number.isNaN(offset)) offset = offsetAt(timeZone, Math.floor(time / slotMs) * slotMs);
  return new Date(time + offset);
}

/**
 * Text a spreadsheet would take for a formula once its cell is edited or the sheet saved as CSV
 * (OWASP: CSV injection), such as a full name "=HYPERLINK(…)": kept text by a leading apostrophe.
 * Judged after the characters XML cannot hold are dropped (`xmlAllowed`), so a control character
 * in front no longer hides the "=" from it.
 */
function inertText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The most characters a cell holds in Excel; a longer text would make the file refuse to open. */
export const maxCellCharacters = 32_767;
const truncationMark = '… (cut: longer than a spreadsheet cell holds)';

/** Text cut to what a cell holds, saying so, and never between the halves of a surrogate pair. */
function cellSized(text: string): string {
  if (text.length <= maxCellCharacters) return text;
  let end = maxCellCharacters - truncationMark.length;
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end) + truncationMark;
}

/** Text without the characters XML 1.0 cannot hold: control characters but tab and newlines. */
function xmlAllowed(text: string): string {
  // Most text has none: tested once, and returned as it is.
  // eslint-disable-next-line no-control-regex
  if (!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(text)) return text;
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

/** Text escaped for XML: the five specials. */
function xmlText(text: string): string {
  // Most text needs nothing: tested once instead of four replacements, each a new string.
  if (!/[&<>"]/.test(text)) return text;
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** The column letters of a 0-based index: 0 → A, 25 → Z, 26 → AA. */
function columnLetters(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  }
  return letters;
}

/**
 * One cell's XML, written in pieces (a cell is never a string of its own): the cell's column
 * letters and row number, its value, and its style attribute (` s="1"`, or '' for none).
 */
function writeCell(
  xml: SheetBytes,
  column: string,
  row: number,
  value: CellValue,
  styled: string,
): void {
  if (value === null || value === undefined || value === '') return;
  if (typeof value === 'string') {
    const text = xmlText(cellSized(inertText(xmlAllowed(value))));
    writeCellStart(xml, column, row, styled, ' t="inlineStr"');
    xml.write(/^\s|\s$/.test(text) ? '><is><t xml:space="preserve">' : '><is><t>');
    xml.write(text);
    xml.write('</t></is></c>');
    return;
  }
  if (typeof value === 'boolean') {
    writeCellStart(xml, column, row, styled, ' t="b"');
    xml.write(value ? '><v>1</v></c>' : '><v>0</v></c>');
    return;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return;
    writeCellStart(xml, column, row, styled, '');
    xml.write('><v>');
    xml.writeExcelSerial(value.getTime());
    xml.write('</v></c>');
    return;
  }
  if (!Number.isFinite(value)) return;
  writeCellStart(xml, column, row, styled, '');
  xml.write('><v>');
  xml.writeNumber(value);
  xml.write('</v></c>');
}

/** A cell's opening tag up to its closing `>`: `<c r="B7"`, its type and its style. */
function writeCellStart(
  xml: SheetBytes,
  column: string,
  row: number,
  styled: string,
  type: string,
): void {
  xml.write('<c r="');
  xml.write(column);
  xml.writeInteger(row);
  xml.write('"');
  xml.write(type);
  xml.write(styled);
}

/**
 * The columns' number formats and text wrapping as styles.xml cell formats: one per distinct
 * pair, cell format 0 being the default.
 */
function cellFormats(columns: SheetColumn[]): { styles: string; styleOf: number[] } {
  const formats: string[] = [];
  const cells: { format: string | undefined; wrapText: boolean }[] = [];
  const styleOf = columns.map((column) => {
    const format = column.style?.numFmt;
    const wrapText = column.style?.wrapText === true;
    if (!format && !wrapText) return 0;
    if (format && !formats.includes(format)) formats.push(format);
    const known = cells.findIndex((cell) => cell.format === format && cell.wrapText === wrapText);
    if (known >= 0) return known + 1;
    cells.push({ format, wrapText });
    return cells.length;
  });
  // Custom number formats take ids from 164 on.
  const numFmts = formats
    .map((format, index) => `<numFmt numFmtId="${164 + index}" formatCode="${xmlText(format)}"/>`)
    .join('');
  const xfs = cells
    .map(({ format, wrapText }) => {
      const numFmtId = format ? 164 + formats.indexOf(format) : 0;
      const applied = `${format ? ' applyNumberFormat="1"' : ''}${wrapText ? ' applyAlignment="1"' : ''}`;
      const alignment = wrapText ? '<alignment vertical="top" wrapText="1"/>' : '';
      return `<xf numFmtId="${numFmtId}" fontId="0" fillId="0" borderId="0" xfId="0"${applied}>${alignment}</xf>`;
    })
    .join('');
  const styles =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    (formats.length > 0 ? `<numFmts count="${formats.length}">${numFmts}</numFmts>` : '') +
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${cells.length + 1}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${xfs}</cellXfs>` +
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
  const name = xmlText(
    xmlAllowed(sheetName)
      .replace(/[:\\/?*[\]]/g, ' ')
      .slice(0, 31) || 'Sheet1',
  );
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

/** Bytes of the sheet's XML gathered before they go to the compressor. */
const chunkBytes = 64 * 1024;

/**
 * The sheet's XML encoded straight into one reused buffer, handed to the compressor when full
 * (fflate copies what it is pushed): a batch's XML is never a string of its own, nor a new array
 * (issue 13: the download's allocation, and so its peak memory, follows the bytes made per row).
 */
class SheetBytes {
  private readonly buffer = Buffer.allocUnsafeSlow(chunkBytes);
  private length = 0;

  constructor(private readonly push: (bytes: Uint8Array) => void) {}

  write(text: string): void {
    const count = text.length;
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (this.length + count * 3 > this.buffer.length) {
      this.flush();
      if (count * 3 > this.buffer.length) {
        this.push(Buffer.from(text));
        return;
      }
    }
    // ASCII, nearly all of a sheet, copied code by code; from the first other character on, the
    // rest is encoded by Buffer.
    const buffer = this.buffer;
    let at = this.length;
    for (let index = 0; index < count; index += 1) {
      const code = text.charCodeAt(index);
      if (code >= 0x80) {
        this.length = at + buffer.write(text.slice(index), at);
        return;
      }
      buffer[at] = code;
      at += 1;
    }
    this.length = at;
  }

  /**
   * A number as `String(value)` writes it, without making that string where it can: V8 keeps the
   * strings it makes of numbers in a cache, so each one survives the young generation's collections
   * and ends as garbage in the old generation (issue 13: a download's peak memory). Integers and
   * amounts in hundredths are written digit by digit; any other number goes through `String`.
   */
  writeNumber(value: number): void {
    if (Number.isSafeInteger(value)) {
      this.writeInteger(value);
      return;
    }
    const hundredths = Math.round(value * 100);
    // Up to 15 digits, each such decimal has a double of its own, so this is its shortest form.
    if (Math.abs(hundredths) < 1e15 && hundredths / 100 === value) {
      if (hundredths < 0) this.write('-');
      const magnitude = Math.abs(hundredths);
      const fraction = magnitude % 100;
      this.writeInteger((magnitude - fraction) / 100);
      this.write('.');
      if (fraction % 10 === 0) {
        this.writeInteger(fraction / 10);
      } else {
        if (fraction < 10) this.write('0');
        this.writeInteger(fraction);
      }
      return;
    }
    this.write(String(value));
  }

  /** A non-negative or negative safe integer's digits. */
  writeInteger(value: number): void {
    if (this.length + 17 > this.buffer.length) this.flush();
    let rest = value;
    if (rest < 0) {
      this.buffer[this.length] = 0x2d;
      this.length += 1;
      rest = -rest;
    }
    let digits = 1;
    for (let scale = 10; scale <= rest; scale *= 10) digits += 1;
    let at = this.length + digits;
    this.length = at;
    do {
      at -= 1;
      this.buffer[at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /**
   * A moment as a spreadsheet's date: days since 1899-12-30 (the 1900 date system's day 0, as
   * Excel counts from 1900-03-01 on), with the time of day to 9 decimals (a tenth of a millisecond
   * is 1.2 × 10⁻⁹ of a day; Excel keeps 15 significant digits).
   */
  writeExcelSerial(time: number): void {
    const timeOfDay = ((time % dayMs) + dayMs) % dayMs;
    let days = (time - timeOfDay) / dayMs + 25_569;
    // A day's billionths: timeOfDay × 10⁹ ÷ 86,400,000 = timeOfDay × 625 ÷ 54.
    let billionths = Math.round((timeOfDay * 625) / 54);
    if (billionths === 1e9) {
      days += 1;
      billionths = 0;
    }
    this.writeInteger(days);
    if (billionths === 0) return;
    this.write('.');
    let width = 9;
    while (billionths % 10 === 0) {
      billionths /= 10;
      width -= 1;
    }
    for (let scale = 10 ** (width - 1); scale > billionths && scale > 1; scale /= 10) {
      this.write('0');
    }
    this.writeInteger(billionths);
  }

  /** Hands what is gathered to the compressor. */
  flush(): void {
    if (this.length === 0) return;
    this.push(this.buffer.subarray(0, this.length));
    this.length = 0;
  }
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
    const styled = styleOf.map((style) => (style > 0 ? ` s="${style}"` : ''));
    const xml = new SheetBytes((bytes) => sheet.push(bytes));
    xml.write(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
        (widths ? `<cols>${widths}</cols>` : '') +
        '<sheetData><row r="1">',
    );
    options.columns.forEach((column, index) => {
      writeCell(xml, letters[index] ?? '', 1, column.header, '');
    });
    xml.write('</row>');
    let rowNumber = 1;
    let after: T | undefined;
    for (;;) {
      const records = await options.batch({ after, limit });
      for (const record of records) {
        rowNumber += 1;
        const values = options.row(record);
        xml.write('<row r="');
        xml.writeInteger(rowNumber);
        xml.write('">');
        for (let index = 0; index < options.columns.length; index += 1) {
          const key = options.columns[index]?.key ?? '';
          writeCell(xml, letters[index] ?? '', rowNumber, values[key], styled[index] ?? '');
        }
        xml.write('</row>');
      }
      xml.flush();
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
