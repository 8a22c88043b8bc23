import { expect, test } from '@playwright/test';
import { findMailHtml } from './mailbox.ts';
import { createRequest, desktop, phone, shot } from './support.ts';

// Imprest's e-mails are read on phones as much as on desktops. Their HTML, as the real SMTP server
// received it, fits a 375 px screen whole (no sideways scrolling) and keeps its card at most 560 px
// wide on a desktop.
test('a notification e-mail reads whole on a phone, and keeps its width on a desktop', async ({
  page,
  request,
}) => {
  await createRequest(request, { amount_requested: 733_019 });
  // The request's first reviewer (finance, in the default matrix) is told by e-mail.
  const subject = /^A request awaits your review: Procurement, TZS 733,019 from Asha Staff$/m;
  await expect
    .poll(() => findMailHtml('finance@example.com', subject), { timeout: 30_000 })
    .not.toBeNull();
  const html = (await findMailHtml('finance@example.com', subject)) ?? '';

  await page.setViewportSize(phone);
  await page.setContent(html);
  await expect(page.getByRole('link', { name: 'Open the request' })).toBeVisible();
  await expect(page.getByText('TZS 733,019', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    phone.width,
  );
  await shot(page, 'notification-email-375');

  await page.setViewportSize(desktop);
  const card = page
    .getByRole('link', { name: 'Open the request' })
    .locator('xpath=ancestor::table[1]');
  expect((await card.boundingBox())?.width).toBeLessThanOrEqual(560);
  await shot(page, 'notification-email-1280');
});
