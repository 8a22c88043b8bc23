import { deflateRawSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { messages } from '@imprest/domain/messages.ts';
import ExcelJS from 'exceljs';
import {
  apiToken,
  desktop,
  expectNoSidewaysScroll,
  openAttachment,
  phone,
  shot,
  signIn,
  uploadThroughApi,
  watchViolations,
} from './support.ts';

// Issue 12: every kind of receipt is shown in the page (pdf.js, mammoth, a table, a ZIP listing,
// a turnable image), at 1280 and 375 px, under the app's Content-Security-Policy; broken and
// hostile files fail with a sentence, never freezing or scripting the page.

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

// ---- Fixtures, made here so every byte is known -------------------------------------------

type Member = { name: string; data: Buffer; isDeflated?: boolean };

/** A ZIP archive (stored or deflated entries, UTF-8 names), as an archiver writes one. */
function zipOf(members: Member[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const stored = member.isDeflated ? deflateRawSync(member.data) : member.data;
    const method = member.isDeflated ? 8 : 0;
    const crc = crc32(member.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(member.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x800, 8);
    header.writeUInt16LE(method, 10);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(stored.length, 20);
    header.writeUInt32LE(member.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    directory.push(header, name);
    offset += 30 + name.length + stored.length;
  }
  const central = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PDF of `pages` pages of text (Helvetica), with a correct cross-reference table. */
function textPdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`,
  );
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((lines, index) => {
    const text = lines
      .map(
        (line, row) => `BT /F1 ${row === 0 ? 22 : 13} Tf 48 ${760 - row * 30} Td (${line}) Tj ET`,
      )
      .join('\n');
    const stream = `0.11 0.3 0.85 RG 4 w 40 780 m 555 780 l S\n${text}`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + index * 2} 0 R >>`,
    );
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A picture drawn by the browser: a receipt, stored sideways when `isSideways`. */
async function drawReceipt(page: Page, type: 'image/jpeg' | 'image/png', isSideways: boolean) {
  const base64 = await page.evaluate(
    ({ type, isSideways }) => {
      const canvas = document.createElement('canvas');
      canvas.width = isSideways ? 400 : 240;
      canvas.height = isSideways ? 240 : 400;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('No canvas');
      if (isSideways) {
        // Stored turned a quarter to the left; EXIF orientation 6 turns it back.
        context.translate(0, 240);
        context.rotate(-Math.PI / 2);
      }
      context.fillStyle = '#fffdf5';
      context.fillRect(0, 0, 240, 400);
      context.fillStyle = '#1d4ed8';
      context.fillRect(0, 0, 240, 56);
      context.fillStyle = '#ffffff';
      context.font = 'bold 24px sans-serif';
      context.fillText('RECEIPT', 20, 38);
      context.fillStyle = '#111827';
      context.font = '18px sans-serif';
      ['Taxi to airport', 'TZS 45,000', 'Paid in cash', '12 May 2026'].forEach((line, index) =>
        context.fillText(line, 20, 110 + index * 40),
      );
      context.fillStyle = '#dc2626';
      context.fillRect(20, 330, 200, 40);
      context.fillStyle = '#ffffff';
      context.fillText('TOP ↑ BOTTOM ↓', 30, 357);
      return canvas.toDataURL(type, 0.9).split(',')[1] ?? '';
    },
    { type, isSideways },
  );
  return Buffer.from(base64, 'base64');
}

/** A JPEG with an EXIF segment whose orientation is 6 (turn 90° clockwise to show). */
function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.from([
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08,
    0x00,
    0x01,
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    orientation,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2);
  return Buffer.concat([
    jpeg.subarray(0, 2),
    Buffer.from([0xff, 0xe1]),
    length,
    payload,
    jpeg.subarray(2),
  ]);
}

/** A .docx: a heading, text, a table, an embedded picture, and whatever `extra` adds. */
function docxOf(options: {
  extraBody?: string;
  extraRelationships?: string;
  picture: Buffer;
}): Buffer {
  const w = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
  const r = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const drawing = (relation: string, name: string) =>
    `<w:r><w:drawing><wp:inline><wp:extent cx="1371600" cy="2286000"/><wp:docPr id="1" name="${name}" descr="${name}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip ${relation}/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${w}" xmlns:r="${r}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Hotel invoice</w:t></w:r></w:p>
<w:p><w:r><w:t>Two nights at the Kilimanjaro Hotel for the regional workshop.</w:t></w:r></w:p>
<w:tbl><w:tr>${cell('Item')}${cell('Amount')}</w:tr><w:tr>${cell('Room, 2 nights')}${cell('TZS 300,000')}</w:tr><w:tr>${cell('Breakfast')}${cell('TZS 50,000')}</w:tr></w:tbl>
<w:p>${drawing('r:embed="rIdStamp"', 'Hotel stamp')}</w:p>
${options.extraBody ?? ''}
</w:body></w:document>`;
  const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${w}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`;
  const documentRelationships = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdStyles" Type="${r}/styles" Target="styles.xml"/>
<Relationship Id="rIdStamp" Type="${r}/image" Target="media/stamp.png"/>
${options.extraRelationships ?? ''}
</Relationships>`;
  return zipOf([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${r}/officeDocument" Target="word/document.xml"/></Relationships>`),
    },
    { name: 'word/document.xml', data: Buffer.from(document), isDeflated: true },
    { name: 'word/styles.xml', data: Buffer.from(styles) },
    { name: 'word/_rels/document.xml.rels', data: Buffer.from(documentRelationships) },
    { name: 'word/media/stamp.png', data: options.picture },
  ]);
}

async function expensesXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const expenses = workbook.addWorksheet('Expenses');
  expenses.addRow(['Date', 'Item', 'Supplier', 'Amount (TZS)']);
  const items = ['Projector hire', 'Flip charts', 'Lunch', 'Taxi', 'Printing', 'Water'];
  for (let index = 0; index < 24; index += 1) {
    expenses.addRow([
      new Date(Date.UTC(2026, 4, 1 + index)),
      items[index % items.length],
      index % 2 ? 'Kariakoo Supplies' : 'Mlimani Traders',
      (index + 1) * 12_500,
    ]);
  }
  const summary = workbook.addWorksheet('Summary');
  summary.addRow(['Total', 3_906_250]);
  summary.addRow(['Approved by', 'Finance']);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function mileageCsv(rows: number): Buffer {
  const lines = ['Date,Trip,Kilometres,Amount'];
  for (let index = 1; index <= rows; index += 1) {
    lines.push(
      `2026-05-${String((index % 28) + 1).padStart(2, '0')},"Office to site, ${index}",${(index % 90) + 5},${index * 700}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

// ---- Uploads and the request that holds them ---------------------------------------------

/** A request of staff@example.com holding `files`; answers its id. */
async function requestWith(
  request: APIRequestContext,
  files: Record<string, Buffer>,
  justification: string,
): Promise<string> {
  const token = await apiToken(request, 'staff@example.com');
  const names: string[] = [];
  for (const [name, buffer] of Object.entries(files))
    names.push(await uploadThroughApi(request, token, name, buffer));
  const inFiveDays = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const created = await request.post('/api/v1/requests', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      purpose: 'procurement',
      mode_of_service: 'goods',
      name_of_establishment: 'Kariakoo Supplies',
      expenditure_justification: justification,
      amount_requested: 350_000,
      amount_currency: 'tzs',
      budget_code: '6105',
      payment_mode: 'bank_transfer',
      tax_status: 'taxInclusive',
      expenditure_date: inFiveDays,
      file_paths: names,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

// ---- The page ----------------------------------------------------------------------------

async function closePreview(page: Page): Promise<void> {
  await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The dialog fits the screen's width: nothing in it scrolls the page sideways. */
async function expectDialogFits(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  const box = await page.locator('.ant-modal-container').boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(width);
  await expectNoSidewaysScroll(page);
}

async function expectPdfShown(dialog: Locator): Promise<void> {
  await expect(dialog.getByTestId('pdf-page-count')).toHaveText('Page 1 of 2');
  const canvas = dialog.getByTestId('pdf-page');
  await expect(canvas).toHaveAttribute('aria-busy', 'false', { timeout: 20_000 });
  // Something was drawn: the canvas is not one colour.
  const colours = await canvas.evaluate((element) => {
    const canvasElement = element as HTMLCanvasElement;
    const context = canvasElement.getContext('2d');
    const data = context?.getImageData(0, 0, canvasElement.width, canvasElement.height).data;
    const seen = new Set<number>();
    for (let index = 0; data && index < data.length; index += 4000) seen.add(data[index] ?? 0);
    return seen.size;
  });
  expect(colours).toBeGreaterThan(1);
}

async function viewEachKind(page: Page, width: number): Promise<void> {
  const suffix = String(width);

  let dialog = await openAttachment(page, 'quotation.pdf');
  await expectPdfShown(dialog);
  await dialog.getByRole('button', { name: 'Next page' }).click();
  await expect(dialog.getByTestId('pdf-page-count')).toHaveText('Page 2 of 2');
  await expect(dialog.getByTestId('pdf-page')).toHaveAttribute('aria-busy', 'false');
  await dialog.getByRole('button', { name: 'Zoom in' }).click();
  await expect(dialog.getByTestId('pdf-page')).toHaveAttribute('aria-busy', 'false');
  await expectDialogFits(page);
  await shot(page, `previews-pdf-${suffix}`);
  await closePreview(page);

  dialog = await openAttachment(page, 'receipt-photo.jpg');
  const photo = dialog.getByRole('img', { name: 'receipt-photo.jpg', exact: true });
  await expect(photo).toBeVisible();
  // The browser applied the EXIF orientation: the sideways 400×240 photo stands 240×400.
  expect(
    await photo.evaluate((element) => [
      (element as HTMLImageElement).naturalWidth,
      (element as HTMLImageElement).naturalHeight,
    ]),
  ).toEqual([240, 400]);
  await shot(page, `previews-image-${suffix}`);
  await dialog.getByRole('button', { name: 'Rotate right' }).click();
  await dialog.getByRole('button', { name: 'Zoom in' }).click();
  await expect(dialog.getByTestId('image-zoom')).toHaveText('150%');
  await expectDialogFits(page);
  await shot(page, `previews-image-rotated-${suffix}`);
  await closePreview(page);

  dialog = await openAttachment(page, 'hotel-invoice.docx');
  const document = dialog.getByTestId('word-document');
  await expect(document.getByRole('heading', { name: 'Hotel invoice' })).toBeVisible();
  await expect(document.getByRole('cell', { name: 'TZS 300,000' })).toBeVisible();
  await expect
    .poll(() =>
      document.locator('img').evaluate((image) => (image as HTMLImageElement).naturalWidth),
    )
    .toBe(240);
  await expectDialogFits(page);
  await shot(page, `previews-docx-${suffix}`);
  await closePreview(page);

  dialog = await openAttachment(page, 'expenses.xlsx');
  const sheet = dialog.getByTestId('sheet-preview');
  await expect(sheet.getByRole('cell', { name: 'Projector hire' }).first()).toBeVisible();
  await expect(sheet.getByRole('cell', { name: '2026-05-01' })).toBeVisible();
  await expect(sheet.getByRole('tab', { name: 'Summary' })).toBeVisible();
  await expectDialogFits(page);
  await shot(page, `previews-xlsx-${suffix}`);
  await sheet.getByRole('tab', { name: 'Summary' }).click();
  await expect(sheet.getByRole('cell', { name: 'Approved by' })).toBeVisible();
  await closePreview(page);

  dialog = await openAttachment(page, 'mileage.csv');
  await expect(dialog.getByRole('cell', { name: 'Office to site, 12', exact: true })).toBeVisible();
  await expect(dialog.getByTestId('sheet-limit')).toHaveCount(0);
  await shot(page, `previews-csv-${suffix}`);
  await closePreview(page);

  dialog = await openAttachment(page, 'receipts.zip');
  const listing = dialog.getByTestId('zip-listing');
  await expect(listing.getByText('scans/stamp.png')).toBeVisible();
  await expect(listing.getByText('totals.csv', { exact: true })).toBeVisible();
  await expect(listing.getByText('4 files,')).toBeVisible();
  await expectDialogFits(page);
  await shot(page, `previews-zip-${suffix}`);
  // An entry the dialog can show opens in it, and the archive is one click back.
  await listing.getByRole('button', { name: 'Open scans/stamp.png' }).click();
  const entry = dialog.getByTestId('zip-entry');
  const stamp = entry.getByRole('img', { name: 'stamp.png', exact: true });
  await expect(stamp).toBeVisible();
  await expect
    .poll(() => stamp.evaluate((image) => (image as HTMLImageElement).naturalWidth))
    .toBe(240);
  await shot(page, `previews-zip-entry-png-${suffix}`);
  await entry.getByRole('button', { name: 'Back to the archive' }).click();
  await listing.getByRole('button', { name: 'Open totals.csv' }).click();
  await expect(entry.getByRole('cell', { name: 'Projector hire' })).toBeVisible();
  await shot(page, `previews-zip-entry-csv-${suffix}`);
  await entry.getByRole('button', { name: 'Back to the archive' }).click();
  // Each entry downloads on its own.
  const download = page.waitForEvent('download');
  await listing.getByRole('button', { name: 'Download totals.csv' }).click();
  expect((await download).suggestedFilename()).toBe('totals.csv');
  await closePreview(page);
}

test('every kind of receipt is shown in the page, at 1280 and 375 px, under the policy', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const violations = await watchViolations(page);
  await page.setViewportSize(desktop);
  await page.goto('/');
  const jpeg = withExifOrientation(await drawReceipt(page, 'image/jpeg', true), 6);
  const png = await drawReceipt(page, 'image/png', false);
  const pdf = textPdf([
    [
      'Quotation Q-2026-114',
      'Kariakoo Supplies Ltd',
      'Projector hire, 2 days: TZS 240,000',
      'Flip charts: TZS 60,000',
    ],
    ['Page 2: terms', 'Valid for 30 days from the date above.'],
  ]);
  const xlsx = await expensesXlsx();
  const id = await requestWith(
    request,
    {
      'quotation.pdf': pdf,
      'receipt-photo.jpg': jpeg,
      'hotel-invoice.docx': docxOf({ picture: png }),
      'expenses.xlsx': xlsx,
      'mileage.csv': mileageCsv(40),
      'receipts.zip': zipOf([
        { name: 'scans/', data: Buffer.alloc(0) },
        { name: 'scans/stamp.png', data: png },
        {
          name: 'totals.csv',
          data: Buffer.from('Item,Amount\nProjector hire,240000\nFlip charts,60000\n'),
          isDeflated: true,
        },
        { name: 'quotation.pdf', data: pdf, isDeflated: true },
        { name: 'notes.txt', data: Buffer.from('Keep the originals.'), isDeflated: true },
      ]),
    },
    'Every kind of receipt, for the previews',
  );

  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/requests/${id}`);
  await expect(page.getByTestId('attachment-list')).toBeVisible();
  await viewEachKind(page, 1280);
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await viewEachKind(page, 375);

  expect(violations).toEqual([]);
});

test('broken and hostile files fail with a sentence and never script or freeze the page', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const violations = await watchViolations(page);
  const outside: string[] = [];
  page.on('request', (sent) => {
    if (
      !sent.url().startsWith('http://localhost') &&
      !sent.url().startsWith('blob:') &&
      !sent.url().startsWith('data:')
    )
      outside.push(sent.url());
  });
  await page.setViewportSize(desktop);
  await page.goto('/');
  const png = await drawReceipt(page, 'image/png', false);
  const hostileDocx = docxOf({
    picture: png,
    extraBody: `<w:p><w:r><w:t xml:space="preserve">&lt;script&gt;window.pwned = true&lt;/script&gt;&lt;img src=x onerror="window.pwned = true"&gt;</w:t></w:r></w:p>
<w:p><w:hyperlink r:id="rIdScript"><w:r><w:t>Open me</w:t></w:r></w:hyperlink></w:p>
<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="2" name="Tracker" descr="tracker"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="2" name="Tracker"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:link="rIdTracker"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
    extraRelationships: `<Relationship Id="rIdScript" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="javascript:window.pwned=true" TargetMode="External"/>
<Relationship Id="rIdTracker" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="http://tracker.example.net/pixel.png" TargetMode="External"/>`,
  });
  // 60 MB of zeros pack into about 60 KB: listed, never expanded.
  const bomb = zipOf([
    { name: 'zeros.bin', data: Buffer.alloc(60 * 1024 * 1024), isDeflated: true },
    { name: 'blank.csv', data: Buffer.alloc(5 * 1024 * 1024, 0x2c), isDeflated: true },
    { name: 'readme.csv', data: Buffer.from('Note\nThe rest is padding\n'), isDeflated: true },
    { name: 'empty.csv', data: Buffer.alloc(0) },
  ]);
  const garbage = Buffer.concat([
    Buffer.from('%PDF-1.7\n'),
    Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256)),
  ]);
  const id = await requestWith(
    request,
    {
      'broken.pdf': garbage,
      'hostile.docx': hostileDocx,
      'bomb.zip': bomb,
      'big-mileage.csv': mileageCsv(50_000),
    },
    'Broken and hostile files, for the previews',
  );
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/requests/${id}`);

  // A PDF that is garbage after its signature.
  let dialog = await openAttachment(page, 'broken.pdf');
  await expect(dialog.getByText(messages.fileFailedToLoad, { exact: true })).toBeVisible();
  await shot(page, 'previews-broken-pdf-1280');
  await closePreview(page);

  // A Word document with a script, an event handler, a javascript: link and an outside image.
  dialog = await openAttachment(page, 'hostile.docx');
  const document = dialog.getByTestId('word-document');
  await expect(
    document.getByText('<script>window.pwned = true</script>', { exact: false }),
  ).toBeVisible();
  await expect(document.locator('script')).toHaveCount(0);
  await expect(document.locator('[onerror]')).toHaveCount(0);
  await expect(document.locator('a[href^="javascript:"]')).toHaveCount(0);
  for (const source of await document
    .locator('img')
    .evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? '')))
    expect(source === '' || source.startsWith('data:image/')).toBe(true);
  await document.getByText('Open me').click();
  expect(
    await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned),
  ).toBeUndefined();
  await shot(page, 'previews-hostile-docx-1280');
  await closePreview(page);

  // A zip bomb: listed from its directory, its big entries refused, the small ones open.
  dialog = await openAttachment(page, 'bomb.zip');
  const listing = dialog.getByTestId('zip-listing');
  const zeros = listing.getByTestId('zip-entry-row').filter({ hasText: 'zeros.bin' });
  await expect(zeros.getByText(/expands to more than 50 MB/)).toBeVisible();
  await expect(zeros.getByRole('button', { name: 'Download zeros.bin' })).toBeDisabled();
  const blank = listing.getByTestId('zip-entry-row').filter({ hasText: 'blank.csv' });
  await expect(blank.getByText(/more than 100 times its packed size/)).toBeVisible();
  await expect(blank.getByRole('button', { name: 'Open blank.csv' })).toHaveCount(0);
  await shot(page, 'previews-zip-bomb-1280');
  await listing.getByRole('button', { name: 'Open readme.csv' }).click();
  await expect(dialog.getByRole('cell', { name: 'The rest is padding' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Back to the archive' }).click();
  // An empty file says so.
  await listing.getByRole('button', { name: 'Open empty.csv' }).click();
  await expect(dialog.getByText('This file is empty.')).toBeVisible();
  await shot(page, 'previews-empty-file-1280');
  await closePreview(page);

  // 50,000 rows: the first 1,000 are shown with the total, and the page answers meanwhile.
  await page
    .getByTestId('attachment-list')
    .getByRole('button', { name: 'big-mileage.csv' })
    .click();
  const started = Date.now();
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
  expect(Date.now() - started).toBeLessThan(1_000);
  dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('sheet-limit')).toHaveText(
    'Showing the first 1,000 of 50,001 rows. Download the file to see them all.',
    { timeout: 20_000 },
  );
  await expect(dialog.locator('tbody tr')).toHaveCount(1000);
  await shot(page, 'previews-big-csv-1280');
  await page.setViewportSize(phone);
  await expectDialogFits(page);
  await shot(page, 'previews-big-csv-375');
  await closePreview(page);

  expect(outside).toEqual([]);
  expect(violations).toEqual([]);
});
