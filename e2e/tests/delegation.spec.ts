import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type Locator,
  type Page,
} from '@playwright/test';
import { findMail } from './mailbox.ts';
import {
  approveStepThroughApi,
  choose,
  createRequest,
  desktop,
  endSecretaryDelegations,
  expectNoSidewaysScroll,
  expectAccessible,
  expectOnLastPage,
  failCalls,
  holdRequests,
  organisationDay,
  phone,
  shot,
  signIn,
} from './support.ts';

// Issue 15, docs/decisions/0019: a reviewer away from work names a delegate in Settings (or the
// director names one for them); the delegate sees the delegator's steps on Home marked Delegated,
// answers one, and the request shows both names. Group B requests go to finance, then the
// executive secretary (the default matrix); finance answers the first step through the API, and
// the petty cash custodian stands in for the secretary: one person answers one step of a request,
// so the delegate must not be finance, who answered the first.

const organisationZone = 'Africa/Dar_es_Salaam';
test.use({ timezoneId: organisationZone });

const secretary = { email: 'secretary@example.com', name: 'Daudi Secretary' };
const custodian = { email: 'custodian@example.com', name: 'Baraka Custodian' };
const custodianOption = 'Baraka Custodian (Petty Cash Custodian)';
const secretaryOption = 'Daudi Secretary (Executive Secretary)';

/** Finance answers the first step of a request through the API, as the first reviewer. */
async function financeApproves(request: APIRequestContext, id: string): Promise<void> {
  await approveStepThroughApi(request, 'finance@example.com', id, 'Budget line checked');
}

/** A page of its own browser context at a width, signed in as a demo account. */
async function pageAt(
  browser: Browser,
  email: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  const context = await browser.newContext({ viewport, timezoneId: organisationZone });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** Opens Settings by its address and waits for the page (navigation is a transition). */
async function openSettings(page: Page): Promise<Locator> {
  await page.goto('/dashboard/settings');
  await expect(page.getByTestId('page-title')).toHaveText('Settings');
  const card = page.getByTestId('out-of-office-card');
  await expect(card).toBeVisible();
  await expect(card.locator('.ant-skeleton')).toHaveCount(0);
  return card;
}

/** Fills the Out of office form: the delegate, today to the day after tomorrow, a note. */
async function nameDelegate(page: Page, card: Locator, note: string): Promise<void> {
  await choose(page, 'Delegate', custodianOption);
  const first = card.getByPlaceholder('First day');
  await first.click();
  await first.fill(organisationDay(0));
  await first.press('Enter');
  // The picker moves on to the last day by itself once the first is taken.
  const last = card.getByPlaceholder('Last day');
  await expect(last).toBeFocused();
  await last.fill(organisationDay(2));
  // Enter here would also submit the form; leaving the field takes the day as typed.
  await last.press('Tab');
  await expect(first).toHaveValue(organisationDay(0));
  await expect(last).toHaveValue(organisationDay(2));
  await card.getByLabel('Note (optional)').fill(note);
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(`${custodian.name} is named as delegate`)).toBeVisible();
}

/**
 * The delegate's Home lists the request marked Delegated on the secretary's behalf; the row's
 * open action leads to the request view.
 */
async function openDelegatedStep(page: Page, amountText: string): Promise<void> {
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  const pending = page.getByTestId('pending-requests');
  await expectOnLastPage(pending, amountText, { timeout: 30_000 });
  const row = pending.getByTestId('request-row').filter({ hasText: amountText });
  await expect(row).toHaveCount(1);
  const mark = row.getByTestId('name-mark');
  await expect(mark).toContainText('Delegated');
  await expect(mark).toContainText(`on behalf of ${secretary.name}`);
}

/** Accepts the step on the delegator's behalf and returns to the request. */
async function acceptOnBehalf(page: Page): Promise<void> {
  const panel = page.getByTestId('review-panel');
  // The panel shows once both the request and the user's delegations have been read.
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByTestId('on-behalf-of-notice')).toContainText(
    `on behalf of ${secretary.name}`,
  );
  await panel.getByLabel('Comments (optional)').fill('Approved while the secretary is on leave');
  await panel.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Review Successful')).toBeVisible();
  await page.getByRole('button', { name: 'Back to the request' }).click();
}

/** The request view names both people: the delegate who answered, for the delegator. */
async function expectBothNames(page: Page): Promise<void> {
  const view = page.getByTestId('request-view');
  await expect(view).toBeVisible();
  const both = `${custodian.name} on behalf of ${secretary.name}`;
  const secondStep = view.getByTestId('reviewer-card').filter({ hasText: 'Executive Secretary' });
  await expect(secondStep.getByTestId('reviewer-name')).toHaveText(both);
  await expect(view.getByTestId('approval-progress')).toContainText(both);
  // Finance answered the first step in their own right: one name.
  await expect(
    view
      .getByTestId('reviewer-card')
      .filter({ hasText: 'Finance Officer' })
      .getByTestId('reviewer-name'),
  ).toHaveText('Chausiku Finance');
  await expect(view.getByTestId('approval-number')).toBeVisible();
}

