import { expect, test } from '@playwright/test';
import {
  approveStepThroughApi,
  chooseFromUserMenu,
  createRequest,
  desktop,
  expectNoSidewaysScroll,
  expectOnLastPage,
  failCalls,
  phone,
  shot,
  signIn,
} from './support.ts';

// Home (spec §2): the counts, the recent requests and the requests waiting for the reader's role.
// The organisation's calendar (decisions §1) decides what "today" is; the browser lives in it too.
test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

test('home shows the counts, recent requests and the requests waiting for the role', async ({
  page,
  request,
}) => {
  // Over two pages wait for finance, the newest (130,000) on the last page: oldest first.
  for (let index = 0; index < 20; index += 1) {
    await createRequest(request, { amount_requested: 1_000 + index });
  }
  await createRequest(request, { amount_requested: 130_000 });
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  for (const tile of [
    'Profile',
    'Role',
    'Request Pending Approval',
    'Approved Requests',
    'Rejected Requests',
    'Unretired Requests',
  ]) {
    await expect(page.getByText(tile, { exact: true })).toBeVisible();
  }
  const recent = page.getByTestId('recent-requests');
  await expect(recent.getByText('TZS 130,000').first()).toBeVisible();
  await expect(page.getByTestId('pending-requests')).toHaveCount(0);
  await shot(page, 'home-staff-1280');

  await chooseFromUserMenu(page, 'Log Out');
  // The queue is paged by the server, 10 a page (decisions §2), so every request waiting for the
  // role can be reached, not only the first 100 (issue 13).
  type PendingPage = { data: unknown[]; total: number };
  const pendingPages: { url: URL; body: Promise<PendingPage> }[] = [];
  page.on('response', (response) => {
    if (!response.url().includes('/requests/finance_officer/pending/')) return;
    const body = response.json() as Promise<PendingPage>;
    // The live refreshes' pages are not read, and one still loading as the test navigates away
    // rejects: handled here, so it does not fail the test (CI, 30 November); a read one still does.
    body.catch(() => undefined);
    pendingPages.push({ url: new URL(response.url()), body });
  });
  await signIn(page, 'finance@example.com');
  const pending = page.getByTestId('pending-requests');
  await expectOnLastPage(pending, 'TZS 130,000');
  const [first] = pendingPages;
  expect(first?.url.searchParams.get('per_page')).toBe('10');
  expect(first?.url.searchParams.get('page')).toBe('1');
  const { total, data } = await first!.body;
  expect(data).toHaveLength(10);
  const lastPage = Math.ceil(total / 10);
  expect(lastPage).toBeGreaterThan(1);
  await expect(pending.locator('.ant-pagination-item').last()).toHaveText(String(lastPage));
  await expect(pending.locator('.ant-pagination-item-active')).toHaveText(String(lastPage));
  const last = pendingPages.at(-1)!;
  expect(last.url.searchParams.get('page')).toBe(String(lastPage));
  const onLastPage = (await last.body).data as { id: string }[];
  expect(onLastPage).toHaveLength(total - (lastPage - 1) * 10);

  // The last page's requests are answered elsewhere: the emptied page moves back to the queue's
  // new last page as the live refresh comes, rather than showing none.
  for (const { id } of onLastPage) {
    await approveStepThroughApi(request, 'finance@example.com', id);
  }
  const left = total - onLastPage.length;
  const newLastPage = Math.ceil(left / 10);
  await expect(pending.locator('.ant-pagination-item-active')).toHaveText(String(newLastPage));
  await expect(pending.getByTestId('request-row')).toHaveCount(left - (newLastPage - 1) * 10);

  // Staff mode lists finance's own requests (none); Admin mode everyone's (spec §1, §2).
  await page.goto('/dashboard/requests');
  await expect(page.getByText('No requests found!')).toBeVisible();
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
  await expect(
    page.getByTestId('request-row').filter({ hasText: 'Asha Staff' }).first(),
  ).toBeVisible();
  await page.getByTestId('mode-switcher').getByText('Staff', { exact: true }).click();
  await page.goto('/dashboard');
  await expect(pending.getByTestId('request-row').first()).toBeVisible();
  await shot(page, 'home-finance-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'home-finance-375');
});

test('Home whose counts failed to load shows "–" in the tiles, and Try again loads the real counts', async ({
  page,
}) => {
  const calls = await failCalls(page, '**/api/v1/requests/summary/**');
  await signIn(page, 'staff@example.com');
  const failed = page
    .getByRole('alert')
    .filter({ hasText: 'The request counts could not be loaded just now.' });
  await expect(failed).toBeVisible({ timeout: 15_000 });
  const tileValue = (title: string) =>
    page.locator('.ant-card', { hasText: title }).locator('.ant-statistic-content');
  // An unknown count is not a 0.
  for (const title of ['Request Pending Approval', 'Approved Requests', 'Unretired Requests']) {
    await expect(tileValue(title)).toHaveText('–');
  }

  const release = calls.heal();
  const tryAgain = failed.getByRole('button', { name: 'Try again' });
  await tryAgain.click();
  // The counts are read again in place: loading meanwhile, with no number standing in for them.
  await expect(page.locator('.ant-spin-spinning')).toBeVisible();
  await expect(tileValue('Approved Requests')).toHaveCount(0);
  release();
  await expect(failed).toHaveCount(0);
  for (const title of ['Request Pending Approval', 'Approved Requests', 'Unretired Requests']) {
    await expect(tileValue(title)).toHaveText(/^\d[\d,]*$/);
  }
});
