import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';

export const demoPassword = 'Imprest#2026';

/** Signs in through the sign-in page and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Saves a screenshot under .tmp/screenshots for a person to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `../.tmp/screenshots/${name}.png`, fullPage: true });
}

export const desktop = { width: 1280, height: 900 };
export const phone = { width: 375, height: 812 };

/** A token of a demo account, for setting up through the API (POST users/authenticate). */
export async function apiToken(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post('/api/v1/users/authenticate', {
    data: { email, password: demoPassword },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { token: string };
  return body.token;
}

/** A page of its own browser context, signed in as a demo account. */
export async function pageOf(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: desktop,
    timezoneId: 'Africa/Dar_es_Salaam',
  });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** Picks an option of an antd Select reached through its label. */
export async function choose(page: Page, label: string | RegExp, option: string): Promise<void> {
  await page.getByLabel(label, { exact: typeof label === 'string' }).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/** The page does not scroll sideways (spec: 375 px), once it has laid itself out for the width. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}
