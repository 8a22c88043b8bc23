import { expect, test, type Page } from '@playwright/test';
import { catchUpMarginMs } from '@imprest/domain/realtime.ts';
import {
  approveStepThroughApi,
  createRequest,
  demoPassword,
  desktop,
  expectOnLastPage,
  pageOf,
  phone,
  signIn,
} from './support.ts';

/** An amount no other test uses, so the new request is recognisable in any list. */
function uniqueAmount(): number {
  return 100_000 + Math.floor(Math.random() * 800_000);
}

function tzs(amount: number): string {
  return `TZS ${amount.toLocaleString('en-GB')}`;
}

/** The number on the Home tile 'Request Pending Approval', once it has loaded. */
async function pendingCount(page: Page): Promise<number> {
  const value = page
    .locator('.ant-card')
    .filter({ hasText: 'Request Pending Approval' })
    .locator('.ant-statistic-content-value');
  await expect(value).toHaveText(/^\d[\d,]*$/);
  return Number((await value.innerText()).replace(/\D/g, ''));
}

test('home lists and counters refresh live when someone submits a request', async ({
  browser,
  request,
}) => {
  const finance = await pageOf(browser, 'finance@example.com');
  await expect(finance.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  const pendingList = finance.getByTestId('pending-requests');
  await expect(pendingList).toBeVisible();

  const staffHome = await pageOf(browser, 'staff@example.com');
  await expect(staffHome.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  const before = await pendingCount(staffHome);

  // Submitted through the API as staff@example.com: no page of either user reloads.
  const amount = uniqueAmount();
  await expect(pendingList.getByText(tzs(amount))).toHaveCount(0);
  await createRequest(request, { amount_requested: amount });

  // It arrives without a reload, on the last page of the oldest-first queue.
  await expectOnLastPage(pendingList, tzs(amount), { timeout: 15_000 });
  await expect.poll(() => pendingCount(staffHome), { timeout: 15_000 }).toBe(before + 1);
  await expect(
    staffHome.getByTestId('recent-requests').getByText(tzs(amount)).first(),
  ).toBeVisible();

  await finance.locator('.dashboard-header').screenshot({
    path: '../.tmp/screenshots/header-indicator-1280.png',
  });
  await finance.setViewportSize(phone);
  await expect(finance.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  await finance.locator('.dashboard-header').screenshot({
    path: '../.tmp/screenshots/header-indicator-375.png',
  });
  await finance.context().close();
  await staffHome.context().close();
});

test('an e-mail link opened signed out leads to its page after signing in', async ({
  page,
  request,
}) => {
  const amount = uniqueAmount();
  const id = await createRequest(request, { amount_requested: amount });
  await page.setViewportSize(desktop);

  await page.goto(`/dashboard/view-request/${id}`);
  await expect(page).toHaveURL(/\/\?next=/);
  await page.getByLabel('Email').fill('staff@example.com');
  await page.getByLabel('Password').fill(demoPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();

  await expect(page).toHaveURL(new RegExp(`/dashboard/view-request/${id}$`));
  await expect(
    page.getByText(amount.toLocaleString('en-GB'), { exact: true }).first(),
  ).toBeVisible();
});

test('the sign-in page ignores a next path outside the dashboard', async ({ page }) => {
  await page.goto('/?next=//evil.example/dashboard');
  await page.getByLabel('Email').fill('staff@example.com');
  await page.getByLabel('Password').fill(demoPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/localhost:\d+\/dashboard$/);
});

test('the open request preview follows its request as the list refreshes', async ({
  page,
  request,
}) => {
  const amount = uniqueAmount();
  const id = await createRequest(request, {
    amount_requested: amount,
    expenditure_justification: 'Live preview',
  });
  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/requests');
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
  const row = page.getByTestId('request-row').filter({ hasText: tzs(amount) });
  await expect(row).toContainText('Pending');
  await expect(page.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  await row.getByRole('cell').first().click();
  const preview = page.getByTestId('request-preview');
  await expect(preview).toContainText('Pending');

  await approveStepThroughApi(request, 'finance@example.com', id);
  await expect(row).toContainText('On progress');
  // The panel used to keep the row as it was opened: Pending under an On progress list.
  await expect(preview).toContainText('On progress');
});

test('after a short network drop the live indicator says connected again, and the lists catch up', async ({
  page,
  context,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'finance@example.com');
  const indicator = page.getByTestId('connection-indicator');
  await expect(indicator).toHaveAttribute('data-status', 'connected', { timeout: 15_000 });
  await context.setOffline(true);
  await expect(indicator).toHaveAttribute('data-status', /offline|reconnecting/);
  await page.waitForTimeout(3_000);
  const refetched = page.waitForRequest((request) => request.url().includes('/api/v1/'));
  await context.setOffline(false);
  await expect(indicator).toHaveAttribute('data-status', 'connected', { timeout: 10_000 });
  await refetched;
});

test("while the live connection cannot be made, it is retried over the server's own transports, without a page error", async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await page.addInitScript(() => {
    const marks = window as unknown as { refuseLive?: boolean };
    // Each WebTransport the page opens: socket.io's tries one once its other transports failed,
    // and its refused handshake ("Opening handshake failed.") was a page error.
    const OriginalTransport = window.WebTransport;
    if (OriginalTransport) {
      window.WebTransport = class extends OriginalTransport {
        constructor(...args: ConstructorParameters<typeof WebTransport>) {
          console.error(`WebTransport opened to ${String(args[0])}`);
          super(...args);
        }
      };
    }
    // While refusing, a WebSocket to the live connection is refused, as by a server that is down.
    const OriginalSocket = window.WebSocket;
    window.WebSocket = class extends OriginalSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        const refused = marks.refuseLive && String(url).includes('/socket.io/');
        super(refused ? 'ws://127.0.0.1:9/socket.io/' : url, protocols);
      }
    };
    marks.refuseLive = true;
  });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.text().startsWith('WebTransport opened')) problems.push(message.text());
  });
  let polls = 0;
  await page.route('**/socket.io/**', (route) => {
    polls += 1;
    return route.abort('connectionrefused');
  });
  await signIn(page, 'finance@example.com');
  const indicator = page.getByTestId('connection-indicator');
  // Tried and retried (1 s apart, at most 5 s), each time long-polling, then WebSocket.
  await expect.poll(() => polls, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
  await expect(indicator).toHaveAttribute('data-status', /connecting/);
  expect(problems).toEqual([]);

  // Reachable again: connected by itself.
  await page.unrouteAll();
  await page.evaluate(() => {
    (window as unknown as { refuseLive?: boolean }).refuseLive = false;
  });
  await expect(indicator).toHaveAttribute('data-status', 'connected', { timeout: 15_000 });
  expect(problems).toEqual([]);
});

