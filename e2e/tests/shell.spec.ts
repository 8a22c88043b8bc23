import { expect, test } from '@playwright/test';
import { messages } from '@imprest/domain/messages.ts';
import { isAdmin, isFinance } from '@imprest/domain/permissions.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { chooseFromUserMenu, shot, signIn } from './support.ts';

const accounts: { email: string; role: Role }[] = [
  { email: 'staff@example.com', role: 'staff' },
  { email: 'custodian@example.com', role: 'petty_cash_custodian' },
  { email: 'finance@example.com', role: 'finance_officer' },
  { email: 'secretary@example.com', role: 'executive_secretary' },
  { email: 'director@example.com', role: 'director' },
  { email: 'chairman@example.com', role: 'board_chairman' },
  { email: 'admin@example.com', role: 'admin' },
  { email: 'parkmanager@example.com', role: 'stem_park_manager' },
];

test('a wrong password shows Invalid credentials and stays on sign-in', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText(messages.tagline)).toBeVisible();
  await page.getByLabel('Email').fill('staff@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(messages.invalidCredentials)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await shot(page, 'sign-in-invalid');
});

test('forgot password: a mistyped address says Invalid Email address and sends nothing', async ({
  page,
}) => {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/')) sent.push(request.url());
  });
  await page.goto('/reset-password');
  await page.getByLabel('Email').fill('asha.example.com');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  // Spec §2 and §8: the failure alert, also when the form refuses the address before sending.
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid Email address' })).toBeVisible();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  expect(sent).toEqual([]);
});

test('Forgot password? opens the reset page at the first click, typed address or not', async ({
  page,
}) => {
  // The e-mail field has the focus as the page opens; leaving it for the link used to show its
  // message and push the link 22 px down between the press and the release, so the click missed.
  await page.goto('/');
  const email = page.getByLabel('Email');
  await expect(email).toBeFocused();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();

  // A mistyped address is told on leaving the field, and nothing below it moves.
  await page.goto('/');
  const link = page.getByRole('link', { name: 'Forgot password?' });
  const before = await link.boundingBox();
  await email.fill('asha@');
  await email.press('Tab');
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  expect(await link.boundingBox()).toEqual(before);
  await email.fill('asha@example');
  await email.focus();
  await link.click();
  await expect(page).toHaveURL(/\/reset-password$/);

  // Sign In with nothing typed still tells what is missing.
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

for (const account of accounts) {
  test(`${account.role} sees the menu and mode switcher their permissions allow`, async ({
    page,
  }) => {
    await signIn(page, account.email);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    for (const item of ['Dashboard', 'Requests', 'Retirements', 'Settings']) {
      await expect(menu.getByRole('link', { name: item, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: 'Users', exact: true })).toHaveCount(
      isAdmin(account.role) ? 1 : 0,
    );
    await expect(menu.getByRole('link', { name: 'Budget', exact: true })).toHaveCount(
      isFinance(account.role) ? 1 : 0,
    );

    const switcher = page.getByTestId('mode-switcher');
    await expect(switcher.getByText('Staff', { exact: true })).toBeVisible();
    await expect(switcher.getByText('Admin', { exact: true })).toHaveCount(
      isAdmin(account.role) ? 1 : 0,
    );
    await expect(page.getByTestId('page-title')).toHaveText('Home');
    if (account.role === 'finance_officer') await shot(page, 'dashboard-finance-desktop');
  });
}

test('the header title follows the path', async ({ page }) => {
  await signIn(page, 'director@example.com');
  const titles: [string, string][] = [
    ['/dashboard/requests', 'Requests'],
    ['/dashboard/retirements', 'Retirement'],
    ['/dashboard/users', 'Users'],
    ['/dashboard/budget', 'Budget'],
    ['/dashboard/settings', 'Settings'],
    ['/dashboard/approval-matrix', 'Approval Matrix'],
    ['/dashboard/new-budget', 'New Budget'],
    ['/dashboard/new-requests', 'New Requests'],
  ];
  for (const [path, title] of titles) {
    await page.goto(path);
    await expect(page.getByTestId('page-title')).toHaveText(title);
  }
  await page.goto('/dashboard/users');
  await expect(page.getByRole('button', { name: 'New User' })).toBeVisible();
});

test('at 375 px the mobile footer replaces the side menu and leaves out Retirements', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, 'finance@example.com');
  const footer = page.getByTestId('mobile-footer');
  await expect(footer).toBeVisible();
  for (const item of ['Dashboard', 'Requests', 'Users', 'Budget', 'Settings']) {
    await expect(footer.getByRole('link', { name: item })).toBeVisible();
  }
  await expect(footer.getByRole('link', { name: 'Retirements' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await shot(page, 'dashboard-finance-375');
});

test('log out returns to sign-in and forgets the session', async ({ page }) => {
  await signIn(page, 'staff@example.com');
  await chooseFromUserMenu(page, 'Log Out');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
});

test('a session check answered after Log Out does not sign the user in again', async ({ page }) => {
  // A change to the user checks the session again (validate-token): heard live, or missed before
  // the socket joined and caught up with as it does (docs/decisions/0030). That check is held
  // here, answered by the server but not yet handed to the page, while the user logs out.
  let hold: (() => void) | undefined;
  const held = new Promise<void>((resolve) => (hold = resolve));
  let release: (() => void) | undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/users/validate-token', async (route) => {
    const response = await route.fetch();
    hold?.();
    await released;
    await route.fulfill({ response });
  });
  await signIn(page, 'staff@example.com');
  // The user's own change (their notification setting, as it stands): an update_user event.
  const { token, user } = await page.evaluate(() => ({
    token: window.localStorage.getItem('token'),
    user: JSON.parse(window.localStorage.getItem('user') ?? '{}') as {
      id: string;
      settings: string;
    },
  }));
  const changed = await page.request.put('/api/v1/users/settings', {
    headers: { Authorization: `Bearer ${token}` },
    data: { user_id: user.id, settings: user.settings },
  });
  expect(changed.status()).toBe(200);
  await held;
  await chooseFromUserMenu(page, 'Log Out');
  await expect(page).toHaveURL(/\/$/);
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  const answered = page.waitForResponse('**/api/v1/users/validate-token');
  release?.();
  expect((await answered).status()).toBe(200);
  // Nothing is to happen now; give the page a moment in which it would have signed in again.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 1000)));
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
  // Not even for a moment back on the dashboard (until a 401 would send the user out again).
  expect(visited).toEqual([]);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel('Email')).toBeVisible();
});

test('the service worker is served at /sw.js and registered with root scope', async ({ page }) => {
  const response = await page.request.get('/sw.js');
  expect(response.status()).toBe(200);
  await signIn(page, 'staff@example.com');
  const scope = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.scope;
  });
  expect(scope).toMatch(/^http:\/\/localhost:\d+\/$/);
});

