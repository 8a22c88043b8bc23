import { expect, test } from '@playwright/test';
import { chunkFile, demoPassword, holdRequests, holdTheApp, signedInContext } from './support.ts';

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

test("a dashboard page's antd stylesheet is linked by index.html and has loaded before the app runs", async ({
  browser,
  request,
}) => {
  // Issue 13 (Home's Total Blocking Time): index.html's boot script links it, so the browser parses
  // its 350 KB as it arrives, not inside the app's start-up (src/app/antd-styles.ts).
  const context = await signedInContext(browser, request, 'staff@example.com');
  const page = await context.newPage();
  const releaseTheApp = await holdTheApp(page);
  await page.goto('/dashboard', { waitUntil: 'commit' });
  const antdSheet = () =>
    Array.from(document.styleSheets).some((sheet) =>
      /\/antd-first-screen-[^/]*\.css$/.test(sheet.href ?? ''),
    );
  await expect
    .poll(() => page.evaluate(antdSheet), { message: 'the stylesheet loaded before the app' })
    .toBe(true);
  await expect(page.locator('link[href*="antd-first-screen"]')).toHaveAttribute(
    'data-state',
    'load',
  );
  await releaseTheApp();
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  // The app took that link as it was: one, a stylesheet, before the page's own (which overrides it).
  const links = await page.evaluate(() =>
    Array.from(document.querySelectorAll('link[rel="stylesheet"]')).map((link) =>
      link.getAttribute('href'),
    ),
  );
  expect(links.filter((href) => href?.includes('antd-first-screen'))).toHaveLength(1);
  expect(links.findIndex((href) => href?.includes('antd-first-screen'))).toBeLessThan(
    links.findIndex((href) => /\/assets\/index-[^/]*\.css$/.test(href ?? '')),
  );
  await context.close();
});

test("Home's lists draw as soon as their data comes when their table has come first", async ({
  browser,
  request,
}) => {
  // Issue 13 (Home's Largest Contentful Paint): React's lazy suspended on the lists' first render
  // even with the table's file long arrived, and React then revealed them no sooner than 300 ms
  // after showing its fallback, a second loader in the first one's place (src/lib/lazy-ready.tsx).
  const context = await signedInContext(browser, request, 'staff@example.com');
  await context.addInitScript(() => {
    const seen = new Set<Element>();
    Object.assign(window, { listLoaders: seen });
    new MutationObserver(() => {
      document.querySelectorAll('.home-lists-loader').forEach((loader) => seen.add(loader));
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  // The recent requests are held back until the table's module has arrived and run.
  const release = await holdRequests(page, '**/api/v1/requests/user/**');
  await page.goto('/dashboard');
  await expect(page.getByRole('status', { name: 'Loading the requests' })).toBeVisible();
  // The page's own module map: this resolves once the app's import of the same file has run.
  await page.evaluate((file) => import(file), chunkFile('requests-table'));
  release();
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Loading the requests' })).toHaveCount(0);
  // One loader stood in for the lists until they were drawn: no fallback took its place.
  expect(
    await page.evaluate(
      () => (window as unknown as { listLoaders: Set<Element> }).listLoaders.size,
    ),
  ).toBe(1);
  await page.unrouteAll({ behavior: 'wait' });
  await context.close();
});
