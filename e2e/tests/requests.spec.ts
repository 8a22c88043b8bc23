import { expect, test, type Locator, type Page } from '@playwright/test';
import { messages } from '@imprest/domain/messages.ts';
import { amountTooLarge } from '@imprest/domain/money.ts';
import {
  choose,
  chooseBudgetCode,
  createRequest,
  desktop,
  endSessionAndSignInAgain,
  expectAboveFooter,
  expectAccessible,
  expectNoSidewaysScroll,
  expectTableFits,
  expectPrintedRecord,
  expectUnclipped,
  failCalls,
  organisationDay,
  pageOf,
  phone,
  widePhone,
  settle,
  shot,
  signIn,
} from './support.ts';

// The organisation's calendar (decisions §1: Africa/Dar_es_Salaam) decides what "today" is; these
// browsers live in it too, but for the one whose browser is elsewhere.
test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/** Opens a request view and answers its pending review with one of the three buttons. */
async function review(
  page: Page,
  id: string,
  decision: 'Accept' | 'Reject' | 'Return for Edits',
  comments = '',
): Promise<void> {
  await page.goto(`/dashboard/requests/${id}`);
  const panel = page.getByTestId('review-panel');
  await expect(panel).toBeVisible();
  if (comments) await panel.getByLabel('Comments (optional)').fill(comments);
  await panel.getByRole('button', { name: decision }).click();
  await expect(page.getByText('Review Successful')).toBeVisible();
}

function step(page: Page, title: string): Locator {
  return page.getByTestId('approval-progress').getByText(title, { exact: true });
}

