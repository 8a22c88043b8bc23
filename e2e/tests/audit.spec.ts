import { expect, test } from '@playwright/test';
import {
  createRequest,
  desktop,
  expectNoSidewaysScroll,
  expectPickerInside,
  phone,
  shot,
  signIn,
} from './support.ts';

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/*
 * Issue 15: the director's Audit page lists who did what, when and from where, filtered, newest
 * first; each request shows its own history to whoever may open it.
 */
test('the director filters the audit trail and downloads it; a request shows its history', async ({
  page,
  request,
}) => {
  const id = await createRequest(request, { name_of_establishment: 'Audit Traders' });

  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Audit', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/audit$/);
  await expect(page.getByTestId('page-title')).toHaveText('Audit');
  const table = page.getByTestId('audit-table');
  await expect(table.getByText('Signed in').first()).toBeVisible();

  // The options are a virtual list: typing narrows it to the one wanted.
  await page.getByLabel('Action').fill('Request submitted');
  await page
    .locator('.ant-select-dropdown:visible')
    .getByTitle('Request submitted', { exact: true })
    .click();
  await expect(table.getByText('Request submitted').first()).toBeVisible();
  await expect(table.getByText('Signed in')).toHaveCount(0);
  await expect(table.getByText('name of establishment: Audit Traders').first()).toBeVisible();
  await shot(page, 'audit-page-1280');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await downloading).suggestedFilename()).toBe('Audit trail.xlsx');

  await page.setViewportSize(phone);
  // On a phone the footer leads there too: six items still fit 375 px.
  const footer = page.getByTestId('mobile-footer');
  await expect(footer.getByRole('link', { name: 'Audit' })).toBeVisible();
  await expect(page.getByTestId('audit-event').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'audit-page-375');

  // The request's own history, on its page.
  await page.goto(`/dashboard/requests/${id}`);
  const history = page.getByTestId('object-history');
  await history.getByText('History').click();
  await expect(history.getByText('Request submitted')).toBeVisible();
  await expect(history.getByText(/Asha Staff/)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'request-history-375');
});

test('the Audit page is the director’s alone', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'finance@example.com');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Settings', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Audit', exact: true })).toHaveCount(0);
  await page.goto('/dashboard/audit');
  await expect(page.getByText('Only the director can read the audit trail.')).toBeVisible();
});

test('at 375 px the date pickers of the audit trail and of Out of office open inside the screen', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/audit');
  await page.getByPlaceholder('Start date').click();
  await expectPickerInside(page);
  // The month's arrows lead on: the month before, where an audit usually looks.
  const dropdown = page.locator('.ant-picker-dropdown:visible');
  const month = dropdown.locator('.ant-picker-header-view').first();
  const shown = await month.innerText();
  await dropdown.locator('.ant-picker-header-prev-btn').first().click();
  await expect(month).not.toHaveText(shown);
  await shot(page, 'audit-dates-375');
  await page.keyboard.press('Escape');

  await page.goto('/dashboard/settings');
  await page.getByPlaceholder('First day').click();
  await expectPickerInside(page);
  await shot(page, 'out-of-office-days-375');
});
