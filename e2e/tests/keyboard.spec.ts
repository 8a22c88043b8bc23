import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { demoPassword, desktop, organisationDay } from './support.ts';

// Issue 13: the app works from the keyboard alone. Staff signs in, fills the request form and
// submits it; finance and the executive secretary sign in and accept it; the request is approved.
// Only Tab, Enter, the arrow keys and typing: no click, no focus() from the test. The reviewers
// open the request by its address, as someone does who follows the e-mail's link.

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/** Presses Tab until `target` has the focus; fails if it is not reached within `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max; presses += 1) {
    const isFocused = await target.evaluate((element) => element === document.activeElement);
    if (isFocused) return;
    await page.keyboard.press('Tab');
  }
  await expect(target, `reached with at most ${max} presses of Tab`).toBeFocused();
}

/**
 * Chooses an option of an antd Select from the keyboard: Tab to it, open it with the down arrow
 * (or type to search), walk the options with the arrow and take the one named with Enter.
 */
async function chooseByKeyboard(
  page: Page,
  select: Locator,
  option: string,
  search?: string,
): Promise<void> {
  await tabTo(page, select);
  if (search) await page.keyboard.type(search);
  else await page.keyboard.press('ArrowDown');
  // This select's dropdown: the previous one may still be on screen, closing (rc-motion's
  // `-leave` classes), as this one opens (seen once in CI).
  const dropdown = page.locator('.ant-select-dropdown:visible:not([class*="-leave"])');
  await expect(dropdown).toBeVisible();
  const active = dropdown.locator('.ant-select-item-option-active');
  for (let presses = 0; presses < 20; presses += 1) {
    if ((await active.textContent()) === option) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(active).toHaveText(option);
  await page.keyboard.press('Enter');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
}

/** Signs in from the keyboard: the e-mail field has the focus when the page opens. */
async function signInByKeyboard(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(demoPassword);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('page-title')).toHaveText('Home');
}

/** A reviewer of their own browser signs in and accepts the request, all from the keyboard. */
async function acceptByKeyboard(browser: Browser, email: string, requestUrl: string) {
  const context = await browser.newContext({
    viewport: desktop,
    timezoneId: 'Africa/Dar_es_Salaam',
  });
  const page = await context.newPage();
  await signInByKeyboard(page, email);
  await page.goto(requestUrl);
  const panel = page.getByTestId('review-panel');
  await expect(panel).toBeVisible();
  await tabTo(page, panel.getByLabel('Comments (optional)'));
  await page.keyboard.type(`Accepted from the keyboard by ${email}.`);
  await tabTo(page, panel.getByRole('button', { name: 'Accept' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Review Successful')).toBeVisible();
  await context.close();
}

test('a request is submitted and approved with the keyboard alone', async ({ page, browser }) => {
  await page.setViewportSize(desktop);
  await signInByKeyboard(page, 'staff@example.com');

  // The header's New Request button (a navigation is a transition: wait for the header first).
  const newButton = page.getByTestId('new-button');
  await expect(newButton).toHaveText(/New Request/);
  await tabTo(page, newButton);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/new-requests$/);
  const form = page.getByTestId('request-form');
  await expect(form).toBeVisible();

  await chooseByKeyboard(page, form.getByLabel('Purpose'), 'Travel');
  await chooseByKeyboard(page, form.getByLabel('Mode of Transport'), 'Public');
  await tabTo(page, form.getByLabel('Name of Transporter'));
  await page.keyboard.type('Keyboard Coaches');
  await tabTo(page, form.getByLabel('Expenditure Justification'));
  await page.keyboard.type('Bus fares for the keyboard-only visit to the Tanga stem park');
  const amount = form.getByLabel('Amount Required');
  await tabTo(page, amount);
  await page.keyboard.type('1250000');
  await expect(amount).toHaveValue('1,250,000');
  await chooseByKeyboard(
    page,
    form.getByLabel('Budget Code'),
    '6105 - Dar park operations',
    '6105',
  );

  const submit = page.getByTestId('submit-request');
  await expect(submit).toBeEnabled();
  await tabTo(page, submit);
  await page.keyboard.press('Enter');
  await expect(page.getByText('Request successful')).toBeVisible();

  const open = page.getByRole('button', { name: 'Open this request' });
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/requests\/[0-9a-f-]{36}$/);
  const requestUrl = new URL(page.url()).pathname;
  await expect(page.getByText('Keyboard Coaches')).toBeVisible();

  // Spec §4: finance, then the executive secretary (an amount of group B).
  await acceptByKeyboard(browser, 'finance@example.com', requestUrl);
  await acceptByKeyboard(browser, 'secretary@example.com', requestUrl);

  await page.reload();
  const year = organisationDay(0, 'en-CA').slice(0, 4); // the approval number's year is the organisation's
  await expect(page.getByTestId('approval-number')).toContainText(`AP-${year}-`);
});