test('staff submits a request through the form; finance and the secretary approve it', async ({
  page,
  browser,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.getByTestId('new-button').click();
  await expect(page).toHaveURL(/\/dashboard\/new-requests$/);

  const form = page.getByTestId('request-form');
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Asha Staff');
  await expect(form.getByLabel('Department')).toHaveValue('Engineering');
  await choose(page, 'Purpose', 'Travel');
  await expect(form.getByText('Name of Transporter')).toBeVisible();
  await choose(page, 'Mode of Transport', 'Public');
  await form.getByLabel('Name of Transporter').fill('Dar Express');
  await form
    .getByLabel('Expenditure Justification')
    .fill('Bus fares for the e2e visit to the Tanga stem park');

  // Spec §5: too large an amount shows the message and hides Submit.
  const amount = form.getByLabel('Amount Required');
  await amount.fill('600000000');
  await expect(amount).toHaveValue('600,000,000');
  // The field asks the server for the few codes matching what is typed, not for all of them.
  const lookup = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname.endsWith('/budget/codes') && url.searchParams.get('search') === '6105';
  });
  await page.getByLabel('Budget Code').fill('6105');
  const looked = await lookup;
  expect(new URL(looked.url()).searchParams.get('limit')).toBe('20');
  expect(looked.status()).toBe(200);
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/^6105 - /)
    .click();
  await expect(form.getByText(/^Available in 6105: /)).toBeVisible();
  await expect(page.getByText(messages.amountExceedsBalance)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await shot(page, 'request-form-over-balance-1280');

  // More than the money cap is more than any code holds: the same message, and the cap's own
  // under the field, not the server's refusal of the check.
  await amount.fill('20000000000000');
  await expect(amount).toHaveValue('20,000,000,000,000');
  await expect(form.getByText(amountTooLarge)).toBeVisible();
  await expect(page.getByTestId('budget-problem')).toHaveText(messages.amountExceedsBalance);
  await expect(form.getByText(/^Available in 6105: /)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await expect(page.getByText(/Invalid input/)).toHaveCount(0);

  // Spec §5: another currency than the budget code's hides Submit too. It is named first: an
  // amount in dollars says nothing against a balance in shillings (the server checks it first).
  await choose(page, 'Currency', 'USD');
  await expect(page.getByTestId('budget-problem')).toHaveText(messages.currencyDiffers);
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await amount.fill('1500000');
  await expect(amount).toHaveValue('1,500,000');
  await expect(page.getByTestId('budget-problem')).toHaveText(messages.currencyDiffers);
  await choose(page, 'Currency', 'TZS');
  await expect(page.getByText(messages.amountExceedsBalance)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
  await expect(page.getByText(messages.currencyDiffers)).toHaveCount(0);

  // Spec §5: an exclusive tax status asks for an explanation.
  await choose(page, 'Tax Status', 'Tax Exclusive');
  await expect(page.getByTestId('tax-exclusive-note')).toBeVisible();
  await choose(page, 'Tax Status', 'Tax Inclusive');
  await expect(page.getByTestId('tax-exclusive-note')).toHaveCount(0);
  await shot(page, 'request-form-1280');

  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Request successful')).toBeVisible();
  await page.getByRole('button', { name: 'View requests' }).click();
  await expect(page).toHaveURL(/\/dashboard\/requests$/);

  const row = page.getByTestId('request-row').filter({ hasText: 'TZS 1,500,000' }).first();
  await expect(row).toBeVisible();
  await shot(page, 'requests-list-1280');
  await row.click();
  const preview = page.getByTestId('request-preview');
  await expect(preview).toBeVisible();
  await expect(preview.getByText('Dar Express')).toBeVisible();
  await shot(page, 'requests-preview-1280');
  await settle(page);
  await page.getByRole('dialog').getByRole('button', { name: 'View Request' }).click();
  await expect(page.getByText('Approval Request', { exact: true })).toBeVisible();
  const id = page.url().split('/').pop() ?? '';
  expect(id).toMatch(/^[0-9a-f-]{36}$/);

  // The owner sees no review controls on their own request.
  await expect(page.getByTestId('review-panel')).toHaveCount(0);
  await expect(step(page, 'Received')).toBeVisible();
  await expect(step(page, 'Finance Officer')).toBeVisible();
  await expect(step(page, 'Executive Secretary')).toBeVisible();
  await expect(step(page, 'Director')).toHaveCount(0);

  const finance = await pageOf(browser, 'finance@example.com');
  await expect(
    finance.getByTestId('pending-requests').getByText('Asha Staff').first(),
  ).toBeVisible();
  await review(finance, id, 'Accept', 'Within the travel budget.');

  const secretary = await pageOf(browser, 'secretary@example.com');
  await review(secretary, id, 'Accept');
  await secretary.getByRole('button', { name: 'Back to the request' }).click();
  const year = organisationDay(0, 'en-CA').slice(0, 4); // the approval number's year is the organisation's
  await expect(secretary.getByTestId('approval-number')).toContainText(
    new RegExp(`AP-${year}-\\d{5}`),
  );
  await expect(secretary.getByTestId('reviewer-card')).toHaveCount(2);
  await expect(secretary.getByText('Within the travel budget.')).toBeVisible();

  // The owner sees it approved, with the number, and can look at it on a phone.
  await page.reload();
  await expect(page.getByTestId('approval-number')).toContainText(`AP-${year}-`);
  await shot(page, 'request-view-1280');
  // Print: the request without menus or buttons, the folded History either.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByTestId('approval-number')).toBeVisible();
  await expect(page.getByText('History', { exact: true })).toBeHidden();
  await expectPrintedRecord(page, '.request-view', 'request-view-print');
  await page.setViewportSize(phone);
  await expect(page.getByTestId('approval-number')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'request-view-375');

  // Finance starts the retirement; afterwards the request shows it and offers no second one.
  await finance.goto(`/dashboard/requests/${id}`);
  await finance.getByRole('button', { name: 'Request Retirement' }).click();
  await expect(finance.getByText('Successful Retirement Request')).toBeVisible();
  await finance.goto(`/dashboard/requests/${id}`);
  await expect(finance.getByText('Completed')).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Request Retirement' })).toHaveCount(0);

  await finance.context().close();
  await secretary.context().close();
});

test('Submit pressed right after typing the amount sends the request once the budget has answered', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.getByTestId('new-button').click();
  const form = page.getByTestId('request-form');
  await choose(page, 'Purpose', 'Travel');
  await choose(page, 'Mode of Transport', 'Public');
  await form.getByLabel('Name of Transporter').fill('Quick Coaches');
  await form.getByLabel('Expenditure Justification').fill('Submitted straight after the amount');
  await page.getByLabel('Budget Code').fill('6105');
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/^6105 - /)
    .click();
  await expect(form.getByText(/^Available in 6105: /)).toBeVisible();
  const posts: string[] = [];
  page.on('request', (call) => {
    if (call.method() === 'POST' && new URL(call.url()).pathname === '/api/v1/requests') {
      posts.push(call.url());
    }
  });

  // As a quick user does: the amount, then Submit at once, while its check is still on its way.
  // `force` clicks whatever is there, as a person does: a disabled button took the click and did
  // nothing (Playwright would otherwise wait for it to be enabled).
  await form.getByLabel('Amount Required').fill('321987');
  await page.getByTestId('submit-request').click({ force: true });
  await expect(page.getByText('Request successful')).toBeVisible();
  expect(posts).toHaveLength(1);
});