test('a session the server ends says so on the sign-in page; one signed out here does not', async ({
  page,
  request,
}) => {
  await signIn(page, 'custodian@example.com');
  await page.goto('/dashboard/new-requests');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const out = await request.post('/api/v1/users/logout', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(out.status()).toBeLessThan(300);
  // The server closes the page's socket; the page finds its session over and goes to sign-in.
  await expect(page).toHaveURL(/\/\?next=%2Fdashboard%2Fnew-requests$/, { timeout: 15_000 });
  await expect(page.getByTestId('session-ended')).toHaveText(
    'Your session has ended. Please sign in again.',
  );
  await shot(page, 'sign-in-session-ended');
  await signIn(page, 'custodian@example.com');
  await chooseFromUserMenu(page, 'Log Out');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByTestId('session-ended')).toHaveCount(0);
});

test("a gateway's 503 or a proxy's 429 does not sign the user out, and an error page is not shown as markup", async ({
  page,
}) => {
  const gatewayPage =
    '<html><head><title>503 Service Temporarily Unavailable</title></head><body><center><h1>503 Service Temporarily Unavailable</h1></center><hr><center>nginx</center></body></html>';
  await signIn(page, 'finance@example.com');

  // The app starts while the server restarts behind its gateway: the session's check gets a 503,
  // which says nothing about the token, so the user stays signed in.
  // So does a proxy's rate limit (429).
  for (const status of [503, 429]) {
    let refused = 0;
    await page.route('**/api/v1/users/validate-token', async (route) => {
      if (refused > 0) return route.continue();
      refused += 1;
      return route.fulfill({ status, contentType: 'text/html', body: gatewayPage });
    });
    await page.reload();
    await expect.poll(() => refused).toBe(1);
    await expect(page.getByTestId('page-title')).toHaveText('Home');
    await expect(page.getByTestId('session-ended')).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
    await page.unroute('**/api/v1/users/validate-token');
  }

  // A read answered with the gateway's page says so in words.
  await page.route('**/api/v1/budget/4001', (route) =>
    route.fulfill({ status: 503, contentType: 'text/html', body: gatewayPage }),
  );
  await page.goto('/dashboard/edit-budget/4001');
  const failure = page.locator('.ant-result');
  await expect(failure).toContainText(
    'The server is unavailable right now (503). Try again in a moment.',
    { timeout: 15_000 },
  );
  expect(await failure.innerText()).not.toMatch(/<html|<center|nginx/i);
});
