import { expect, type Page } from '@playwright/test';

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
