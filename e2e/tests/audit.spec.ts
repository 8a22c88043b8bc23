import { expect, test, type Page } from '@playwright/test';
import {
  apiToken,
  createRequest,
  desktop,
  expectNoSidewaysScroll,
  expectPickerInside,
  failCalls,
  phone,
  retirementAwaitingOwner,
  shot,
  signIn,
} from './support.ts';

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/*
 * Issue 15: the director's Audit page lists who did what, when and from where, filtered, newest
 * first; each request shows its own history to whoever may open it.
 */
/** Narrows the trail to one action, typed into the Action filter and picked from its list. */
async function filterByAction(page: Page, action: string): Promise<void> {
  await page.getByLabel('Action').fill(action);
  await page.locator('.ant-select-dropdown:visible').getByTitle(action, { exact: true }).click();
}

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
  // The filters' card starts where every page's content does, at the content's padding: a gap
  // above it (an inline box's line height) would set this page apart.
  const offset = await page.getByTestId('audit-page').evaluate((element) => {
    const content = element.parentElement as HTMLElement;
    const padding = Number.parseFloat(getComputedStyle(content).paddingTop);
    return element.getBoundingClientRect().top - content.getBoundingClientRect().top - padding;
  });
  expect(offset).toBe(0);

  // The options are a virtual list: typing narrows it to the one wanted.
  await filterByAction(page, 'Request submitted');
  await expect(table.getByText('Request submitted').first()).toBeVisible();
  await expect(table.getByText('Signed in')).toHaveCount(0);
  // What changed reads as the request's own page: its labels (a procurement's supplier), its
  // purpose and date in words.
  const submitted = table.locator('tbody tr').filter({ hasText: 'Audit Traders' }).first();
  await expect(
    submitted.getByText('Name of Supplier: Audit Traders', { exact: true }),
  ).toBeVisible();
  await expect(submitted.getByText(/^Purpose: [A-Z][a-z]/)).toBeVisible();
  await expect(submitted.getByText(/^Currency: TZS$/)).toBeVisible();
  await expect(
    submitted.getByText(/^Intended Expenditure Date: \d{2}\/\d{2}\/\d{4}$/),
  ).toBeVisible();
  await shot(page, 'audit-page-1280');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).click();
  expect((await downloading).suggestedFilename()).toBe('Audit trail.xlsx');

  // The event's object opens its page.
  await submitted.getByRole('link', { name: id.slice(0, 8), exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${id}$`));
  await expect(page.getByText('Audit Traders').first()).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/audit/);

  // A laptop (1280 px) has room for every column without scrolling.
  const wrapper = page.getByTestId('audit-table').locator('.ant-table-content');
  expect(await wrapper.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
  const changes = await page.getByRole('columnheader', { name: 'CHANGES' }).boundingBox();
  expect(changes?.width).toBeGreaterThanOrEqual(220);
  // Narrower (a small laptop, a tablet), each event folds into one block, so what changed keeps
  // the table's width rather than one letter a line beside the other columns.
  for (const width of [1200, 1024, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(submitted.getByTestId('audit-event')).toBeVisible();
    const supplier = await submitted
      .getByText('Name of Supplier: Audit Traders', { exact: true })
      .boundingBox();
    expect(supplier?.height, `a change's line at ${width} px`).toBeLessThan(30);
    await expectNoSidewaysScroll(page);
  }

  await page.setViewportSize(phone);
  // On a phone the footer leads there too: six items still fit 375 px.
  const footer = page.getByTestId('mobile-footer');
  await expect(footer.getByRole('link', { name: 'Audit' })).toBeVisible();
  await expect(page.getByTestId('audit-event').first()).toBeVisible();
  // There too the request's id opens it.
  await expect(
    page
      .getByTestId('audit-event')
      .filter({ hasText: 'Audit Traders' })
      .getByRole('link', { name: id.slice(0, 8), exact: true }),
  ).toHaveAttribute('href', `/dashboard/requests/${id}`);
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
  // Its address leads Home, without asking the server for the trail (which refuses: audit tests).
  const asked: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname.startsWith('/api/v1/audit')) asked.push(sent.url());
  });
  await page.goto('/dashboard/audit');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  await expect(page.getByTestId('audit-page')).toHaveCount(0);
  expect(asked).toEqual([]);
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

test('the Download: one file per double click, and "Failed to download" when it fails (spec §8)', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/audit');
  await expect(
    page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first(),
  ).toBeVisible();
  let calls = 0;
  let isFailing = false;
  await page.route('**/api/v1/audit/download**', async (route) => {
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 800));
    if (isFailing)
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Service unavailable' }),
      });
    else await route.continue();
  });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download' }).dblclick();
  await download;
  await expect(page.getByRole('button', { name: 'Download' })).not.toHaveClass(/ant-btn-loading/);
  expect(calls).toBe(1);
  isFailing = true;
  await page.getByRole('button', { name: 'Download' }).click();
  await expect(page.getByText('Failed to download: Service unavailable')).toBeVisible();
});