test('what was typed in a new request outlives a session the server ends, for its owner only', async ({
  page,
  request,
}) => {
  await page.setViewportSize(phone);
  await signIn(page, 'custodian@example.com');
  await page.getByTestId('new-button').click();
  const form = page.getByTestId('request-form');
  await choose(page, 'Purpose', 'Travel');
  await choose(page, 'Mode of Transport', 'Public');
  await form.getByLabel('Name of Transporter').fill('Kept Coaches');
  await form.getByLabel('Expenditure Justification').fill('Typed before the session ran out');
  await page.getByLabel('Budget Code').fill('6105');
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(/^6105 - /)
    .click();
  await form.getByLabel('Amount Required').fill('432100');

  // The session ends on the server (its 7 days ran out, or a password changed elsewhere).
  await endSessionAndSignInAgain(page, request, 'custodian@example.com');
  await expect(form.getByTestId('draft-restored')).toHaveText(
    'What you typed before your session ended is back. Check it, then submit.',
  );
  await expect(form.getByLabel('Name of Transporter')).toHaveValue('Kept Coaches');
  await expect(form.getByLabel('Expenditure Justification')).toHaveValue(
    'Typed before the session ran out',
  );
  await expect(form.getByLabel('Amount Required')).toHaveValue('432,100');
  await expect(form.locator('.ant-form-item').filter({ hasText: 'Budget Code' })).toContainText(
    '6105 - Dar park operations',
  );
  await expectNoSidewaysScroll(page);
  await shot(page, 'request-draft-restored-375');

  // Ended again, and someone else signs in on this tab: they never see the custodian's input.
  await endSessionAndSignInAgain(page, request, 'staff@example.com');
  await expect(form.getByLabel('Name of Transporter')).toHaveCount(0);
  await expect(form.getByLabel('Expenditure Justification')).toHaveValue('');
  await expect(form.getByTestId('draft-restored')).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('imprest.kept-drafts'))).toBeNull();
});