/** Ends a delegation through End now and its confirmation. */
async function endNow(page: Page, scope: Locator): Promise<void> {
  await scope.getByRole('button', { name: 'End now' }).click();
  const confirm = page.locator('.ant-popconfirm:visible');
  await expect(confirm).toContainText('End this delegation now?');
  await confirm.getByRole('button', { name: 'End now' }).click();
}

test('the secretary names an out-of-office delegate, who approves on their behalf (1280 px)', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const amountText = 'TZS 1,234,001';
  const requestId = await createRequest(request, {
    amount_requested: 1_234_001,
    expenditure_justification: 'Delegation e2e: projector lamp for the outreach hall',
  });
  await financeApproves(request, requestId);
  await endSecretaryDelegations(request);

  await page.setViewportSize(desktop);
  await signIn(page, secretary.email);
  const card = await openSettings(page);

  await test.step('the secretary names the custodian for three days', async () => {
    await expect(card.getByTestId('no-delegation')).toHaveText('No delegate is named for you.');
    // Only colleagues who review requests are offered; finance could be named, but has answered
    // the first step of this request, so the custodian stands in.
    await card.getByLabel('Delegate').click();
    const options = page.locator('.ant-select-dropdown:visible');
    await expect(options.getByTitle(custodianOption, { exact: true })).toBeVisible();
    await expect(options.getByText('Asha Staff')).toHaveCount(0);
    await expect(options.getByTitle(secretaryOption, { exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await nameDelegate(page, card, 'On leave in Arusha');
    const own = card.getByTestId('own-delegation');
    await expect(own).toContainText(custodianOption);
    await expect(own).toContainText(`${organisationDay(0)} – ${organisationDay(2)}`);
    await expect(own).toContainText('On leave in Arusha');
    await expect(own).toContainText('Active');
    // The custodian learns by e-mail, through the mailbox's SMTP server, whose steps come to them
    // and on which days.
    const named = new RegExp(
      `You review for Daudi Secretary from ${organisationDay(0)} to ${organisationDay(2)}[\\s\\S]*Note: On leave in Arusha`,
    );
    await expect
      .poll(() => findMail('custodian@example.com', named), { timeout: 20_000 })
      .not.toBeNull();
    await expectAccessible(page);
    await shot(page, 'delegation-settings-1280');
  });

  await test.step('a second delegation over the same days is refused in the card', async () => {
    await nameDelegateExpectingRefusal(page, card);
  });

  const delegate = await pageAt(browser, custodian.email, desktop);
  await test.step('the custodian sees the step marked Delegated on Home and opens it', async () => {
    await openDelegatedStep(delegate, amountText);
    await shot(delegate, 'delegation-home-1280');
    const row = delegate
      .getByTestId('pending-requests')
      .getByTestId('request-row')
      .filter({ hasText: amountText });
    await row.getByRole('button', { name: 'View' }).click();
    await expect(delegate).toHaveURL(new RegExp(`/dashboard/view-request/${requestId}$`));
  });

  await test.step('the custodian approves; the request shows both names', async () => {
    await acceptOnBehalf(delegate);
    await expectBothNames(delegate);
    await shot(delegate, 'delegation-request-view-1280');
  });

  await test.step('the custodian sees whom they stand in for; the secretary ends it', async () => {
    const delegateCard = await openSettings(delegate);
    await expect(delegateCard.getByTestId('standing-in')).toContainText(
      `You answer the review steps of ${secretaryOption} on their behalf`,
    );
    await endNow(page, card.getByTestId('own-delegation'));
    await expect(card.getByTestId('no-delegation')).toBeVisible();
    await expect(card.getByTestId('own-delegation')).toHaveCount(0);
    await delegate.reload();
    await expect(delegate.getByTestId('out-of-office-card')).toBeVisible();
    await expect(delegate.getByTestId('standing-in')).toHaveCount(0);
  });
  await delegate.context().close();
});

/** Saving an overlapping period shows the server's refusal, written for people, in the card. */
async function nameDelegateExpectingRefusal(page: Page, card: Locator): Promise<void> {
  await choose(page, 'Delegate', custodianOption);
  const first = card.getByPlaceholder('First day');
  await first.click();
  await first.fill(organisationDay(1));
  await first.press('Enter');
  const last = card.getByPlaceholder('Last day');
  await expect(last).toBeFocused();
  await last.fill(organisationDay(1));
  // Enter here would also submit the form; leaving the field takes the day as typed.
  await last.press('Tab');
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  const error = card.getByTestId('out-of-office-error');
  await expect(error).toContainText('The delegate could not be saved');
  await expect(error).toContainText(`${secretary.name} already has a delegation`);
  await expect(card.getByTestId('own-delegation')).toHaveCount(1);
}

test('the director names a delegate for the secretary; the delegate approves at 375 px', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const amountText = 'TZS 1,234,002';
  const requestId = await createRequest(request, {
    amount_requested: 1_234_002,
    expenditure_justification: 'Delegation e2e: chairs for the youth bootcamp',
  });
  await financeApproves(request, requestId);
  await endSecretaryDelegations(request);

  const director = await pageAt(browser, 'director@example.com', phone);
  const card = await openSettings(director);
  const all = director.getByTestId('delegations-card');

  await test.step('the director sets the secretary’s delegate with the Delegator select', async () => {
    await choose(director, 'Delegator', secretaryOption);
    await nameDelegate(director, card, 'Covering the secretary’s leave');
    const row = all.getByTestId('delegations-table').locator('tr.ant-table-row').first();
    await expect(row).toContainText(`${custodian.name} for ${secretary.name}`);
    await expect(row).toContainText(`${organisationDay(0)} – ${organisationDay(2)}`);
    await expect(row).toContainText('Active');
    await expectNoSidewaysScroll(director);
    await expectAccessible(director);
    await all.scrollIntoViewIfNeeded();
    await shot(director, 'delegation-settings-375');
  });

  const delegate = await pageAt(browser, custodian.email, phone);
  await test.step('the custodian sees the step marked Delegated on Home at 375 px', async () => {
    await openDelegatedStep(delegate, amountText);
    await expectNoSidewaysScroll(delegate);
    await shot(delegate, 'delegation-home-375');
    const row = delegate
      .getByTestId('pending-requests')
      .getByTestId('request-row')
      .filter({ hasText: amountText });
    await row.getByRole('button', { name: 'Asha Staff' }).click();
    await expect(delegate).toHaveURL(new RegExp(`/dashboard/view-request/${requestId}$`));
  });

  await test.step('the custodian approves; the request shows both names at 375 px', async () => {
    await acceptOnBehalf(delegate);
    await expectBothNames(delegate);
    await expectNoSidewaysScroll(delegate);
    await shot(delegate, 'delegation-request-view-375');
  });

  await test.step('the secretary finds the delegate the director named for them', async () => {
    const delegator = await pageAt(browser, secretary.email, phone);
    const own = (await openSettings(delegator)).getByTestId('own-delegation');
    await expect(own).toContainText(custodianOption);
    await expect(own).toContainText('Set by Eshe Director');
    await expect(own).toContainText('Covering the secretary’s leave');
    await expectNoSidewaysScroll(delegator);
    await own.scrollIntoViewIfNeeded();
    await shot(delegator, 'delegation-own-375');
    await delegator.context().close();
  });

  await test.step('the director ends the delegation from All delegations', async () => {
    const row = all.getByTestId('delegations-table').locator('tr.ant-table-row').first();
    await endNow(director, row);
    await expect(row).toContainText('Ended');
    await expect(row.getByRole('button', { name: 'End now' })).toHaveCount(0);
    await expectNoSidewaysScroll(director);
    await shot(director, 'delegation-all-375');
    await director.setViewportSize(desktop);
    await expect(all.getByRole('columnheader', { name: 'DELEGATOR' })).toBeVisible();
    await all.scrollIntoViewIfNeeded();
    await shot(director, 'delegation-all-1280');
  });
  await delegate.context().close();
  await director.context().close();
});

test("while the reviewers load, the Delegator select names the director, not the director's id", async ({
  page,
}) => {
  // The reviewers' lists are held back, as on a slow connection, until the test lets them go.
  const release = await holdRequests(page, /\/api\/v1\/users\/department\/all\//);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/settings');
  const delegator = page
    .getByTestId('out-of-office-form')
    .locator('.ant-form-item')
    .filter({ has: page.getByLabel('Delegator') });
  await expect(delegator.locator('.ant-select-content')).toHaveText('Eshe Director (Director)');
  await expect(delegator).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  await shot(page, 'delegation-delegator-while-loading');

  release();
  await choose(page, 'Delegator', secretaryOption);
  await expect(delegator.locator('.ant-select-content')).toHaveText(secretaryOption);
});

test('an out-of-office card whose delegations failed to load does not say "No delegate is named for you."', async ({
  page,
}) => {
  const calls = await failCalls(page, /\/api\/v1\/delegations/);
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/settings');
  const card = page.getByTestId('out-of-office-card');
  await expect(card.getByRole('alert')).toBeVisible({ timeout: 15_000 });
  // What could not be read is not "none".
  await expect(card.getByTestId('no-delegation')).toHaveCount(0);
  const tryAgain = card.getByRole('alert').getByRole('button', { name: 'Try again' });
  await expect(tryAgain).toBeVisible();

  calls.heal()();
  await tryAgain.click();
  await expect(tryAgain).toHaveCount(0);
  await expect(
    card.getByTestId('no-delegation').or(card.getByTestId('own-delegation')).first(),
  ).toBeVisible();
});
