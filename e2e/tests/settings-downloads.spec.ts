import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { desktop, signIn } from './support.ts';

// Spec §2 Settings: Download Requests and Download Retirements save spreadsheets of what the
// user can see (every request and retirement of the organisation in admin mode).

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
