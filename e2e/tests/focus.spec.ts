import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  apiToken,
  choose,
  chooseBudgetCode,
  createRequest,
  desktop,
  endSecretaryDelegations,
  organisationDay,
  phone,
  settle,
  shot,
  signIn,
} from './support.ts';

// Where the focus goes, and what a screen reader hears, when a keyboard user's action replaces or
// removes the control they were on (WCAG 2.4.3 Focus Order, 4.1.2 Name, Role, Value, 4.1.3 Status
// Messages, 3.3.1 Error Identification).

const organisationZone = 'Africa/Dar_es_Salaam';
test.use({ timezoneId: organisationZone });

/** A description of the focused element, for failure messages. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '<body> (focus lost)';
    const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
    return `${element.tagName} "${name.slice(0, 40)}"`;
  });
}

/** Expects the focus inside `scope`, as the page settles (antd's motions end). */
async function expectFocusWithin(page: Page, scope: Locator): Promise<void> {
  await settle(page);
  const isWithin = await scope.evaluate((element) => element.contains(document.activeElement));
  expect(isWithin, `focus is on ${await focused(page)}`).toBe(true);
}

/** The id of a demo account. */
async function userId(request: APIRequestContext, email: string): Promise<string> {
  const auth = await request.get('/api/v1/users/validate-token', {
    headers: { Authorization: `Bearer ${await apiToken(request, email)}` },
  });
  expect(auth.status()).toBe(200);
  const { user } = (await auth.json()) as { user: { id: string } };
  return user.id;
}

/** Presses Enter on `control`, as a keyboard user does. */
async function pressEnterOn(page: Page, control: Locator): Promise<void> {
  await control.focus();
  await page.keyboard.press('Enter');
}

test('after a request is submitted, the focus moves to the success panel', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/new-requests');
  const form = page.getByTestId('request-form');
  await expect(form).toBeVisible();
  await choose(page, 'Purpose', 'Procurement');
  await choose(page, 'Type of Procurement', 'Goods');
  await form.getByLabel('Amount Required').fill('350000');
  await chooseBudgetCode(page, '6105');
  await pressEnterOn(page, page.getByTestId('submit-request'));
  const panel = page.locator('.ant-result').filter({ hasText: 'Request successful' });
  await expect(panel).toBeVisible();
  // Submit went with the form: the panel's title holds the focus, so a screen reader reads the
  // outcome and the next Tab continues from there.
  await expectFocusWithin(page, panel);
  await expect(page.getByText('Request successful', { exact: true })).toBeFocused();
});

test('after a review is sent, the focus moves to the "Review Successful" panel', async ({
  page,
  request,
}) => {
  const id = await createRequest(request, {
    amount_requested: 410_000,
    expenditure_justification: 'Focus after a review',
  });
  await page.setViewportSize(desktop);
  await signIn(page, 'finance@example.com');
  await page.goto(`/dashboard/requests/${id}`);
  const reviewPanel = page.getByTestId('review-panel');
  await expect(reviewPanel).toBeVisible();
  await pressEnterOn(page, reviewPanel.getByRole('button', { name: 'Accept' }));
  const panel = page.locator('.ant-result').filter({ hasText: 'Review Successful' });
  await expect(panel).toBeVisible();
  await expectFocusWithin(page, panel);
});

test('the Budget Code field is marked invalid and described by its error', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/new-requests');
  const form = page.getByTestId('request-form');
  await expect(form).toBeVisible();
  await page.getByTestId('submit-request').click();
  await expect(form.getByText('Choose a budget code', { exact: true })).toBeVisible();
  // As every required field is (Form.Item gives them): a screen reader on the field hears that it
  // is wrong and why.
  await expect(form.getByLabel('Purpose')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Purpose')).toHaveAccessibleDescription(
    'Choose the purpose of the request',
  );
  const budgetCode = form.getByLabel('Budget Code');
  await expect(budgetCode).toHaveAttribute('aria-invalid', 'true');
  await expect(budgetCode).toHaveAttribute('aria-required', 'true');
  await expect(budgetCode).toHaveAccessibleDescription(/Choose a budget code/);
});