test('what changed reads in words: amounts grouped by thousands (spec §9), codes as the pages name them', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/audit');
  // The seed's budgets were created before the other tests' events: the filter finds them.
  await filterByAction(page, 'Budget created');
  const created = page
    .getByTestId('audit-table')
    .locator('tbody tr')
    .filter({ hasText: 'Budget created' })
    .first();
  await expect(created).toContainText(/Amount: /);
  const text = await created.innerText();
  const amount = /(?:^|\n)Amount: ([^\n]+)/.exec(text)?.[1] ?? '';
  expect(amount).toMatch(/^\d{1,3}(,\d{3})+(\.\d+)?$/);
  // Codes in words, as the budget's own page writes them: no "stemKits", "tzs" or ["…"].
  expect(text).toMatch(/(?:^|\n)Department: (All departments|[A-Z][a-z]+( [A-Z][a-z]+)*)(\n|$)/);
  expect(text).toMatch(/(?:^|\n)Currency: [A-Z]{3}(\n|$)/);
  expect(text).toMatch(/(?:^|\n)Status: Active(\n|$)/);
  expect(text).not.toMatch(/\["|\{"/);
});

test("a retirement's event opens its request's retirement page; a budget's, the budget", async ({
  page,
  request,
}) => {
  const { id } = await retirementAwaitingOwner(request);

  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/audit');
  const table = page.getByTestId('audit-table');
  const filterAction = async (action: string) => {
    await filterByAction(page, action);
    await expect(table.locator('tbody tr.ant-table-row').first()).toContainText(action);
  };
  await filterAction('Retirement requested');
  const attached = table.locator('tbody tr').filter({ hasText: `Request: ${id}` });
  await attached.getByTitle('Open this retirement').click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/retirements/${id}$`));
  await expect(page.getByText('Retirement Form', { exact: true })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/audit/);
  await page.getByLabel('Action').clear();
  await filterAction('Budget created');
  const budget = table.locator('tbody tr').filter({ hasText: 'Budget created' }).first();
  const code = /(?:^|\n)Code: (\d+)/.exec(await budget.innerText())?.[1];
  await budget.getByTitle('Open this budget').click();
  await expect(page).toHaveURL(/\/dashboard\/budget\/\d+$/);
  expect(code, 'the budget code in what changed').toBeDefined();
  await expect(page.getByTestId('page-title')).toHaveText(`Budget - ${code}`);
});

test.describe('a director whose browser is on London time', () => {
  test.use({ timezoneId: 'Europe/London' });

  test('reads when things happened on the organisation clock, as the day filters count them', async ({
    page,
  }) => {
    await page.setViewportSize(desktop);
    await signIn(page, 'director@example.com');
    const signedInAt = Date.now();
    await page.goto('/dashboard/audit');
    const first = page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first();
    await expect(first).toContainText('Signed in');
    const inDar = (time: number) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Africa/Dar_es_Salaam',
        dateStyle: 'short',
        timeStyle: 'short',
      })
        .format(new Date(time))
        .replace(',', '');
    const when = (await first.locator('td').first().innerText()).trim();
    expect([inDar(signedInAt - 60_000), inDar(signedInAt), inDar(signedInAt + 60_000)]).toContain(
      when,
    );

    // A budget's changelog and a request's versions read the same clock.
    const token = await apiToken(page.request, 'director@example.com');
    const budget = await page.request.get('/api/v1/budget/4001', {
      headers: { Authorization: `Bearer ${token}` },
    });
    const { changelog } = (
      (await budget.json()) as {
        data: { changelog: { created_at: string }[] };
      }
    ).data;
    await page.goto('/dashboard/budget/4001');
    await expect(page.getByTestId('budget-changelog')).toContainText(
      inDar(Date.parse(changelog[0]?.created_at ?? '')),
    );
    const id = await createRequest(page.request);
    const createdAt = Date.now();
    await page.goto(`/dashboard/view-request/${id}`);
    const version = page.getByLabel('Select request version');
    await expect(version).toBeVisible();
    const shown = await page.locator('.ant-select', { has: version }).innerText();
    expect(
      [inDar(createdAt - 60_000), inDar(createdAt), inDar(createdAt + 60_000)].some((time) =>
        shown.includes(`${time} · Version 1`),
      ),
      shown,
    ).toBe(true);
  });
});

test('an audit trail that failed to load says so without "No events found!", and Try again loads it', async ({
  page,
}) => {
  const calls = await failCalls(page, '**/api/v1/audit?**');
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/audit');
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No events found!')).toHaveCount(0);
  const tryAgain = page.getByRole('alert').getByRole('button', { name: 'Try again' });
  calls.heal()();
  await tryAgain.click();
  await expect(page.getByTestId('audit-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