test('a request returned for edits is resubmitted by its owner as a second version', async ({
  page,
  browser,
  request,
}) => {
  const id = await createRequest(request, { amount_requested: 2_000_000 });
  const finance = await pageOf(browser, 'finance@example.com');
  await review(finance, id, 'Return for Edits', 'Please attach three quotations.');

  await page.setViewportSize(phone);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/view-request/${id}`);
  await expect(
    page.getByTestId('reviewer-card').getByText('Please attach three quotations.'),
  ).toBeVisible();
  // The owner's next step is said at the top, with the reviewer's words: on a phone it is on the
  // first screen, not under the whole request where the Edit button is.
  const notice = page.getByTestId('returned-for-edits');
  await expect(notice).toContainText(
    'Chausiku Finance (Finance Officer) returned this request for edits. Change it and submit it again.',
  );
  await expect(notice).toContainText('“Please attach three quotations.”');
  await expectAccessible(page, '[data-testid="returned-for-edits"]');
  const editHere = notice.getByRole('button', { name: 'Edit the request' });
  await expectAboveFooter(page, editHere);
  await expectNoSidewaysScroll(page);
  await shot(page, 'request-returned-for-edits-375');
  await page.setViewportSize(desktop);
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  await editHere.click();
  await expect(page).toHaveURL(/\/dashboard\/new-requests$/);
  const form = page.getByTestId('request-form');
  const amount = form.getByLabel('Amount Required');
  await expect(amount).toHaveValue('2,000,000');
  await expect(form.getByLabel('Name of Supplier')).toHaveValue('Kariakoo Supplies');
  // The request's code shows with its name and available amount before any lookup lists it.
  await expect(form.locator('.ant-form-item').filter({ hasText: 'Budget Code' })).toContainText(
    '6105 - Dar park operations',
  );
  await expect(form.getByText(/^Available in 6105: /)).toBeVisible();
  await amount.fill('2500000');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Request successful')).toBeVisible();
  await page.getByRole('button', { name: 'Open this request' }).click();

  await expect(page.getByText('Approval Request', { exact: true })).toBeVisible();
  await expect(page.getByTestId('request-amount')).toHaveText('2,500,000');
  await page.getByLabel('Select request version').click();
  const versions = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(versions).toHaveCount(2);
  await versions.filter({ hasText: 'Version 1' }).click();
  await expect(page.getByTestId('history-notice')).toBeVisible();
  await expect(page.getByTestId('request-amount')).toHaveText('2,000,000');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await shot(page, 'request-history-1280');
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);

  // The resubmitted version waits for finance again.
  await finance.goto(`/dashboard/requests/${page.url().split('/').pop() ?? ''}`);
  await expect(finance.getByTestId('review-panel')).toBeVisible();
  await finance.context().close();
});

test('a rejected request shows the rejection and offers no more decisions', async ({
  page,
  browser,
  request,
}) => {
  const id = await createRequest(request, {
    purpose: 'meals',
    mode_of_service: 'catering',
    amount_requested: 3_000_000,
  });
  const finance = await pageOf(browser, 'finance@example.com');
  // While an answer is on its way, its button spins and the other answers wait: no second answer
  // goes out with it. The answer is held here until that is seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await finance.route('**/api/v1/reviews', async (route) => {
    await held;
    await route.continue();
  });
  await finance.goto(`/dashboard/requests/${id}`);
  const panel = finance.getByTestId('review-panel');
  await panel.getByLabel('Comments (optional)').fill('Not a priority this quarter.');
  await panel.getByRole('button', { name: 'Reject' }).click();
  await expect(panel.getByRole('button', { name: 'Reject' })).toHaveAccessibleName(/loading/);
  await expect(panel.getByRole('button', { name: 'Accept' })).toBeDisabled();
  await expect(panel.getByRole('button', { name: 'Return for Edits' })).toBeDisabled();
  release();
  await expect(finance.getByText('Review Successful')).toBeVisible();
  await finance.context().close();

  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/requests/${id}`);
  await expect(page.getByTestId('request-view').getByText('Rejected').first()).toBeVisible();
  await expect(page.getByText('Not a priority this quarter.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);

  await page.goto('/dashboard/requests');
  await choose(page, 'Status', 'Rejected');
  await expect(
    page.getByTestId('request-row').filter({ hasText: 'TZS 3,000,000' }).first(),
  ).toBeVisible();
});

test('150,000,000 and above needs the director as third reviewer', async ({
  page,
  browser,
  request,
}) => {
  const id = await createRequest(request, { amount_requested: 160_000_000 });
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/requests/${id}`);
  await expect(step(page, 'Director')).toBeVisible();

  const finance = await pageOf(browser, 'finance@example.com');
  await review(finance, id, 'Accept');
  const secretary = await pageOf(browser, 'secretary@example.com');
  await review(secretary, id, 'Accept');
  await secretary.getByRole('button', { name: 'Back to the request' }).click();
  await expect(secretary.getByTestId('approval-number')).toHaveCount(0);
  await expect(secretary.getByTestId('review-panel')).toHaveCount(0);

  const director = await pageOf(browser, 'director@example.com');
  await director.goto(`/dashboard/requests/${id}`);
  await expect(director.getByTestId('owner-unretired-total')).toBeVisible();
  await expect(director.getByTestId('review-panel')).toBeVisible();
  await shot(director, 'request-review-1280');
  await director.setViewportSize(phone);
  await expectNoSidewaysScroll(director);
  await shot(director, 'request-review-375');
  await director.setViewportSize(desktop);
  await review(director, id, 'Accept', 'Approved for the full amount.');
  await director.getByRole('button', { name: 'Back to the request' }).click();
  await expect(director.getByTestId('approval-number')).toContainText(/AP-\d{4}-\d{5}/);
  await expect(director.getByTestId('reviewer-card')).toHaveCount(3);
  await expect(director.getByText('Third Reviewer')).toBeVisible();

  for (const other of [finance, secretary, director]) await other.context().close();
});

test('the requests list, search and form at 375 px', async ({ page, request }) => {
  await createRequest(request, {
    purpose: 'kits',
    mode_of_service: 'support',
    name_of_establishment: 'Mwanza Kits House',
    amount_requested: 420_000,
  });
  await createRequest(request, {
    purpose: 'accomodation',
    mode_of_service: 'hotel',
    name_of_establishment: 'Tanga Beach Hotel',
    amount_requested: 431_000,
  });
  await page.setViewportSize(phone);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/requests');
  await expect(page.getByTestId('request-row').first()).toBeVisible();
  // A phone leaves out the purpose and date columns; each row says them under the owner's name,
  // so one person's requests can be told apart.
  for (const [amount, purpose] of [
    ['TZS 420,000', 'Kits'],
    ['TZS 431,000', 'Accommodation'],
  ] as const) {
    const facts = page
      .getByTestId('request-row')
      .filter({ hasText: amount })
      .first()
      .getByTestId('request-row-facts');
    await expect(facts).toHaveText(new RegExp(`^${purpose}\\d{2}/\\d{2}/\\d{4}$`));
    await expectUnclipped(facts);
  }
  // Held sideways the purpose has its column, so a row names it once: only the date is left
  // under the name.
  await page.setViewportSize(widePhone);
  await expect(page.getByRole('columnheader', { name: 'PURPOSE' })).toBeVisible();
  const kits = page.getByTestId('request-row').filter({ hasText: 'TZS 420,000' }).first();
  await expect(kits.getByTestId('request-row-facts')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  await expect(kits.getByText('Kits', { exact: true })).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  // Beside the side menu on a tablet and a small laptop the table keeps to its card: a name takes
  // two lines rather than pushing the status and View out of sight. A tablet has the date under the
  // name; from 992 px it has its column.
  for (const [width, dateUnderName] of [
    [768, true],
    [1024, false],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('columnheader', { name: 'EXPENDITURE DATE' })).toHaveCount(
      dateUnderName ? 0 : 1,
    );
    await expect(kits.getByTestId('request-row-facts')).toHaveCount(dateUnderName ? 1 : 0);
    await expectTableFits(page.getByTestId('requests-table'));
    await expect(kits.getByText('TZS 420,000', { exact: true })).toBeVisible();
  }
  await page.setViewportSize(phone);
  // The search covers purpose, owner and approval number.
  await page.getByLabel('Search requests').fill('kits');
  await expect(page.getByTestId('request-row')).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  // Name, amount and status share the phone's width: the status is read without scrolling.
  await expectUnclipped(page.getByTestId('request-row').locator('.ant-tag'));
  await shot(page, 'requests-list-375');
  // A purpose is found by the label people read, not only by its key ('accomodation').
  await page.getByLabel('Search requests').fill('Accommodation');
  await expect(page.getByTestId('request-row').filter({ hasText: 'TZS 431,000' })).toHaveCount(1);
  await expect(page.getByTestId('request-row').filter({ hasText: 'TZS 420,000' })).toHaveCount(0);
  await page.getByLabel('Search requests').fill('kits');
  await expect(page.getByTestId('request-row')).toHaveCount(1);
  // On a phone a row opens the request itself (spec §2 Tables in general).
  await page.getByTestId('request-row').first().click();
  await expect(page.getByText('Approval Request', { exact: true })).toBeVisible();

  await page.goto('/dashboard/new-requests');
  await choose(page, 'Purpose', 'Meals');
  await expect(
    page.getByText('Food expenses are reimbursed afterwards on evidence.', { exact: false }),
  ).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'request-form-375');

  await page.goto('/dashboard/requests/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText(messages.requestNotFound)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
});

/** A day (`YYYY-MM-DD`) in a time zone. */
function dayIn(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);
}

test("a browser in another time zone takes the organisation's today as the form's", async ({
  browser,
}) => {
  // A zone whose calendar day differs from the organisation's right now: one of these always does.
  const today = dayIn('Africa/Dar_es_Salaam');
  const zone = ['Pacific/Pago_Pago', 'Pacific/Kiritimati'].find(
    (candidate) => dayIn(candidate) !== today,
  );
  expect(zone, 'a zone on another day').toBeDefined();
  const context = await browser.newContext({ viewport: desktop, timezoneId: zone });
  const page = await context.newPage();
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/new-requests');
  const form = page.getByTestId('request-form');
  const [year, month, day] = today.split('-');
  // The default date is the organisation's today, not the browser's.
  await expect(form.getByLabel('Intended Expenditure Date')).toHaveValue(`${day}/${month}/${year}`);
  await form.getByLabel('Intended Expenditure Date').click();
  const cell = (date: string) => page.locator(`.ant-picker-dropdown:visible td[title="${date}"]`);
  await expect(cell(today)).not.toHaveClass(/ant-picker-cell-disabled/);
  const yesterday = new Date(`${today}T12:00:00Z`);
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);
  const organisationYesterday = yesterday.toISOString().slice(0, 10);
  if ((await cell(organisationYesterday).count()) > 0)
    await expect(cell(organisationYesterday)).toHaveClass(/ant-picker-cell-disabled/);
  await page.keyboard.press('Escape');

  // And the server takes it.
  await choose(page, 'Purpose', 'Procurement');
  await choose(page, 'Type of Procurement', 'Goods');
  await form.getByLabel('Name of Supplier').fill('Kariakoo Supplies');
  await form.getByLabel('Expenditure Justification').fill('Bought on the day it is there');
  await form.getByLabel('Amount Required').fill('1000');
  await chooseBudgetCode(page, '6105');
  await expect(form.getByText(/^Available in 6105: /)).toBeVisible();
  await page.getByTestId('submit-request').click();
  await expect(page.getByText('Request successful')).toBeVisible();
  await context.close();
});

test('a requests list or a request that failed to load says so, not "No requests found!", and Try again loads it', async ({
  page,
  request,
}) => {
  const id = await createRequest(request);
  const list = await failCalls(page, /\/api\/v1\/requests\/user\//);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/requests');
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await expect(tryAgain).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No requests found!')).toHaveCount(0);
  list.heal()();
  await tryAgain.click();
  await expect(page.getByTestId('request-row').first()).toBeVisible();
  await expect(tryAgain).toHaveCount(0);

  const one = await failCalls(page, new RegExp(`/api/v1/requests/request/${id}`));
  await page.goto(`/dashboard/requests/${id}`);
  await expect(page.getByText('The request could not be loaded.')).toBeVisible({
    timeout: 15_000,
  });
  one.heal()();
  await tryAgain.click();
  await expect(page.getByText('The request could not be loaded.')).toHaveCount(0);
  await expect(page.getByTestId('request-view')).toBeVisible();
});
