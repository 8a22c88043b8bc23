import { expect, test } from '@playwright/test';
import { demoPassword, holdTheApp, signedInContext } from './support.ts';

// Issue 13: index.html holds the sign-in page (apps/web/vite/prerender-sign-in.ts), so a visitor
// sees it before the app's code has arrived, and React takes it over as it stands. Tested by
// holding the app's entry file back: what shows meanwhile is the page's HTML alone.

test('the sign-in page shows, and takes what is typed, before the app has arrived', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const releaseTheApp = await holdTheApp(page);
  await page.goto('/', { waitUntil: 'commit' });

  // The page's HTML alone: the form, whose Sign In does nothing yet, Enter included (the browser
  // would send the form itself, the password in the address).
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  const signIn = page.getByRole('button', { name: 'Sign In' });
  await expect(signIn).toBeDisabled();
  await page.getByLabel('Email').fill('staff@example.com');
  await page.getByLabel('Password').fill(demoPassword);
  await page.getByLabel('Password').press('Enter');
  expect(new URL(page.url()).search).toBe('');
  expect(await page.evaluate(() => document.documentElement.dataset.firstPage)).toBe('sign-in');

  // The app arrives and takes the page over: what was typed stays, and signs in.
  await releaseTheApp();
  await expect(signIn).toBeEnabled();
  await expect(page.getByLabel('Email')).toHaveValue('staff@example.com');
  await expect(page.getByLabel('Password')).toBeFocused();
  await signIn.click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  // React took the HTML over as it was: no hydration error, nothing else.
  expect(problems).toEqual([]);
});

test('the sign-in page never shows to someone signed in, at / or on a dashboard page', async ({
  browser,
  request,
}) => {
  const context = await signedInContext(browser, request, 'staff@example.com');
  const page = await context.newPage();
  for (const address of ['/', '/dashboard/requests']) {
    const releaseTheApp = await holdTheApp(page);
    await page.goto(address, { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { name: 'Welcome back', includeHidden: true });
    // In the page's HTML, and hidden from the start.
    await expect(heading).toBeAttached();
    await expect(heading).toBeHidden();
    await releaseTheApp();
    await expect(page.getByTestId('page-title')).toBeVisible();
    await expect(page.locator('.auth-layout')).toHaveCount(0);
  }
  await context.close();
});
