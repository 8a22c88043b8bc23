import { expect, test, type Page } from '@playwright/test';
import { exchangeRateRangeMessage } from '@imprest/domain/exchange-rates.ts';
import {
  apiToken,
  desktop,
  dropSocketEvent,
  expectNoSidewaysScroll,
  phone,
  shot,
  signIn,
} from './support.ts';

const finance = 'finance@example.com';

/** A GBP rate different from the one shown now, so that saving it is a change. */
async function nextGbpRate(page: Page): Promise<{ typed: string; shown: string }> {
  const current = await page
    .getByTestId('exchange-rates-card')
    .getByLabel('1 GBP in TZS')
    .inputValue();
  return current === '3,456.75'
    ? { typed: '3456.5', shown: '3,456.5' }
    : { typed: '3456.75', shown: '3,456.75' };
}

for (const viewport of [desktop, phone]) {
  test(`finance changes a rate and sees who changed it in Rate changes (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, finance);
    await page.goto('/dashboard/settings');
    const rates = page.getByTestId('exchange-rates-card');
    const gbp = rates.getByLabel('1 GBP in TZS');
    await expect(gbp).not.toHaveValue('');

    await test.step('a rate outside 1–100,000 tzs per unit is refused with a message', async () => {
      await gbp.fill('0.000001');
      await expect(rates.getByText(exchangeRateRangeMessage)).toBeVisible();
      await shot(page, `settings-rate-bounds-${viewport.width}`);
      await rates.getByRole('button', { name: 'Save Rates' }).click();
      await expect(page.getByText('Exchange rates saved')).toHaveCount(0);
    });

    const rate = await test.step('a rate in range is saved', async () => {
      await page.reload();
      const next = await nextGbpRate(page);
      await page.getByTestId('exchange-rates-card').getByLabel('1 GBP in TZS').fill(next.typed);
      await page
        .getByTestId('exchange-rates-card')
        .getByRole('button', { name: 'Save Rates' })
        .click();
      await expect(page.getByText('Exchange rates saved')).toBeVisible();
      return next;
    });

    await test.step('the change heads the Rate changes list, with who made it', async () => {
      const changes = page.getByTestId('exchange-rate-changes');
      const newest = changes.locator('tbody tr.ant-table-row').first();
      await expect(newest).toContainText('GBP');
      await expect(newest).toContainText(`→ ${rate.shown}`);
      await expect(newest).toContainText('Chausiku Finance');
      // en-GB date and time, e.g. 23/11/2026 14:30.
      await expect(newest).toContainText(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
      await expectNoSidewaysScroll(page);
      await page.getByTestId('exchange-rate-changes-card').scrollIntoViewIfNeeded();
      await shot(page, `settings-rate-changes-${viewport.width}`);
    });
  });
}

test("another officer's saved rate reaches an open rates form, and a save there keeps it", async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, finance);
  await page.goto('/dashboard/settings');
  const rates = page.getByTestId('exchange-rates-card');
  const usd = rates.getByLabel('1 USD in TZS');
  const gbp = rates.getByLabel('1 GBP in TZS');
  await expect(usd).not.toHaveValue('');
  await expect(page.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  const shown = async (field: typeof usd) => Number((await field.inputValue()).replace(/,/g, ''));
  const [usdBefore, gbpBefore, chfBefore] = [
    await shown(usd),
    await shown(gbp),
    await shown(rates.getByLabel('1 CHF in TZS')),
  ];

  // Another finance officer changes USD meanwhile (decision 0034: the save is heard).
  const usdElsewhere = usdBefore === 2611.25 ? 2611.5 : 2611.25;
  const other = await apiToken(page.request, 'secretary@example.com');
  const saved = await page.request.put('/api/v1/settings/exchange-rates', {
    headers: { Authorization: `Bearer ${other}` },
    data: { base: 'tzs', rates: { usd: usdElsewhere, gbp: gbpBefore, chf: chfBefore } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  await expect(usd).toHaveValue(usdElsewhere.toLocaleString('en-GB'));

  // This officer changes GBP and saves: USD stays what the other officer saved.
  const gbpHere = gbpBefore === 3456.75 ? 3456.5 : 3456.75;
  await gbp.fill(String(gbpHere));
  await rates.getByRole('button', { name: 'Save Rates' }).click();
  await expect(page.getByText('Exchange rates saved')).toBeVisible();
  const stored = await page.request.get('/api/v1/settings/exchange-rates', {
    headers: { Authorization: `Bearer ${other}` },
  });
  expect(((await stored.json()) as { rates: Record<string, number> }).rates).toEqual({
    usd: usdElsewhere,
    gbp: gbpHere,
    chf: chfBefore,
  });
});

test('a save made on rates someone else changed meanwhile is refused, shows their rate, and then goes through', async ({
  page,
}) => {
  await page.setViewportSize(phone);
  // The other officer's save is not heard here (its event is dropped), as when it lands between
  // this page's last refresh and its save: only the version check stands between them.
  await dropSocketEvent(page, 'exchange_rates_updated');
  await signIn(page, finance);
  await page.goto('/dashboard/settings');
  const rates = page.getByTestId('exchange-rates-card');
  const usd = rates.getByLabel('1 USD in TZS');
  await expect(usd).not.toHaveValue('');
  // Joined before the other save: its welcome would otherwise catch the page up on it.
  await expect(page.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
  const shown = async (label: string) =>
    Number((await rates.getByLabel(label).inputValue()).replace(/,/g, ''));
  const [usdBefore, gbpBefore, chfBefore] = [
    await shown('1 USD in TZS'),
    await shown('1 GBP in TZS'),
    await shown('1 CHF in TZS'),
  ];
  const usdHere = usdBefore === 2622.25 ? 2622.5 : 2622.25;
  const usdElsewhere = usdBefore === 2633.25 ? 2633.5 : 2633.25;
  await usd.fill(String(usdHere));

  const other = await apiToken(page.request, 'secretary@example.com');
  const saved = await page.request.put('/api/v1/settings/exchange-rates', {
    headers: { Authorization: `Bearer ${other}` },
    data: { base: 'tzs', rates: { usd: usdElsewhere, gbp: gbpBefore, chf: chfBefore } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const storedUsd = async () => {
    const stored = await page.request.get('/api/v1/settings/exchange-rates', {
      headers: { Authorization: `Bearer ${other}` },
    });
    return ((await stored.json()) as { rates: Record<string, number> }).rates.usd;
  };

  await rates.getByRole('button', { name: 'Save Rates' }).click();
  await expect(
    rates.getByText(
      'The exchange rates were changed by someone else after you opened them. Check them and save again.',
    ),
  ).toBeVisible();
  const clash = rates.getByTestId('exchange-rates-clash');
  await expect(clash).toContainText(
    `1 USD is now ${usdElsewhere.toLocaleString('en-GB')} TZS. Save Rates replaces it with yours.`,
  );
  await expect(usd).toHaveValue(usdHere.toLocaleString('en-GB'));
  expect(await storedUsd()).toBe(usdElsewhere);
  await expectNoSidewaysScroll(page);
  await shot(page, 'settings-rates-clash-375');

  // Shown their rate, the officer saves theirs on purpose.
  await rates.getByRole('button', { name: 'Save Rates' }).click();
  await expect(page.getByText('Exchange rates saved')).toBeVisible();
  await expect(clash).toHaveCount(0);
  expect(await storedUsd()).toBe(usdHere);
});

test('Rate changes shows a rate with every decimal it was saved with', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, finance);
  await page.goto('/dashboard/settings');
  const rates = page.getByTestId('exchange-rates-card');
  await expect(rates.getByLabel('1 GBP in TZS')).not.toHaveValue('');
  // Rates keep six decimals (docs/decisions/0013): the list is the record of who set what.
  await rates.getByLabel('1 GBP in TZS').fill('3456.125');
  await rates.getByRole('button', { name: 'Save Rates' }).click();
  await expect(page.getByText('Exchange rates saved')).toBeVisible();
  const newest = page
    .getByTestId('exchange-rate-changes')
    .locator('tbody tr.ant-table-row')
    .first();
  await expect(newest).toContainText('GBP');
  await expect(newest).toContainText('→ 3,456.125');
});
