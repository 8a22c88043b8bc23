import { expect, test } from '@playwright/test';
import {
  apiToken,
  desktop,
  minimalPdf,
  onePixelPng,
  shot,
  signIn,
  uploadThroughApi,
  watchViolations,
} from './support.ts';

// The app under its Content-Security-Policy (ASVS 3.4.3): no page, preview or worker is refused
// anything. A refusal shows as a `securitypolicyviolation` event or a console error.

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

test('the app runs under its policy: home, a request with an image and a PDF, settings', async ({
  page,
  request,
}) => {
  const violations = await watchViolations(page);
  await page.setViewportSize(desktop);

  const home = await page.request.get('/');
  const policy = home.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(home.headers()['x-content-type-options']).toBe('nosniff');

  const token = await apiToken(request, 'staff@example.com');
  const image = await uploadThroughApi(request, token, 'stamp.png', onePixelPng, 'image/png');
  const pdf = await uploadThroughApi(
    request,
    token,
    'quotation.pdf',
    minimalPdf(),
    'application/pdf',
  );
  const inFiveDays = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const created = await request.post('/api/v1/requests', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      purpose: 'procurement',
      mode_of_service: 'goods',
      name_of_establishment: 'Kariakoo Supplies',
      expenditure_justification: 'Stamps for the security header check',
      amount_requested: 120_000,
      amount_currency: 'tzs',
      budget_code: '6105',
      payment_mode: 'bank_transfer',
      tax_status: 'taxInclusive',
      expenditure_date: inFiveDays,
      file_paths: [image, pdf],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await signIn(page, 'staff@example.com');
  await expect(page.getByTestId('page-title')).toBeVisible();
  await shot(page, 'security-headers-home-1280');

  // The service worker registers under the policy (worker-src 'self').
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toMatch(/^http:\/\/localhost:\d+\/$/);

  // antd's CSS-in-JS styles apply (style-src 'unsafe-inline'): the primary button is coloured.
  await page.goto('/dashboard/new-requests');
  const submit = page.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeVisible();
  expect(await submit.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(
    'rgba(0, 0, 0, 0)',
  );
  // An upload from the form goes to the store (connect-src).
  const area = page.getByTestId('file-upload-area');
  await area
    .locator('input[type="file"]')
    .setInputFiles([{ name: 'receipt.png', mimeType: 'image/png', buffer: onePixelPng }]);
  await expect(area.getByTestId('file-chip')).toHaveCount(1);
  await expect(area.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(area.getByTestId('file-chip').getByText('receipt.png')).toBeVisible();
  await shot(page, 'security-headers-request-form-1280');

  await page.goto(`/dashboard/requests/${id}`);
  const attachments = page.getByTestId('attachment-list');
  await attachments.getByRole('button', { name: 'stamp.png', exact: true }).click();
  let dialog = page.getByRole('dialog');
  const picture = dialog.getByRole('img', { name: 'stamp.png', exact: true });
  await expect(picture).toBeVisible();
  await expect
    .poll(() => picture.evaluate((element) => (element as HTMLImageElement).naturalWidth))
    .toBe(1);
  await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await attachments.getByRole('button', { name: 'quotation.pdf', exact: true }).click();
  dialog = page.getByRole('dialog');
  // pdf.js draws the PDF in the page (issue 12), under the page's own policy.
  await expect(dialog.getByTestId('pdf-page').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForTimeout(1_000);
  await shot(page, 'security-headers-preview-pdf-1280');
  await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  // Opened on its own, a stored image is a sandboxed document that still shows the picture.
  const link = await request.get(`/api/v1/files/presigned-get-url?file_name=${image}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { url: imageUrl } = (await link.json()) as { url: string };
  const opened = await page.goto(imageUrl);
  expect(opened?.headers()['content-security-policy']).toContain('sandbox');
  expect(opened?.headers()['content-disposition']).toMatch(/^inline;/);
  await expect
    .poll(() => page.evaluate(() => document.querySelector('img')?.naturalWidth ?? 0))
    .toBe(1);

  await page.goto('/dashboard/settings');
  await expect(page.getByTestId('page-title')).toHaveText('Settings');
  await shot(page, 'security-headers-settings-1280');

  expect(violations).toEqual([]);
});

test('the API docs run under the policy too', async ({ page }) => {
  const violations = await watchViolations(page);
  await page.goto('/api/docs');
  await expect(page.getByText('Imprest API').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.opblock').first()).toBeVisible();
  await shot(page, 'security-headers-api-docs-1280');
  expect(violations).toEqual([]);
});
