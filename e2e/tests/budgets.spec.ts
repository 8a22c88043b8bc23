import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '@imprest/domain/messages.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import ExcelJS from 'exceljs';
import {
  apiToken,
  expectNoSidewaysScroll,
  expectTableFits,
  expectUnclipped,
  failCalls,
  phone,
  widePhone,
  settle,
  shot,
  signIn,
} from './support.ts';

const finance = 'finance@example.com';
const staff = 'staff@example.com';

/** The budget this file creates: youth boot camps 9000 + hq 000 + cost code 42 (spec §3). */
const newBudget = {
  name: 'Youth bootcamp 2026 (e2e)',
  amount: '12500000',
  typedAmount: '12,500,000',
  raisedAmount: '15,000,000',
  code: '9042',
};

/** Picks an option of the antd Select labelled `label`. */
async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option })
    .first()
    .click();
}

function saveButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Save', exact: true });
}

test('finance creates, finds, edits, archives, re-activates and downloads a budget', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, finance);

  await test.step('the New Budget button opens the form with its defaults', async () => {
    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: 'Budget' })
      .click();
    await expect(page).toHaveURL(/\/dashboard\/budget$/);
    // The header follows once the page has rendered (a navigation is a transition).
    await expect(page.getByTestId('new-button')).toHaveText('New Budget');
    await page.getByTestId('new-button').click();
    await expect(page).toHaveURL(/\/dashboard\/new-budget$/);
    await expect(page.getByTestId('page-title')).toHaveText('New Budget');
    await expect(page.locator('.ant-form-item', { hasText: 'Department' })).toContainText(
      'All departments',
    );
    await expect(page.locator('.ant-form-item', { hasText: 'Currency' })).toContainText('TZS');
    await expect(page.locator('.ant-form-item', { hasText: 'Expense category' })).toContainText(
      'Operating cost',
    );
    await expect(page.locator('.ant-form-item', { hasText: 'Branch' })).toContainText(
      'Stem Park Dar es Salaam',
    );
    await expect(
      page.getByText(
        'The cost code accepts only numbers from 1 to 99, and the final budget code is computed from the expense category and branch.',
      ),
    ).toBeVisible();
    await expect(
      page.getByText(
        'Use the description for extra metadata such as the source of funds or intended purpose.',
      ),
    ).toBeVisible();
    await expect(saveButton(page)).toBeDisabled();
  });

  await test.step('the form checks the cost code and previews the budget code live', async () => {
    await page.getByLabel('Name').fill(newBudget.name);
    await page.getByLabel('Amount').fill(newBudget.amount);
    await expect(page.getByLabel('Amount')).toHaveValue(newBudget.typedAmount);
    await choose(page, 'Expense category', 'Youth boot camps');
    await choose(page, 'Branch', 'HQ');
    const costCode = page.getByLabel('Cost code');
    await costCode.fill('0');
    await expect(saveButton(page)).toBeDisabled();
    await expect(page.getByTestId('budget-code')).toHaveText('90––');
    await costCode.fill('100');
    await expect(saveButton(page)).toBeDisabled();
    await expect(page.getByText('Code must be a number from 1 to 99')).toBeVisible();
    await costCode.fill('42');
    await expect(page.getByTestId('budget-code')).toHaveText(newBudget.code);
    await page
      .getByLabel('Description')
      .fill('Source of funds: e2e grant. Purpose: the 2026 camp.');
    await expect(saveButton(page)).toBeEnabled();
    await shot(page, 'budget-new-1280');
  });

  await test.step('saving shows the success panel, and Go Back leads to the list', async () => {
    await saveButton(page).click();
    await expect(page.getByText('Budget Added Successful!')).toBeVisible();
    await expect(page.getByText('You have succesfully added a budget code.')).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/dashboard\/budget$/);
  });

  await test.step('the list finds the new budget by search', async () => {
    const table = page.getByTestId('budget-table');
    await expect(table.getByRole('columnheader', { name: 'NAME' })).toBeVisible();
    for (const column of ['CODE', 'AMOUNT', 'DEPARTMENT', 'STATUS']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expect(table.getByRole('row', { name: /6105/ })).toBeVisible();
    await shot(page, 'budget-list-1280');
    await page.getByLabel('Search budgets').fill(newBudget.code);
    // Debounced 1 s (spec §9): the other budgets leave only after the pause.
    await expect(table.getByRole('row', { name: /6105/ })).toHaveCount(0);
    const row = table.getByRole('row', { name: new RegExp(newBudget.code) });
    await expect(row).toContainText(newBudget.name);
    await expect(row).toContainText('TZS 12,500,000');
    await expect(row).toContainText('All departments');
    await expect(row).toContainText('Active');
    await page.getByLabel('Search budgets').fill('no such budget anywhere');
    await expect(table.getByText('No budgets found!')).toBeVisible();
    await page.getByLabel('Search budgets').fill(newBudget.code);
    await table
      .getByRole('row', { name: new RegExp(newBudget.code) })
      .getByRole('button', { name: 'View Budget' })
      .click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/budget/${newBudget.code}$`));
  });

  await test.step('the detail shows the panels and the changelog', async () => {
    await expect(page.getByTestId('page-title')).toHaveText(`Budget - ${newBudget.code}`);
    await expect(page.getByTestId('budget-name')).toHaveText(newBudget.name);
    await expect(page.getByTestId('panel-amount')).toContainText('TZS 12,500,000');
    await expect(page.getByTestId('panel-balance')).toContainText('TZS 12,500,000');
    await expect(page.getByTestId('panel-category')).toContainText('Youth boot camps');
    await expect(page.getByTestId('panel-branch')).toContainText('HQ');
    await expect(page.getByTestId('archived-marker')).toHaveCount(0);
    await expect(
      page.getByText(
        'A budget code cannot be deleted once created. Edits may only increase the amount or change non-funding metadata.',
      ),
    ).toBeVisible();
    await expect(page.getByTestId('budget-changelog')).toContainText(
      'Chausiku Finance created the budget',
    );
    await expect(page.getByTestId('budget-requests-table')).toContainText('No requests found!');
  });

  await test.step('Download Requests saves an xlsx with the header row', async () => {
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download Requests' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(`${newBudget.code}-requests.xlsx`);
    const filePath = await download.path();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(filePath);
    const sheet = workbook.worksheets[0];
    expect(sheet).toBeDefined();
    const header = (sheet?.getRow(1).values as unknown[]).slice(1);
    // The columns of Settings' Download Requests, for this budget's requests.
    expect(header).toEqual([
      'Name',
      'Department',
      'Purpose',
      'Supplier',
      'Expenditure date',
      'Amount',
      'Currency',
      'Amount (TZS)',
      'Budget code',
      'Payment mode',
      'Status',
      'Approval number',
      'Justification',
      'Created',
    ]);
    await expect(page.getByText('Failed to download')).toHaveCount(0);
  });

  await test.step('an edit may only raise the amount', async () => {
    await page.getByRole('button', { name: 'Edit Budget' }).click();
    await expect(page).toHaveURL(/\/dashboard\/edit-budget\/[0-9a-f-]{36}\?code=9042$/);
    await expect(page.getByTestId('edit-budget-code')).toHaveText(newBudget.code);
    await expect(page.getByLabel('Name')).toHaveValue(newBudget.name);
    await expect(page.getByLabel('Amount')).toHaveValue(newBudget.typedAmount);
    await expect(page.getByLabel('Cost code')).toHaveValue('42');
    // No requests yet: nothing is frozen and Delete is offered.
    await expect(page.getByText(messages.priorRequestsBlockChange)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
    await shot(page, 'budget-edit-1280');

    const hint = page.getByText('Amounts can only go up: at least 12,500,000.');
    await expect(hint).toBeVisible();
    await page.getByLabel('Amount').fill('10000000');
    await expect(
      page.getByText('The amount can only be increased; it is 12,500,000 now.'),
    ).toBeVisible();
    // The error says it once: the field's hint, which says the same, steps aside meanwhile.
    await expect(hint).toHaveCount(0);
    await expect(saveButton(page)).toBeDisabled();
    await page.getByLabel('Amount').fill('15000000');
    await expect(page.getByLabel('Amount')).toHaveValue(newBudget.raisedAmount);
    await saveButton(page).click();
    await expect(page.getByText('Budget Edited Successful!')).toBeVisible();
    await expect(page.getByText('You have succesfully edited the budget code.')).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/budget/${newBudget.code}$`));
    await expect(page.getByTestId('panel-amount')).toContainText('TZS 15,000,000');
    const changelog = page.getByTestId('budget-changelog');
    await expect(changelog).toContainText('Chausiku Finance edited the budget');
    await expect(changelog).toContainText('Amount: TZS 12,500,000 → TZS 15,000,000');
  });

  await test.step('archive and re-activate from the edit page', async () => {
    await page.getByRole('button', { name: 'Edit Budget' }).click();
    await expect(
      page.getByText('Archiving makes this budget code unavailable to new requests.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Archive' }).click();
    await expect(page.getByRole('button', { name: 'Re-activate' })).toBeVisible();
    await expect(
      page.getByText('Re-activating makes this budget code accessible to new requests again.'),
    ).toBeVisible();

    await page.goto(`/dashboard/budget/${newBudget.code}`);
    await expect(page.getByTestId('archived-marker')).toHaveText('Archived');
    await expect(page.getByTestId('budget-changelog')).toContainText(
      'Chausiku Finance archived the budget',
    );

    // On a phone the list says the budget is archived without scrolling the table sideways.
    await page.setViewportSize(phone);
    await page.goto('/dashboard/budget');
    await page.getByLabel('Search budgets').fill(newBudget.code);
    const row = page
      .getByTestId('budget-table')
      .getByRole('row', { name: new RegExp(newBudget.code) });
    await expect(row.getByTestId('budget-row-facts')).toContainText('Archived');
    await expectUnclipped(row.getByTestId('budget-row-facts'));
    await expectNoSidewaysScroll(page);
    await shot(page, 'budget-list-archived-375');
    // Held sideways the department and the status have their columns: nothing under the name.
    await page.setViewportSize(widePhone);
    await expect(page.getByRole('columnheader', { name: 'STATUS' })).toBeVisible();
    await expect(row.getByTestId('budget-row-facts')).toHaveCount(0);
    await expect(row.getByText('Archived', { exact: true })).toHaveCount(1);
    await expectNoSidewaysScroll(page);
    // A small laptop (1024 px): long names take two lines, so every row's View Budget is in view
    // rather than scrolled out of the card.
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.getByLabel('Search budgets').fill('');
    await expect(
      page.getByTestId('budget-table').getByRole('button', { name: 'View Budget' }).first(),
    ).toBeVisible();
    await expectTableFits(page.getByTestId('budget-table'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/dashboard/budget/${newBudget.code}`);

    await page.getByRole('button', { name: 'Edit Budget' }).click();
    await expect(page.getByTestId('edit-budget-code')).toHaveText(newBudget.code);
    // Pressed offline, the change fails at once and says why, rather than spinning in silence.
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Re-activate' }).click();
    await expect(page.getByText(/The server could not be reached/)).toBeVisible({
      timeout: 10_000,
    });
    await page.context().setOffline(false);
    await page.getByRole('button', { name: 'Re-activate' }).click();
    await expect(page.getByRole('button', { name: 'Archive' })).toBeVisible();
    await page.goto(`/dashboard/budget/${newBudget.code}`);
    await expect(page.getByTestId('budget-name')).toHaveText(newBudget.name);
    await expect(page.getByTestId('archived-marker')).toHaveCount(0);
    await expect(page.getByTestId('budget-changelog')).toContainText(
      'Chausiku Finance re-activated the budget',
    );
  });

  await test.step('the edit page opens from its id alone', async () => {
    await page.getByRole('button', { name: 'Edit Budget' }).click();
    await expect(page).toHaveURL(/\/dashboard\/edit-budget\//);
    const url = new URL(page.url());
    await page.goto(url.pathname);
    await expect(page.getByTestId('edit-budget-code')).toHaveText(newBudget.code);
    await expect(page.getByLabel('Amount')).toHaveValue(newBudget.raisedAmount);
  });
});

test('the history chart draws several months as an area', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, finance);
  // Demo budgets are created today, so give 6105 a longer (made-up) history to draw.
  await page.route('**/api/v1/budget/6105', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { history: unknown[] } };
    body.data.history = [
      { month: '2026-07', amount: 400_000_000, committed: 20_000_000, spent: 5_000_000 },
      { month: '2026-08', amount: 400_000_000, committed: 90_000_000, spent: 60_000_000 },
      { month: '2026-09', amount: 500_000_000, committed: 160_000_000, spent: 120_000_000 },
      { month: '2026-10', amount: 500_000_000, committed: 240_000_000, spent: 200_000_000 },
      { month: '2026-11', amount: 500_000_000, committed: 310_000_000, spent: 250_000_000 },
    ];
    await route.fulfill({ response, json: body });
  });
  await page.goto('/dashboard/budget/6105');
  const chart = page.getByTestId('budget-history-chart');
  await expect(chart).toContainText('Jul 2026');
  await expect(chart).toContainText('Nov 2026');
  await shot(page, 'budget-detail-history-1280');
  // The page may ask for the budget again (its socket's catch-up when another test's event was
  // recent): a handler still reading that answer as the test ends would fail on the disposed answer.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('finance deletes a budget without requests after confirming', async ({ page }) => {
  await signIn(page, finance);
  await page.goto('/dashboard/new-budget');
  await page.getByLabel('Name').fill('Short-lived budget (e2e)');
  await page.getByLabel('Amount').fill('1000');
  await choose(page, 'Expense category', 'Unicef');
  await choose(page, 'Branch', 'Stem Park Tanga');
  await page.getByLabel('Cost code').fill('7');
  await expect(page.getByTestId('budget-code')).toHaveText('3207');
  await saveButton(page).click();
  await expect(page.getByText('Budget Added Successful!')).toBeVisible();

  await page.goto('/dashboard/budget/3207');
  await page.getByRole('button', { name: 'Edit Budget' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(
    'Are you sure you want to delete the budget 3207 from the system?',
  );
  // A click while the dialog still zooms in can land on nothing: CI once pressed Delete on a button
  // 14 × 6 px wide, and no request was sent.
  await settle(page);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/dashboard\/budget$/);
  await page.getByLabel('Search budgets').fill('3207');
  await expect(page.getByTestId('budget-table').getByText('No budgets found!')).toBeVisible();
});

test('a duplicate code shows the add-budget failure with the server error', async ({ page }) => {
  await signIn(page, finance);
  await page.goto('/dashboard/new-budget');
  await page.getByLabel('Name').fill('Duplicate of 6105');
  await page.getByLabel('Amount').fill('5000');
  await page.getByLabel('Cost code').fill('5');
  await expect(page.getByTestId('budget-code')).toHaveText('6105');
  await saveButton(page).click();
  await expect(page.getByTestId('form-error')).toHaveText(
    'Error! Failed to add budget A budget with code 6105 already exists.',
  );
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the budget pages fit the phone and a row opens its budget', async ({ page }) => {
    await signIn(page, finance);
    await page.getByTestId('mobile-footer').getByRole('link', { name: 'Budget' }).click();
    const table = page.getByTestId('budget-table');
    await expect(table.getByRole('row', { name: /6105/ })).toBeVisible();
    await expect(table.getByRole('button', { name: 'View Budget' })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    // Name, code and amount are read without scrolling the table.
    await expectUnclipped(table.getByRole('row', { name: /6105/ }).getByRole('cell').nth(2));
    await shot(page, 'budget-list-375');

    // Spec §2: on mobile the row click is the action.
    await table.getByRole('row', { name: /6105/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/budget\/6105$/);
    await expect(page.getByTestId('budget-history-chart')).toBeVisible();
    await expect(page.getByTestId('budget-requests-table')).toBeVisible();
    await expectNoSidewaysScroll(page);
    // Its requests too, "Request edit" and nine-digit amounts included.
    await expectUnclipped(page.getByTestId('budget-requests-table').locator('.ant-tag'));
    await shot(page, 'budget-detail-375');

    await page.getByRole('button', { name: 'Edit Budget' }).click();
    await expect(page.getByTestId('edit-budget-code')).toHaveText('6105');
    await expectNoSidewaysScroll(page);
    await shot(page, 'budget-edit-375');

    await page.goto('/dashboard/new-budget');
    await expect(page.getByTestId('budget-code-preview')).toBeVisible();
    await page.getByLabel('Cost code').fill('3');
    await expect(page.getByTestId('budget-code')).toHaveText('6103');
    await expectNoSidewaysScroll(page);
    await shot(page, 'budget-new-375');
  });
});

test('staff read the budgets of their department but cannot add or edit', async ({ page }) => {
  await signIn(page, staff);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Budget', exact: true })).toHaveCount(0);

  await page.goto('/dashboard/new-budget');
  await expect(page).toHaveURL(/\/dashboard\/budget$/);
  await expect(page.getByTestId('new-button')).toHaveCount(0);
  // Spec §6: engineering staff see their department's budgets and those shared with all.
  const table = page.getByTestId('budget-table');
  await expect(table.getByRole('row', { name: /6105/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /4001/ })).toHaveCount(0);

  await table
    .getByRole('row', { name: /6105/ })
    .getByRole('button', { name: 'View Budget' })
    .click();
  await expect(page.getByTestId('budget-name')).toHaveText('Dar park operations');
  await expect(page.getByRole('button', { name: 'Edit Budget' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download Requests' })).toHaveCount(0);

  // Another department's budget is not found, as if it did not exist (decisions §2).
  await page.goto('/dashboard/budget/4001');
  await expect(page.getByText('Budget not found')).toBeVisible();

  await page.goto('/dashboard/edit-budget/6105');
  await expect(page).toHaveURL(/\/dashboard\/budget$/);
});

test('the request form looks up budget codes as they are typed, twenty at a time', async ({
  page,
}) => {
  // Seventeen more active codes (7260–7276: rising steam stars 7000 + Tanga 200 + 60–76), so the
  // organisation has more than the twenty the field shows at once; removed again at the end.
  const financeToken = await apiToken(page.request, finance);
  const headers = { Authorization: `Bearer ${financeToken}` };
  const ids: string[] = [];
  try {
    for (let costCode = 60; costCode <= 76; costCode += 1) {
      const created = await page.request.post('/api/v1/budget', {
        headers,
        data: {
          name: `Tanga mentors ${costCode} (e2e lookup)`,
          amount: 1_000_000,
          department: 'all',
          amount_currency: 'tzs',
          code: costCode,
          meta_data: ['rising steam stars programmes', 'stemParkTanga'],
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      ids.push(((await created.json()) as { data: { id: string } }).data.id);
    }

    for (const viewport of [{ width: 1280, height: 900 }, phone]) {
      await page.setViewportSize(viewport);
      if (viewport === phone) await page.reload();
      else await signIn(page, staff);
      await page.goto('/dashboard/new-requests');
      const field = page.getByLabel('Budget Code');
      await field.click();
      const dropdown = page.locator('.ant-select-dropdown:visible');
      await expect(dropdown.getByTestId('budget-code-lookup-more')).toHaveText(
        'Showing the first 20 codes; type a code or a name to find others.',
      );
      await shot(page, `request-form-code-list-${viewport.width}`);
      await field.fill('mentors 73');
      await expect(dropdown.locator('.ant-select-item-option')).toHaveText([
        '7273 - Tanga mentors 73 (e2e lookup)',
      ]);
      await expect(dropdown.getByTestId('budget-code-lookup-more')).toHaveCount(0);
      await shot(page, `request-form-code-lookup-${viewport.width}`);
      // The server matches "name code", which the option's label ("code - name") does not contain.
      await field.fill('lookup) 7274');
      await expect(dropdown.locator('.ant-select-item-option')).toHaveText([
        '7274 - Tanga mentors 74 (e2e lookup)',
      ]);
      await field.fill('no such code');
      await expect(dropdown).toContainText('No active budget code matches “no such code”');
      await field.fill('7276');
      await dropdown.getByText('7276 - Tanga mentors 76 (e2e lookup)').click();
      await expect(page.getByText(/^Available in 7276: TZS 1,000,000/)).toBeVisible();
    }
  } finally {
    for (const id of ids) {
      const removed = await page.request.post('/api/v1/budget/remove', { headers, data: { id } });
      expect(removed.status(), await removed.text()).toBe(200);
    }
  }
});

test('a budget list that failed to load says so without "No budgets found!", and Try again loads it', async ({
  page,
}) => {
  const calls = await failCalls(page, '**/api/v1/budget?**');
  await signIn(page, finance);
  await page.goto('/dashboard/budget');
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 15_000 });
  // The list is not known to be empty: it could not be read.
  await expect(page.getByText('No budgets found!')).toHaveCount(0);
  const tryAgain = page.getByRole('alert').getByRole('button', { name: 'Try again' });
  await expect(tryAgain).toBeVisible();

  const release = calls.heal();
  await tryAgain.click();
  // The list is read again in place: it shows as loading, and still not as empty.
  const table = page.getByTestId('budget-table');
  await expect(page.locator('.ant-spin-spinning')).toBeVisible();
  await expect(page.getByText('No budgets found!')).toHaveCount(0);
  release();
  await expect(table.getByRole('row', { name: /4001/ })).toBeVisible();
  await expect(tryAgain).toHaveCount(0);
  await expect(page.getByText('No budgets found!')).toHaveCount(0);
});

test('the Remaining Balance panel says 100% committed only once nothing is left to request', async ({
  page,
}) => {
  const headers = { Authorization: `Bearer ${await apiToken(page.request, finance)}` };
  const created = await page.request.post('/api/v1/budget', {
    headers,
    data: {
      name: 'Nearly committed (e2e)',
      amount: 1_000_000,
      department: 'all',
      amount_currency: 'tzs',
      code: 19,
      meta_data: ['stem kits', 'hq'],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const staffHeaders = { Authorization: `Bearer ${await apiToken(page.request, staff)}` };
  const requestFor = async (amount: number) => {
    const submitted = await page.request.post('/api/v1/requests', {
      headers: staffHeaders,
      data: {
        amount_requested: amount,
        purpose: 'pettyCash',
        expenditure_date: todayIn('Africa/Dar_es_Salaam'),
        expenditure_justification: 'Markers and flip charts (e2e)',
        budget_code: '8019',
      },
    });
    expect(submitted.status(), await submitted.text()).toBe(201);
  };
  // 996,000 of 1,000,000 held: 99.6 %, yet 4,000 can still be requested.
  await requestFor(996_000);
  await signIn(page, finance);
  await page.goto('/dashboard/budget/8019');
  const panel = page.getByTestId('panel-balance');
  await expect(panel).toContainText('TZS 4,000');
  await expect(panel).toContainText('TZS 996,000 committed (99%)');
  await expect(panel.getByRole('progressbar')).toHaveAttribute('aria-label', '99% committed');
  await expect(panel.locator('.ant-progress-status-exception')).toHaveCount(0);

  // The last 4,000 requested: now it is used up.
  await requestFor(4_000);
  await page.reload();
  await expect(panel).toContainText('TZS 1,000,000 committed (100%)');
  await expect(panel.locator('.ant-progress-status-exception')).toHaveCount(1);
});
