import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { desktop, shot, signIn } from './support.ts';

// Spec §2 Settings: Download Requests and Download Retirements save spreadsheets of what the
// user can see (every request and retirement of the organisation in admin mode); the e-mail
// notifications switch and the exchange rates are kept. Changes of the rates: settings-rates.

test('finance downloads the requests and the retirements from Settings, once a double click', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/settings');
  const downloads: string[] = [];
  page.on('download', (download) => downloads.push(download.suggestedFilename()));

  for (const [button, header] of [
    ['Download Requests', ['Name', 'Department', 'Purpose', 'Supplier', 'Expenditure date']],
    ['Download Retirements', ['Name']],
  ] as const) {
    await test.step(`${button}, double-clicked, saves one spreadsheet`, async () => {
      const before = downloads.length;
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: button }).dblclick();
      const download = await downloading;
      // A slow double click: its second click arrives once the file is already saved.
      await expect(page.getByRole('button', { name: button })).not.toHaveClass(/ant-btn-loading/);
      await page.mouse.down({ clickCount: 2 });
      await page.mouse.up({ clickCount: 2 });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(await download.path());
      const firstRow = (workbook.worksheets[0]?.getRow(1).values as unknown[]).slice(1);
      expect(firstRow.slice(0, header.length)).toEqual(header);
      // Time enough for a second call's file to arrive, had one been sent.
      await expect(page.getByRole('button', { name: button })).not.toHaveClass(/ant-btn-loading/);
      await page.waitForTimeout(1_500);
      expect(downloads.length - before).toBe(1);
    });
  }
});

test('settings: downloads, notifications and exchange rates', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/settings');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Requests' }).click();
  expect((await download).suggestedFilename()).toBe('Chausiku Finance requests.xlsx');

  const retirements = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Retirements' }).click();
  expect((await retirements).suggestedFilename()).toBe('Chausiku Finance retirements.xlsx');
  await expect(page.getByText('Failed to download')).toHaveCount(0);

  const toggle = page.getByTestId('notifications-switch');
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle.and(page.locator('.ant-switch-loading'))).toHaveCount(0);
  await expect(toggle).not.toBeChecked();
  // Muting is stored (decisions §8 PUT users/settings) and survives a reload.
  await page.reload();
  await expect(page.getByTestId('notifications-switch')).not.toBeChecked();
  await page.getByTestId('notifications-switch').click();
  await expect(page.getByTestId('notifications-switch')).toBeChecked();
  await expect(page.getByText('Failed to update settings')).toHaveCount(0);

  const rates = page.getByTestId('exchange-rates-card');
  await expect(rates).toBeVisible();
  const usd = rates.getByLabel('1 USD in TZS');
  await usd.fill('2700');
  await rates.getByRole('button', { name: 'Save Rates' }).click();
  await expect(page.getByText('Exchange rates saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('exchange-rates-card').getByLabel('1 USD in TZS')).toHaveValue(
    '2,700',
  );
  await shot(page, 'settings-finance-1280');
});
