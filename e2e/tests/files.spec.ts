import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '@imprest/domain/messages.ts';
import {
  choose,
  chooseBudgetCode,
  desktop,
  expectApart,
  expectNoSidewaysScroll,
  minimalPdf,
  onePixelPng,
  openAttachment,
  pageOf,
  phone,
  shot,
  signIn,
} from './support.ts';

// The organisation's calendar (decisions §1) decides "today"; the browser follows it.
test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/** An empty ZIP archive: only the end-of-central-directory record. */
const emptyZip = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]);

async function closePreview(page: Page): Promise<void> {
  // The footer's Close button; the corner's × is named Close too.
  await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** The image is shown and really loaded through its link (no token needed). */
async function expectImageLoaded(dialog: Locator, name: string): Promise<void> {
  const image = dialog.getByRole('img', { name, exact: true });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
    .toBe(1);
}

/** The PDF is drawn in the page by pdf.js (issue 12): its first page and the page count show. */
async function expectPdfShown(dialog: Locator): Promise<void> {
  await expect(dialog.getByTestId('pdf-page').first()).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByTestId('pdf-page-count')).toHaveText(/^Page 1 of \d+$/);
}

test('staff attaches files to a request; the owner and finance preview them', async ({
  page,
  browser,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/new-requests');

  const form = page.getByTestId('request-form');
  await choose(page, 'Purpose', 'Procurement');
  await choose(page, 'Type of Procurement', 'Goods');
  await form.getByLabel('Name of Supplier').fill('Kariakoo Supplies');
  await form
    .getByLabel('Expenditure Justification')
    .fill('Workshop materials; the quotation and the stamp are attached');
  await form.getByLabel('Amount Required').fill('350000');
  await chooseBudgetCode(page, '6105');

  // Spec §2: drag and drop or browse, several files at once, removable chips.
  const area = page.getByTestId('file-upload-area');
  const input = area.locator('input[type="file"]');
  const chips = area.getByTestId('file-chip');
  await input.setInputFiles([
    { name: 'quotation.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
    { name: 'stamp.png', mimeType: 'image/png', buffer: onePixelPng },
    { name: 'draft.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
  ]);
  await expect(chips).toHaveCount(3);
  await expect(area.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(chips.filter({ hasText: 'quotation.pdf' })).toHaveCount(1);
  await area.getByRole('button', { name: 'Remove draft.pdf' }).click();
  await expect(chips).toHaveCount(2);
  await expect(chips.filter({ hasText: 'draft.pdf' })).toHaveCount(0);

  // Spec §9: files can be added again; a refused extension says so and adds nothing.
  await input.setInputFiles([
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ]);
  await expect(area.getByText(messages.fileExtensionNotSupported, { exact: true })).toBeVisible();
  await expect(chips).toHaveCount(2);
  await input.setInputFiles([
    { name: 'receipts.zip', mimeType: 'application/zip', buffer: emptyZip },
  ]);
  await expect(chips).toHaveCount(3);
  await expect(area.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await shot(page, 'files-request-form-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'files-request-form-375');
  await page.setViewportSize(desktop);

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Request successful')).toBeVisible();
  // On a phone the panel's two buttons wrap, one above the other, and do not touch.
  await page.setViewportSize(phone);
  await expectApart(
    page.getByRole('button', { name: 'View requests' }),
    page.getByRole('button', { name: 'Open this request' }),
  );
  await shot(page, 'files-request-successful-375');
  await page.setViewportSize(desktop);
  await page.getByRole('button', { name: 'Open this request' }).click();
  await expect(page.getByText('Approval Request', { exact: true })).toBeVisible();
  const id = page.url().split('/').pop() ?? '';

  // The request view lists the files by their names, without the random prefix (spec §3).
  const attachments = page.getByTestId('attachment-list');
  for (const name of ['quotation.pdf', 'stamp.png', 'receipts.zip']) {
    await expect(attachments.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(attachments.getByText('draft.pdf')).toHaveCount(0);

  let dialog = await openAttachment(page, 'quotation.pdf');
  await expectPdfShown(dialog);
  await shot(page, 'files-preview-pdf-1280');
  await closePreview(page);

  dialog = await openAttachment(page, 'stamp.png');
  await expectImageLoaded(dialog, 'stamp.png');
  await shot(page, 'files-preview-image-1280');
  await closePreview(page);

  // A ZIP archive is listed in the browser (issue 12); this one holds nothing.
  dialog = await openAttachment(page, 'receipts.zip');
  await expect(dialog.getByText('This archive is empty.', { exact: true })).toBeVisible();
  await closePreview(page);

  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'files-request-view-375');
  dialog = await openAttachment(page, 'stamp.png');
  await expectImageLoaded(dialog, 'stamp.png');
  await shot(page, 'files-preview-image-375');
  await closePreview(page);

  // Finance (admin) sees the same files.
  const finance = await pageOf(browser, 'finance@example.com');
  await finance.goto(`/dashboard/requests/${id}`);
  dialog = await openAttachment(finance, 'quotation.pdf');
  await expectPdfShown(dialog);
  await closePreview(finance);
  dialog = await openAttachment(finance, 'stamp.png');
  await expectImageLoaded(dialog, 'stamp.png');
  await shot(finance, 'files-preview-finance-1280');
  await closePreview(finance);

  // Spec §9 messages when the link cannot be had: a 404 (the file is gone, or not the caller's to
  // see) and any other failure. Answered here by the browser, as the server would.
  const presignedGet = /\/api\/v1\/files\/presigned-get-url\?/;
  await finance.route(presignedGet, (route) =>
    route.fulfill({ status: 404, json: { error: 'File not found!' } }),
  );
  dialog = await openAttachment(finance, 'receipts.zip');
  await expect(dialog.getByText(messages.fileNotFound, { exact: true })).toBeVisible();
  await closePreview(finance);
  await finance.unroute(presignedGet);
  await finance.reload();
  await finance.route(presignedGet, (route) =>
    route.fulfill({ status: 500, json: { error: 'Something went wrong' } }),
  );
  dialog = await openAttachment(finance, 'quotation.pdf');
  await expect(dialog.getByText(messages.fileFailedToLoad, { exact: true })).toBeVisible();
  await finance.context().close();
});