/** What a page says when a read got no answer at all (lib/api-client.ts). */
const unreachable = 'The server could not be reached. Check your connection and try again.';

/** Signs in and lets the service worker take the page, so the app's own files load offline too. */
async function signInWithServiceWorker(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)))
    .toBe(true);
}

test('a page opened offline says the server cannot be reached, and loads by itself once the network is back', async ({
  page,
  context,
}) => {
  await page.setViewportSize(phone);
  await signInWithServiceWorker(page, 'finance@example.com');
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();

  // Opened offline (the service worker serves the app): it says so, rather than spinning.
  await context.setOffline(true);
  await page.goto('/dashboard/edit-budget/4001');
  await expect(page.getByText(unreachable)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Loading budget…')).toHaveCount(0);
  await context.setOffline(false);
  await expect(page.getByTestId('edit-budget-code')).toHaveText('4001', { timeout: 15_000 });

  // A list reached offline through the menu: the same, and no "No requests found!" claim.
  await context.setOffline(true);
  await page.goto('/dashboard/requests');
  await expect(page.getByText(unreachable)).toBeVisible({ timeout: 15_000 });
  await context.setOffline(false);
  await expect(page.getByTestId('request-row').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(unreachable)).toHaveCount(0);
});

test('a read left hanging through a network drop is sent again once the network is back', async ({
  page,
  context,
}) => {
  await signIn(page, 'finance@example.com');
  let calls = 0;
  await page.route('**/api/v1/budget/4001', async (route) => {
    calls += 1;
    // The first call never gets an answer, as over a connection that died without a word.
    if (calls > 1) await route.continue();
  });
  await page.goto('/dashboard/edit-budget/4001');
  await expect.poll(() => calls).toBe(1);
  await expect(page.getByText('Loading budget…')).toBeVisible();
  await context.setOffline(true);
  await page.waitForTimeout(1_000);
  await context.setOffline(false);
  await expect(page.getByTestId('edit-budget-code')).toHaveText('4001', { timeout: 10_000 });
});

test('a page that missed nothing does not fetch its data again as its socket joins', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  // Home asks Getting started's two questions last, once its code has come (seconds after signing
  // in on a busy machine): the first load's answers are awaited, so that none of its requests is
  // counted as the reload's.
  const firstLoadAsked = Promise.all(
    ['/api/v1/approval-matrix/vacancies', '/api/v1/budget/codes'].map((path) =>
      page.waitForResponse((response) => new URL(response.url()).pathname === path),
    ),
  );
  await signIn(page, 'finance@example.com');
  await firstLoadAsked;
  // The organisation quiet for longer than the clocks' margin before the page loads: the last
  // event, if any, came before the page's data (docs/decisions/0030).
  await page.waitForTimeout(catchUpMarginMs + 1_000);
  const welcomed = new Promise<void>((resolve) => {
    const isWelcome = (text: string) => text.includes('"welcome"');
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (isWelcome(String(payload))) resolve();
      }),
    );
    page.on('response', (response) => {
      if (!response.url().includes('/socket.io/')) return;
      void response.text().then(
        (text) => {
          if (isWelcome(text)) resolve();
        },
        () => undefined,
      );
    });
  });
  const asked: string[] = [];
  page.on('request', (sent) => asked.push(new URL(sent.url()).pathname));
  await page.reload();
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  await welcomed;
  // What the welcome would have set off (the session's check and the lists on screen) starts at
  // once; a second is room enough for it to show.
  await page.waitForTimeout(1_000);
  const api = asked
    .filter((path) => path.startsWith('/api/v1/'))
    .map((path) => path.replace(/[0-9a-f-]{36}/, ':id'));
  // Each once: Home's lists, the session's check, and (for an admin) Getting started's two
  // questions (docs/decisions/0041).
  expect(api.sort()).toEqual([
    '/api/v1/approval-matrix/vacancies',
    '/api/v1/budget/codes',
    '/api/v1/requests/finance_officer/pending/:id',
    '/api/v1/requests/summary/:id',
    '/api/v1/requests/user/:id',
    '/api/v1/retirement/pending',
    '/api/v1/users/validate-token',
  ]);
});
