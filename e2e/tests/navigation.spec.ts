import { expect, test } from '@playwright/test';
import { createRequest, desktop, shot, signIn } from './support.ts';

// Coming back: a list opened again with Back (the browser's, or a page's own Back, which is
// history −1) is as it was left, and a page's Back leads where its user came from.

test.use({ timezoneId: 'Africa/Dar_es_Salaam', viewport: desktop });

test('Back from a request opened on page 2 of the list returns to page 2', async ({
  page,
  request,
}) => {
  // Enough requests for a second page of 10, whatever ran before.
  for (let index = 0; index < 11; index += 1) {
    await createRequest(request, { expenditure_justification: `Navigation page ${index}` });
  }
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/requests');
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
  const pager = page.locator('.ant-pagination');
  const rows = page.getByTestId('request-row');
  await expect(rows.first()).toBeVisible();
  await pager.getByTitle('2', { exact: true }).click();
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('2');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const pageTwo = await rows.allInnerTexts();

  await rows.first().getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests\/[0-9a-f-]{36}$/);
  await page.getByTestId('request-view').getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('2');
  await expect(rows.first()).toBeVisible();
  expect(await rows.allInnerTexts()).toEqual(pageTwo);

  // The menu opens the list anew, on page 1.
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  await menu.getByRole('link', { name: 'Requests', exact: true }).click();
  await expect(rows.first()).toBeVisible();
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('1');
});

test('Back from a request found with the status filter keeps the filter', async ({ page }) => {
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/requests');
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
  await page.getByTestId('status-filter').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('Pending', { exact: true }).click();
  const rows = page.getByTestId('request-row');
  await expect(rows.first()).toContainText('Pending');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const found = await rows.allInnerTexts();
  await rows.first().getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests\/[0-9a-f-]{36}$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  await expect(page.getByTestId('status-filter')).toContainText('Pending');
  await expect(rows.first()).toBeVisible();
  expect(await rows.allInnerTexts()).toEqual(found);
});

test('Back from a budget found by searching keeps the search and its results', async ({ page }) => {
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/budget');
  const search = page.getByLabel('Search budgets');
  const rows = page.locator('tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const all = await rows.count();
  await search.fill('park');
  await expect(rows.first()).toContainText(/park/i);
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const found = await rows.allInnerTexts();
  expect(found.length).toBeLessThan(all);
  await rows.first().getByRole('button', { name: 'View Budget' }).click();
  await expect(page).toHaveURL(/\/dashboard\/budget\/\d+$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/budget$/);
  await expect(search).toHaveValue('park');
  await expect(rows.first()).toBeVisible();
  expect(await rows.allInnerTexts()).toEqual(found);
});

test("the approval matrix's Back returns to the request after Edit and Cancel", async ({
  page,
  request,
}) => {
  const id = await createRequest(request);
  await signIn(page, 'director@example.com');
  await page.goto(`/dashboard/requests/${id}`);
  await page.getByRole('button', { name: 'See Approval Matrix' }).click();
  await expect(page).toHaveURL(/\/dashboard\/approval-matrix$/);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/approval-object$/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/dashboard\/approval-matrix$/);
  // One press: it used to land on a second copy of the matrix that Cancel had left behind.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${id}$`));
});

test.describe('without a service worker', () => {
  // The service worker precaches every file of the build once installed, and from then on serves
  // the pages it controls from that cache: a page opened after it took over fetches no code from
  // the network, so going offline cannot fail it. That is the point of it, but it made this test
  // a race (on a quick machine it installed before the page below was opened, and Edit Budget
  // opened offline). Without it, the page fetches its code as a tab left open across a release
  // does for the files the new release renamed, which no cache holds.
  test.use({ serviceWorkers: 'block' });

  test('a page whose code cannot be fetched says so in words and reloads once back online', async ({
    page,
  }) => {
    await page.setViewportSize(desktop);
    await signIn(page, 'finance@example.com');
    await page.goto('/dashboard/budget/9024');
    await expect(page.getByRole('button', { name: 'Edit Budget' })).toBeVisible();
    // The network drops as Edit Budget is opened, before its code has ever been fetched (as after
    // a release that replaced the files an open tab names).
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Edit Budget' }).click();
    const error = page.getByTestId('route-error');
    await expect(error.getByRole('heading')).toHaveText('This page could not be loaded.');
    await expect(error).toContainText('You seem to be offline.');
    await expect(page.getByText('Hey developer')).toHaveCount(0);
    await page.context().setOffline(false);
    await expect(error).toContainText('Reload to continue.');
    await shot(page, 'route-error-1280');
    await error.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByTestId('edit-budget-code')).toHaveText('9024');
  });
});