test('dismissing an upload error from the keyboard keeps the focus in the upload area', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/new-requests');
  const area = page.getByTestId('file-upload-area');
  await expect(area).toBeVisible();
  const refused = (name: string) => ({
    name,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('MZ'),
  });
  await area
    .locator('input[type="file"]')
    .setInputFiles([refused('setup.exe'), refused('install.exe')]);
  const errors = area.getByTestId('file-upload-error');
  await expect(errors).toHaveCount(2);

  // The first error's close button: the focus moves to the next error's.
  await pressEnterOn(page, errors.first().getByRole('button', { name: 'close' }));
  await expect(errors).toHaveCount(1);
  await settle(page);
  await expect(errors.getByRole('button', { name: 'close' }), await focused(page)).toBeFocused();

  // The last one: the focus moves to the drop area, not to <body>, from where the next Tab would
  // start at the top of the page.
  await pressEnterOn(page, errors.getByRole('button', { name: 'close' }));
  await expect(errors).toHaveCount(0);
  await expectFocusWithin(page, area);
  await expect(area.locator('.ant-upload[role="button"]')).toBeFocused();
});

test('Escape in the account menu returns the focus to the menu button', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  const trigger = page.getByTestId('user-menu');
  await pressEnterOn(page, trigger);
  const menu = page.locator('.ant-dropdown:visible');
  await expect(menu).toBeVisible();
  await settle(page);
  // Tab moves into the menu (antd's Dropdown).
  await page.keyboard.press('Tab');
  await expect(menu.getByRole('menuitem', { name: 'My profile' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await settle(page);
  await expect(trigger, `focus is on ${await focused(page)}`).toBeFocused();
});

test('the account menu button says it opens a menu and whether the menu is open', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  const trigger = page.getByTestId('user-menu');
  await expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');
  await pressEnterOn(page, trigger);
  const menu = page.locator('.ant-dropdown:visible');
  await expect(menu).toBeVisible();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  await settle(page);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(trigger).toHaveAttribute('aria-expanded', 'false');
});

test('the table pagination controls are buttons named for what they do', async ({
  page,
  request,
}) => {
  // Eleven requests of staff: the requests list has a second page.
  for (let n = 0; n < 11; n += 1) {
    await createRequest(request, { amount_requested: 100_000 + n });
  }
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/requests');
  await expect(page.getByTestId('request-row').first()).toBeVisible();
  const pagination = page.locator('.ant-pagination').first();
  await expect(pagination.locator('.ant-pagination-item-2')).toBeVisible();
  // What takes the focus is what a screen reader names: a button saying where it goes, not an
  // <li> without a role around a button named after its icon ("right").
  await expect(pagination.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  await expect(pagination.getByRole('button', { name: 'Page 1' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const pageTwo = pagination.getByRole('button', { name: 'Page 2', exact: true });
  await expect(pageTwo).toHaveCount(1);
  await expect(pagination.getByRole('button', { name: 'Next page' })).toHaveCount(1);
  const focusStopsWithoutRole = await pagination.evaluate((list) =>
    Array.from(list.querySelectorAll<HTMLElement>('[tabindex="0"]'))
      .filter((element) => !['BUTTON', 'A', 'INPUT'].includes(element.tagName))
      .filter((element) => !element.getAttribute('role'))
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  expect(focusStopsWithoutRole, 'focusable elements without a role').toEqual([]);
  await pagination.scrollIntoViewIfNeeded();
  await shot(page, 'focus-pagination');

  // Enter on "Page 2" turns to the second page, and says so.
  await pressEnterOn(page, pageTwo);
  await expect(pagination.locator('.ant-pagination-item-active')).toHaveText('2');
  await expect(pageTwo).toHaveAttribute('aria-current', 'page');
});

test('a change of the "Live updates" status is announced', async ({ page, context }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  const status = page.getByRole('status', { name: 'Live updates: connected' });
  await expect(status).toHaveAttribute('data-status', 'connected', { timeout: 30_000 });
  // A live region is announced when its content changes; a change of its aria-label alone is
  // not read out: the region holds the words of its status.
  await expect(status).toHaveText('Live updates: connected');
  await context.setOffline(true);
  const indicator = page.getByTestId('connection-indicator');
  await expect(indicator).toHaveAttribute('data-status', /offline|reconnecting/, {
    timeout: 30_000,
  });
  await expect(indicator).toHaveText(/^Live updates: (offline|reconnecting)$/);
  await context.setOffline(false);
  await expect(status).toHaveText('Live updates: connected', { timeout: 30_000 });
});

test('ending one’s own delegation from the keyboard leaves the focus in the card', async ({
  page,
  request,
}) => {
  await endSecretaryDelegations(request);
  await page.setViewportSize(desktop);
  await signIn(page, 'secretary@example.com');
  await page.goto('/dashboard/settings');
  await expect(page.getByTestId('page-title')).toHaveText('Settings');
  const card = page.getByTestId('out-of-office-card');
  await expect(card).toBeVisible();
  await expect(card.locator('.ant-skeleton')).toHaveCount(0);
  await expect(card.getByTestId('no-delegation')).toBeVisible();
  await choose(page, 'Delegate', 'Baraka Custodian (Petty Cash Custodian)');
  const first = card.getByPlaceholder('First day');
  await first.click();
  await first.fill(organisationDay());
  await first.press('Enter');
  const last = card.getByPlaceholder('Last day');
  await expect(last).toBeFocused();
  await last.fill(organisationDay());
  await last.press('Tab');
  await card.getByRole('button', { name: 'Save', exact: true }).click();
  const own = card.getByTestId('own-delegation');
  await expect(own).toHaveCount(1);

  // End now, then the confirmation's End now, from the keyboard.
  await pressEnterOn(page, own.getByRole('button', { name: 'End now' }));
  const confirm = page.locator('.ant-popconfirm:visible');
  await expect(confirm).toContainText('End this delegation now?');
  await settle(page);
  await pressEnterOn(page, confirm.getByRole('button', { name: 'End now' }));
  await expect(card.getByTestId('no-delegation')).toBeVisible();
  await expect(own).toHaveCount(0);
  // The row and its button are gone: the focus is on what took their place.
  await expectFocusWithin(page, card);
  await expect(card.getByTestId('no-delegation')).toBeFocused();
});

test('ending a delegation from All delegations from the keyboard leaves the focus in the card', async ({
  page,
  request,
}) => {
  await endSecretaryDelegations(request);
  const created = await request.post('/api/v1/delegations', {
    headers: { Authorization: `Bearer ${await apiToken(request, 'secretary@example.com')}` },
    data: {
      delegate_id: await userId(request, 'custodian@example.com'),
      starts_on: organisationDay(0, 'en-CA'),
      ends_on: organisationDay(0, 'en-CA'),
      note: 'Focus after End now',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.setViewportSize(desktop);
  await signIn(page, 'director@example.com');
  await page.goto('/dashboard/settings');
  const card = page.getByTestId('delegations-card');
  const row = card.locator('tr.ant-table-row').filter({ hasText: 'Focus after End now' });
  await expect(row).toHaveCount(1);

  await pressEnterOn(page, row.getByRole('button', { name: 'End now' }));
  const confirm = page.locator('.ant-popconfirm:visible');
  await expect(confirm).toContainText('End this delegation now?');
  await settle(page);
  await pressEnterOn(page, confirm.getByRole('button', { name: 'End now' }));
  await expect(row).toContainText('Ended');
  await expect(row.getByRole('button', { name: 'End now' })).toHaveCount(0);
  // The button is gone with the delegation's status: the focus is on the End now in its place,
  // or on the Status filter when none is left.
  await expectFocusWithin(page, card);
});

test('Submit on an incomplete request form moves the focus to the first field in error', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/new-requests');
  const form = page.getByTestId('request-form');
  await expect(form).toBeVisible();
  await pressEnterOn(page, page.getByTestId('submit-request'));
  await expect(form.getByText('Choose the purpose of the request')).toBeVisible();
  await settle(page);
  // There a screen reader reads the field and its error; on Submit it heard nothing.
  const purpose = form.getByLabel('Purpose');
  await expect(purpose, `focus is on ${await focused(page)}`).toBeFocused();
  await expect(purpose).toHaveAttribute('aria-invalid', 'true');
  await expect(purpose).toHaveAccessibleDescription('Choose the purpose of the request');

  // On a phone the form is long: Submit at its foot brings the field back with its label in
  // sight, not only the box at the screen's top edge with nothing to say which field it is.
  await page.setViewportSize(phone);
  await page.getByTestId('submit-request').click();
  await settle(page);
  await expect(purpose).toBeFocused();
  const label = form.locator('label[for="purpose"]');
  await expect(label).toBeInViewport();
  const labelBox = await label.boundingBox();
  expect(labelBox?.y, 'the label below the top edge').toBeGreaterThan(0);
});

test('every page has its own title, and a new page puts the focus on its title', async ({
  page,
  request,
}) => {
  // Three rows at least on the staff member's list, whatever ran before.
  for (let index = 0; index < 3; index += 1) {
    await createRequest(request, { expenditure_justification: `Title focus ${index}` });
  }
  await page.setViewportSize(desktop);
  await page.goto('/');
  await expect(page).toHaveTitle('Sign in – Imprest');
  await page.getByRole('link', { name: /Forgot password/ }).click();
  await expect(page).toHaveTitle('Forgot password – Imprest');
  await signIn(page, 'staff@example.com');
  await expect(page).toHaveTitle('Home – Imprest');

  // The side menu's link leads to the requests list; its title, not the link, has the focus.
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  const title = page.getByTestId('page-title');
  await menu.getByRole('link', { name: 'Requests', exact: true }).click();
  await expect(title).toHaveText('Requests');
  await expect(page).toHaveTitle('Requests – Imprest');
  await expect(title, `focus is on ${await focused(page)}`).toBeFocused();

  // A request opened from the list's View button, which leaves with the list: its title again.
  const rows = page.getByTestId('request-row');
  await expect(rows.nth(2)).toBeVisible();
  await rows.nth(2).getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('request-view')).toBeVisible();
  await expect(title, `focus is on ${await focused(page)}`).toBeFocused();

  // Back returns the focus to the list's title as well.
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);
  await expect(title, `focus is on ${await focused(page)}`).toBeFocused();

  // From the title, the next Tab reaches the header's controls, then the page.
  await page.keyboard.press('Tab');
  const header = page.locator('.dashboard-header');
  const isInHeader = await header.evaluate((element) => element.contains(document.activeElement));
  expect(isInHeader, `focus is on ${await focused(page)}`).toBe(true);
});

test("a table's action buttons are described by their rows", async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'finance@example.com');

  // Requests, in admin mode (finance asks for none of its own): 'View' is each button's name; the
  // row's name, purpose, amount and status its description.
  await page.goto('/dashboard/requests');
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
  const row = page.getByTestId('request-row').first();
  await expect(row).toBeVisible();
  const cells = row.getByRole('cell');
  const [name, purpose, , amount, status] = await cells.allInnerTexts();
  const view = row.getByRole('button', { name: 'View', exact: true });
  await expect(view).toHaveAccessibleDescription(
    [name, purpose, amount, status].map((text) => text?.trim()).join(' '),
  );

  // Budgets: 'View Budget' with the budget's name and code.
  await page.goto('/dashboard/budget');
  const budgetRow = page.locator('.ant-table-row').first();
  await expect(budgetRow).toBeVisible();
  const [budgetName, code] = await budgetRow.getByRole('cell').allInnerTexts();
  await expect(
    budgetRow.getByRole('button', { name: 'View Budget', exact: true }),
  ).toHaveAccessibleDescription(`${budgetName?.trim()} ${code?.trim()}`);

  // Retirements, in admin mode still: the owner, purpose, amount requested and status.
  await page.goto('/dashboard/retirements');
  const retirementRow = page.locator('.ant-table-row').first();
  await expect(retirementRow).toBeVisible();
  const retirementCells = await retirementRow.getByRole('cell').allInnerTexts();
  const [owner, retirementPurpose, , requested, , retirementStatus] = retirementCells;
  await expect(
    retirementRow.getByRole('button', { name: 'View', exact: true }),
  ).toHaveAccessibleDescription(
    [owner, retirementPurpose, requested, retirementStatus].map((text) => text?.trim()).join(' '),
  );
  // On a small laptop the amount requested is under the owner's name, its column left out: the
  // description names only cells that are there.
  await page.setViewportSize({ width: 1024, height: 900 });
  await expect(page.getByRole('columnheader', { name: 'AMOUNT REQUESTED' })).toHaveCount(0);
  const described = retirementRow.getByRole('button', { name: 'View', exact: true });
  const missing = await described.evaluate((button) =>
    (button.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((id) => document.getElementById(id) === null),
  );
  expect(missing).toEqual([]);
  const ownerPattern = (owner ?? '').trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(described).toHaveAccessibleDescription(new RegExp(`^${ownerPattern}.*TZS `));
});
