import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { retirementWarningMessages } from '@imprest/domain/retirements.ts';
import {
  apiToken,
  approveThroughApi,
  choose,
  chooseFromUserMenu,
  createRequest,
  desktop,
  endSessionAndSignInAgain,
  expectAboveFooter,
  expectAccessible,
  expectNoSidewaysScroll,
  expectTableFits,
  expectPrintedRecord,
  expectOnLastPage,
  expectUnclipped,
  failCalls,
  minimalPdf,
  onePixelPng,
  pageOf,
  retirementAwaitingOwner,
  phone,
  widePhone,
  shot,
  signIn,
  submitRetirementThroughApi,
  uploadThroughApi,
} from './support.ts';

// The organisation's calendar (decisions §1) decides "today"; the browser follows it.
test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/** Spec §2 Retirement form texts, verbatim. */
const texts = {
  documentsBanner: 'To complete your request you are expected to add the retirement documents',
  submitted: 'Retirement Request successful!',
  submittedDetail:
    'Your retirement request has been successfully submitted. We will notify you as your request moves along the approval process.',
  reviewed: 'Retirement Review successful!',
  reviewedDetail: 'Your review to the retirement request has been successfully submitted.',
};

type ApiRequestView = {
  approval_number: string | null;
  reviews: { id: string; step: number; status: string }[];
  current_retirement: {
    id: string;
    status: string;
    reviews: { id: string; round: number; step: number; status: string }[];
  } | null;
};

async function readRequest(
  request: APIRequestContext,
  token: string,
  id: string,
): Promise<ApiRequestView> {
  const response = await request.get(`/api/v1/requests/request/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as ApiRequestView;
}

/** The Remaining Balance panel of a budget, as a number. */
async function remainingBalance(page: Page, code: string): Promise<number> {
  await page.goto(`/dashboard/budget/${code}`);
  const panel = page.getByTestId('panel-balance');
  await expect(panel).toContainText('TZS');
  const text = await panel.innerText();
  const amount = /TZS\s+(-?[\d,.]+)/.exec(text)?.[1] ?? '';
  expect(amount).not.toBe('');
  return Number(amount.replace(/,/g, ''));
}

function retirementStep(page: Page, title: string): Locator {
  return page
    .getByTestId('approval-progress')
    .locator('.ant-steps-item')
    .filter({ has: page.getByText(title, { exact: true }) });
}

/** Opens a retirement form as a reviewer and answers it; lands on the success panel. */
async function reviewRetirement(
  page: Page,
  id: string,
  decision: 'Accept' | 'Reject',
  comments = '',
): Promise<void> {
  await page.goto(`/dashboard/retirements/${id}`);
  const panel = page.getByTestId('retirement-review-panel');
  await expect(panel).toBeVisible();
  if (comments) await panel.getByLabel('Review Comments').fill(comments);
  await panel.getByRole('button', { name: decision }).click();
  await expect(page.getByText(texts.reviewed, { exact: true })).toBeVisible();
  await expect(page.getByText(texts.reviewedDetail, { exact: true })).toBeVisible();
}

test('the owner retires a request with receipts; finance marks the change returned; the budget gets it back', async ({
  page,
  browser,
  request,
}) => {
  const finance = await pageOf(browser, 'finance@example.com');
  const before = await remainingBalance(finance, '6105');

  const id = await createRequest(request, { amount_requested: 2_000_000 });
  // Finance reviews in the browser and sees the requester's standing beside the decision.
  await finance.goto(`/dashboard/requests/${id}`);
  const standing = finance.getByTestId('owner-unretired-total');
  await expect(standing).toContainText('Unretired approved requests of Asha Staff: TZS');
  // The demo owner has a retirement 20 days past due (apps/server/src/demo).
  await expect(standing.getByTestId('owner-oldest-due-date')).toContainText('Overdue');
  await finance.getByTestId('review-panel').getByRole('button', { name: 'Accept' }).click();
  await expect(finance.getByText('Review Successful')).toBeVisible();
  const secretaryToken = await apiToken(request, 'secretary@example.com');
  const afterFinance = await readRequest(request, secretaryToken, id);
  const secretaryStep = afterFinance.reviews.find((review) => review.status === 'pending');
  const secretaryReview = await request.put('/api/v1/reviews', {
    headers: { Authorization: `Bearer ${secretaryToken}` },
    data: { id: secretaryStep?.id, request_id: id, status: 'approved', comments: '' },
  });
  expect(secretaryReview.status()).toBe(200);

  // Spec §9 / decisions §3: the approved request holds its amount on the budget.
  expect(await remainingBalance(finance, '6105')).toBe(before - 2_000_000);

  await finance.goto(`/dashboard/requests/${id}`);
  // A double click starts one retirement: the second click sent another call, refused with 409.
  const attached: number[] = [];
  finance.on('response', (response) => {
    if (response.url().includes('/attach-retirement')) attached.push(response.status());
  });
  await finance.getByRole('button', { name: 'Request Retirement' }).dblclick();
  await expect(finance.getByText('Successful Retirement Request')).toBeVisible();
  // Time for a second call to have been answered, had one been sent.
  await finance.waitForTimeout(1_000);
  expect(attached).toEqual([201]);

  // The owner opens the retirement form from the request view.
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/requests/${id}`);
  await expect(retirementStep(page, 'Completed')).toContainText('Not Submitted');
  await page.getByRole('button', { name: 'Submit Retirement' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/retirements/${id}$`));
  await expect(page.getByTestId('page-title')).toHaveText('Retirement');
  await expect(page.getByText('Retirement Form', { exact: true })).toBeVisible();
  await expect(page.getByText('Status: Not Submitted', { exact: true })).toBeVisible();
  await expect(page.getByText(texts.documentsBanner, { exact: true })).toBeVisible();
  // Due 14 days after the expenditure date, which is still ahead: the mildest warning.
  await expect(page.getByTestId('retirement-warning')).toContainText(
    retirementWarningMessages.beforeGracePeriod,
  );
  const form = page.getByTestId('retirement-form');
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Asha Staff');
  await expect(form.getByLabel('Amount Received')).toHaveValue('TZS 2,000,000');
  await expect(form.getByLabel('Cost Code')).toHaveValue(/^6105 - /);

  const amount = form.getByLabel('Total Amount Spent');
  // Under the amount, as it is typed: what it leaves to return, or how far it goes over.
  const spentHint = form.getByText('Leave empty if nothing was spent.', { exact: true });
  await expect(spentHint).toBeVisible();
  await amount.fill('2100000');
  await expect(
    form.getByText('TZS 100,000 more than the amount received', { exact: true }),
  ).toBeVisible();
  await amount.fill('2000000');
  await expect(
    form.getByText('All of the amount received was spent: nothing to return.', { exact: true }),
  ).toBeVisible();
  await amount.fill('1500000');
  await expect(amount).toHaveValue('1,500,000');
  await expect(form.getByText('Cash to Return: TZS 500,000', { exact: true })).toBeVisible();
  await expect(spentHint).toHaveCount(0);
  await form.getByLabel('Comments').fill('Bus fares and two nights; change returned in cash.');
  const area = page.getByTestId('file-upload-area');
  await area.locator('input[type="file"]').setInputFiles([
    { name: 'fuel-receipt.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
    { name: 'hotel-receipt.png', mimeType: 'image/png', buffer: onePixelPng },
  ]);
  await expect(area.getByTestId('file-chip')).toHaveCount(2);
  await expect(area.locator('[aria-busy="true"]')).toHaveCount(0);
  await shot(page, 'retirement-form-edit-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'retirement-form-edit-375');
  await page.setViewportSize(desktop);

  await page.getByRole('button', { name: 'Submit Retirement' }).click();
  await expect(page.getByText(texts.submitted, { exact: true })).toBeVisible();
  await expect(page.getByText(texts.submittedDetail, { exact: true })).toBeVisible();
  await shot(page, 'retirement-submitted-1280');
  await page.getByRole('button', { name: 'Back to the retirement' }).click();

  // Preview: the values and the receipts, which open in the preview dialog.
  await expect(page.getByText('Status: Under Review', { exact: true })).toBeVisible();
  await expect(page.getByTestId('retirement-view')).toHaveAttribute('data-mode', 'preview');
  await expect(page.getByTestId('retirement-warning')).toHaveCount(0);
  await expect(page.getByTestId('amount-spent')).toHaveText('TZS 1,500,000');
  await page
    .getByTestId('attachment-list')
    .getByRole('button', { name: 'hotel-receipt.png', exact: true })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: 'hotel-receipt.png' })).toBeVisible();
  await page.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await shot(page, 'retirement-form-preview-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'retirement-form-preview-375');
  await page.setViewportSize(desktop);

  // Finance reviews it: 500,000 was not spent.
  await finance.goto(`/dashboard/retirements/${id}`);
  await expect(finance.getByTestId('retirement-view')).toHaveAttribute('data-mode', 'admin');
  // Spec §2: 'Cash Returned (currency amount)', the amount being what was not spent.
  const cash = finance.getByRole('checkbox', { name: 'Cash Returned (TZS 500,000)', exact: true });
  await expect(cash).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Request to Resubmit' })).toHaveCount(0);
  await shot(finance, 'retirement-form-admin-1280');
  await finance.setViewportSize(phone);
  await expectNoSidewaysScroll(finance);
  await shot(finance, 'retirement-form-admin-375');
  await finance.setViewportSize(desktop);
  await cash.check();
  await finance
    .getByTestId('retirement-review-panel')
    .getByLabel('Review Comments')
    .fill('Receipts match; the change is back in the cash box.');
  await finance.getByRole('button', { name: 'Accept' }).click();
  await expect(finance.getByText(texts.reviewed, { exact: true })).toBeVisible();
  await finance.getByRole('button', { name: 'View requests' }).click();
  await expect(finance).toHaveURL(/\/dashboard\/requests$/);

  // Finance has answered: no second review from them.
  await finance.goto(`/dashboard/retirements/${id}`);
  await expect(
    finance.getByText('Receipts match; the change is back in the cash box.'),
  ).toBeVisible();
  await expect(finance.getByTestId('retirement-review-panel')).toHaveCount(0);

  const secretary = await pageOf(browser, 'secretary@example.com');
  // The next reviewer sees the cash confirmed, not a box to tick again.
  await secretary.goto(`/dashboard/retirements/${id}`);
  const confirmed = secretary.getByRole('checkbox', { name: 'Cash Returned (TZS 500,000)' });
  await expect(confirmed).toBeChecked();
  await expect(confirmed).toBeDisabled();
  await expect(secretary.getByTestId('cash-returned-confirmed')).toHaveText(
    'An earlier reviewer confirmed the cash came back.',
  );
  await reviewRetirement(secretary, id, 'Accept');

  // The request is completed.
  await page.goto(`/dashboard/requests/${id}`);
  await expect(retirementStep(page, 'Completed')).toContainText('Approved');
  await page.getByRole('button', { name: 'View Retirement' }).click();
  await expect(page.getByText('Status: Approved', { exact: true })).toBeVisible();
  await expect(page.getByTestId('funds-returned')).toBeVisible();
  await expect(page.getByTestId('reviewer-card')).toHaveCount(2);

  // Print, for the paper file with the receipts: the retirement without menus or buttons, and
  // nothing past the page's edge.
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('amount-spent')).toBeVisible();
  await expect(page.getByTestId('reviewer-card')).toHaveCount(2);
  await expectPrintedRecord(page, '[data-testid="retirement-view"]', 'retirement-print');

  // The budget gets back what was not spent.
  expect(await remainingBalance(finance, '6105')).toBe(before - 1_500_000);

  await finance.context().close();
  await secretary.context().close();
});

test('a rejected retirement is reopened by its owner, edited and submitted again', async ({
  page,
  browser,
  request,
}) => {
  const { id } = await retirementAwaitingOwner(request, {
    purpose: 'meals',
    mode_of_service: 'catering',
    amount_requested: 800_000,
  });
  await submitRetirementThroughApi(request, id, 800_000);

  const finance = await pageOf(browser, 'finance@example.com');
  await finance.goto(`/dashboard/retirements/${id}`);
  // Everything was spent: no cash to mark as returned.
  await expect(finance.getByTestId('retirement-review-panel')).toBeVisible();
  await expect(finance.getByRole('checkbox', { name: /Cash Returned/ })).toHaveCount(0);
  await reviewRetirement(finance, id, 'Reject', 'The catering invoice is missing.');

  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/retirements/${id}`);
  await expect(page.getByText('Status: Rejected', { exact: true })).toBeVisible();
  await expect(
    page.getByTestId('reviewer-card').getByText('The catering invoice is missing.'),
  ).toBeVisible();
  await expect(page.getByTestId('retirement-warning')).toHaveCount(0);
  // The owner's next step is said at the top, with the reviewer's words and the button: on a phone
  // it is on the first screen, above the footer, not under the whole retirement.
  const notice = page.getByTestId('retirement-rejected');
  await expect(notice).toContainText(
    'Chausiku Finance (Finance Officer) rejected this retirement. Ask to resubmit it, then change it and submit it again.',
  );
  await expect(notice).toContainText('“The catering invoice is missing.”');
  await expectAccessible(page, '[data-testid="retirement-rejected"]');
  await shot(page, 'retirement-form-rejected-1280');
  await page.setViewportSize(phone);
  await expectAboveFooter(page, notice.getByRole('button', { name: 'Request to Resubmit' }));
  await expectNoSidewaysScroll(page);
  await shot(page, 'retirement-form-rejected-375');
  await page.setViewportSize(desktop);
  // Only the owner may ask to resubmit.
  await finance.goto(`/dashboard/retirements/${id}`);
  await expect(finance.getByText('Status: Rejected', { exact: true })).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Request to Resubmit' })).toHaveCount(0);

  // A double click reopens it once.
  const reopened: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/retirement/request-edit')) reopened.push(response.status());
  });
  await page.getByRole('button', { name: 'Request to Resubmit' }).dblclick();
  await expect(page.getByText('Status: Not Submitted', { exact: true })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(reopened).toEqual([200]);
  const form = page.getByTestId('retirement-form');
  const amount = form.getByLabel('Total Amount Spent');
  await expect(amount).toHaveValue('800,000');
  await expect(form.getByLabel('Comments')).toHaveValue('Receipts kept by the office.');
  await amount.fill('750000');
  await expect(form.getByText('Cash to Return: TZS 50,000', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Submit Retirement' }).click();
  await expect(page.getByText(texts.submitted, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Back to the retirement' }).click();
  await expect(page.getByText('Status: Under Review', { exact: true })).toBeVisible();
  await expect(page.getByTestId('amount-spent')).toHaveText('TZS 750,000');
  // The first submission's rejection stays on record; the notice is gone.
  await expect(page.getByText('The catering invoice is missing.')).toBeVisible();
  await expect(page.getByTestId('retirement-rejected')).toHaveCount(0);

  // The second submission waits for finance again, now with 50,000 to return.
  await finance.goto(`/dashboard/retirements/${id}`);
  await expect(finance.getByTestId('retirement-review-panel')).toBeVisible();
  await expect(
    finance.getByRole('checkbox', { name: 'Cash Returned (TZS 50,000)', exact: true }),
  ).toBeVisible();
  await finance.context().close();
});

test('the retirements list: search, status filter, staff and admin mode, at 375 and 1280 px', async ({
  page,
  request,
}) => {
  const kits = await retirementAwaitingOwner(request, {
    purpose: 'kits',
    mode_of_service: 'support',
    amount_requested: 431_000,
  });
  const hotel = await retirementAwaitingOwner(request, {
    purpose: 'accomodation',
    mode_of_service: 'hotel',
    amount_requested: 432_000,
  });
  await submitRetirementThroughApi(request, hotel.id, 400_000);

  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  // Home lists what the owner still has to retire, each leading to its form.
  const outstanding = page.getByTestId('outstanding-retirements');
  const kitsItem = outstanding
    .getByTestId('outstanding-retirement')
    .filter({ hasText: 'TZS 431,000' });
  await expect(kitsItem).toContainText('Kits');
  await expect(kitsItem).toContainText('Escalates on');
  await expect(
    outstanding.getByTestId('outstanding-retirement').filter({ hasText: 'TZS 432,000' }),
  ).toHaveCount(0);
  await shot(page, 'home-retirements-1280');

  await page.goto('/dashboard/retirements');
  await expect(page.getByTestId('page-title')).toHaveText('Retirement');
  for (const column of [
    'NAME',
    'PURPOSE',
    'RETIREMENT DATE',
    'AMOUNT REQUESTED',
    'AMOUNT SPENT',
    'STATUS',
  ]) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  const rows = page.getByTestId('retirement-row');
  const kitsRow = rows.filter({ hasText: 'TZS 431,000' });
  await expect(kitsRow).toContainText('Not Submitted');
  await expect(kitsRow.getByTestId('retirement-due')).toContainText('Due');
  const hotelRow = rows.filter({ hasText: 'TZS 432,000' });
  await expect(hotelRow).toContainText('Under Review');
  await expect(hotelRow).toContainText('TZS 400,000');
  await shot(page, 'retirements-list-1280');

  // The search finds a retirement by its request's approval number.
  await page.getByLabel('Search retirements').fill(kits.approvalNumber);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('TZS 431,000');
  await page.getByLabel('Search retirements').fill('');
  await choose(page, 'Status', 'On Progress');
  await expect(hotelRow).toBeVisible();
  await expect(kitsRow).toHaveCount(0);
  for (const status of await rows.allInnerTexts()) expect(status).toContain('Under Review');
  await choose(page, 'Status', 'Pending');
  await expect(kitsRow).toBeVisible();
  await expect(hotelRow).toHaveCount(0);
  await kitsRow.getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/retirements/${kits.id}$`));
  await expect(page.getByText(texts.documentsBanner, { exact: true })).toBeVisible();

  // At 375 px the list fits, and a row opens the form.
  // (Phones show name, amount spent and status only, so the row is found through the search.)
  await page.setViewportSize(phone);
  await page.goto('/dashboard/retirements');
  await expect(rows.first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectUnclipped(rows.locator('.ant-tag'));
  await shot(page, 'retirements-list-375');
  await page.getByLabel('Search retirements').fill(hotel.approvalNumber);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('TZS 400,000');
  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/retirements/${hotel.id}$`));
  await expect(page.getByText('Status: Under Review', { exact: true })).toBeVisible();
  await page.goto('/dashboard');
  await expect(kitsItem).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'home-retirements-375');

  // Staff mode lists one's own retirements (finance has none); Admin mode everyone's.
  await page.setViewportSize(desktop);
  await chooseFromUserMenu(page, 'Log Out');
  await signIn(page, 'finance@example.com');
  await page.goto('/dashboard/retirements');
  await expect(page.getByText('No retirements found!')).toBeVisible();
  await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
  await expect(kitsRow).toContainText('Asha Staff');
  await shot(page, 'retirements-list-admin-1280');
  await page.getByTestId('mode-switcher').getByText('Staff', { exact: true }).click();
  await expect(page.getByText('No retirements found!')).toBeVisible();
});

/** A scanner's name for a receipt: long, and without a space to break it at. */
const scannedName = 'Scan_2026-11-29_Hotel_Serena_Dar_es_Salaam_invoice_000123_copy.pdf';

test('a long receipt name fits a phone, in the request and in its retirement, for the owner and finance', async ({
  page,
  browser,
  request,
}) => {
  const token = await apiToken(request, 'staff@example.com');
  const stored = await uploadThroughApi(
    request,
    token,
    scannedName,
    minimalPdf(),
    'application/pdf',
  );
  const { id } = await retirementAwaitingOwner(request, {
    amount_requested: 1_210_000,
    file_paths: [stored],
  });
  const current = await readRequest(request, token, id);
  const submitted = await request.post('/api/v1/retirement/user-submit', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      id: current.current_retirement?.id,
      amount_spent: 1_000_000,
      amount_currency: 'tzs',
      comments: 'Hotel, two nights.',
      file_paths: [stored],
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);

  await page.setViewportSize(phone);
  await signIn(page, 'staff@example.com');
  for (const path of [`/dashboard/requests/${id}`, `/dashboard/retirements/${id}`]) {
    await page.goto(path);
    const chip = page.getByTestId('attachment-list').getByRole('button', { name: scannedName });
    await expect(chip).toBeVisible();
    await expectNoSidewaysScroll(page);
    // Shortened in its cell, and whole in its title.
    await expect(chip).toHaveAttribute('title', scannedName);
  }
  await shot(page, 'retirement-long-receipt-name-375');

  const finance = await pageOf(browser, 'finance@example.com');
  await finance.setViewportSize(phone);
  await finance.goto(`/dashboard/retirements/${id}`);
  await expect(finance.getByTestId('retirement-review-panel')).toBeVisible();
  await expectNoSidewaysScroll(finance);
  await finance.context().close();
});

test('Submit Retirement pressed twice sends the retirement once and says it worked', async ({
  page,
  request,
}) => {
  const { id } = await retirementAwaitingOwner(request, { amount_requested: 904_000 });
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/retirements/${id}`);
  await page.getByTestId('retirement-form').getByLabel('Total Amount Spent').fill('904000');
  const answers: number[] = [];
  // A slow connection: the answer takes a second, as a second click lands.
  await page.route('**/api/v1/retirement/user-submit', async (route) => {
    const response = await route.fetch();
    answers.push(response.status());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await route.fulfill({ response });
  });
  await page.getByRole('button', { name: 'Submit Retirement' }).dblclick();
  await expect(page.getByText(texts.submitted, { exact: true })).toBeVisible();
  await expect(page.getByTestId('retirement-submit-error')).toHaveCount(0);
  expect(answers).toEqual([200]);
});

test('what was typed in a retirement, receipts included, outlives a session the server ends and is submitted', async ({
  page,
  request,
}) => {
  const { id } = await retirementAwaitingOwner(request, { amount_requested: 905_000 });
  await page.setViewportSize(phone);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/retirements/${id}`);
  const form = page.getByTestId('retirement-form');
  await form.getByLabel('Total Amount Spent').fill('804500');
  await form.getByLabel('Comments').fill('Typed before the session ran out');
  const area = page.getByTestId('file-upload-area');
  await area
    .locator('input[type="file"]')
    .setInputFiles([
      { name: 'kept-receipt.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
    ]);
  await expect(area.getByTestId('file-chip')).toHaveCount(1);
  await expect(area.locator('[aria-busy="true"]')).toHaveCount(0);

  // The session ends on the server (its 7 days ran out, or a password changed elsewhere).
  await endSessionAndSignInAgain(page, request, 'staff@example.com');

  await expect(form.getByTestId('draft-restored')).toHaveText(
    'What you typed before your session ended is back. Check it, then submit.',
  );
  await expect(form.getByLabel('Total Amount Spent')).toHaveValue('804,500');
  await expect(form.getByLabel('Comments')).toHaveValue('Typed before the session ran out');
  await expect(area.getByTestId('file-chip')).toHaveCount(1);
  await expect(area.getByTestId('file-chip')).toContainText('kept-receipt.pdf');
  await expectNoSidewaysScroll(page);
  await shot(page, 'retirement-draft-restored-375');

  // What was put back is what goes to the server: the amount, the comments and the receipt.
  await page.getByRole('button', { name: 'Submit Retirement' }).click();
  await expect(page.getByText(texts.submitted, { exact: true })).toBeVisible();
  const stored = await request.get(`/api/v1/requests/request/${id}`, {
    headers: { Authorization: `Bearer ${await apiToken(request, 'staff@example.com')}` },
  });
  const view = (await stored.json()) as {
    current_retirement: { amount_spent: number; comments: string; files: unknown[] } | null;
  };
  expect(view.current_retirement).toMatchObject({
    amount_spent: 804_500,
    comments: 'Typed before the session ran out',
  });
  expect(JSON.stringify(view.current_retirement)).toContain('kept-receipt.pdf');
  expect(await page.evaluate(() => sessionStorage.getItem('imprest.kept-drafts'))).toBeNull();
});

test('a receipt removed with the keyboard leaves the focus on the next one, then on the drop area', async ({
  page,
  request,
}) => {
  const { id } = await retirementAwaitingOwner(request, { amount_requested: 505_000 });
  await page.setViewportSize(desktop);
  await signIn(page, 'staff@example.com');
  await page.goto(`/dashboard/retirements/${id}`);
  const area = page.getByTestId('file-upload-area');
  await area.locator('input[type="file"]').setInputFiles([
    { name: 'a-receipt.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
    { name: 'b-receipt.pdf', mimeType: 'application/pdf', buffer: minimalPdf() },
  ]);
  await expect(area.getByTestId('file-chip')).toHaveCount(2);
  await expect(area.locator('[aria-busy="true"]')).toHaveCount(0);
  await area.getByRole('button', { name: 'Remove a-receipt.pdf' }).focus();
  await page.keyboard.press('Enter');
  await expect(area.getByTestId('file-chip')).toHaveCount(1);
  await expect(area.getByRole('button', { name: 'Remove b-receipt.pdf' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(area.getByTestId('file-chip')).toHaveCount(0);
  await expect(area.locator('.ant-upload[role="button"]')).toBeFocused();
});

test("finance's View retirements after Request Retirement lists the retirement it started", async ({
  browser,
  request,
}) => {
  const id = await createRequest(request, { amount_requested: 733_000 });
  await approveThroughApi(request, id);
  const finance = await pageOf(browser, 'finance@example.com');
  await finance.setViewportSize(desktop);
  // Finance is in Staff mode, where its list holds its own retirements only.
  await finance.goto(`/dashboard/requests/${id}`);
  await finance.getByRole('button', { name: 'Request Retirement' }).click();
  await expect(finance.getByText('Successful Retirement Request')).toBeVisible();
  await finance.getByRole('button', { name: 'View retirements' }).click();
  await expect(finance).toHaveURL(/\/dashboard\/retirements$/);
  await expect(
    finance.getByTestId('retirement-row').filter({ hasText: 'TZS 733,000' }),
  ).toBeVisible();
  await finance.context().close();
});

test('on a phone, each retirement row says what was requested, for what and by when', async ({
  page,
  request,
}) => {
  await retirementAwaitingOwner(request, { amount_requested: 611_000 });
  await retirementAwaitingOwner(request, { amount_requested: 622_000 });
  await page.setViewportSize(phone);
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/retirements');
  const rows = page.getByTestId('retirement-row');
  for (const amount of ['TZS 611,000', 'TZS 622,000']) {
    const row = rows.filter({ hasText: amount });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('retirement-row-facts')).toContainText(`Procurement${amount}`);
    await expect(row.getByTestId('retirement-row-facts')).toContainText(/Due \d{2}\/\d{2}\/\d{4}/);
    await expectUnclipped(row.getByTestId('retirement-row-facts'));
  }
  await expectNoSidewaysScroll(page);
  await shot(page, 'retirements-list-rows-375');
  // Held sideways the purpose has its column, so a row names it once.
  await page.setViewportSize(widePhone);
  await expect(page.getByRole('columnheader', { name: 'PURPOSE' })).toBeVisible();
  const row = rows.filter({ hasText: 'TZS 611,000' });
  await expect(row.getByTestId('retirement-row-facts')).not.toContainText('Procurement');
  await expect(row.getByTestId('retirement-row-facts')).toContainText(/Due \d{2}\/\d{2}\/\d{4}/);
  await expect(row.getByText('Procurement', { exact: true })).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  // A tablet (768 and 900 px) and a small laptop (1024 px) have no room for the amount requested's
  // column beside the side menu: it is under the name, and the rest, status and View included, in
  // the table's card.
  for (const width of [768, 900, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByRole('columnheader', { name: 'RETIREMENT DATE' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'AMOUNT REQUESTED' })).toHaveCount(0);
    await expect(row.getByTestId('retirement-row-facts')).toHaveText('TZS 611,000');
    // On one line: the amount does not break after its currency.
    const facts = await row.getByTestId('retirement-row-facts').boundingBox();
    expect(facts?.height).toBeLessThan(24);
    await expectTableFits(page.getByTestId('retirements-page'));
    await expectNoSidewaysScroll(page);
  }
  // A laptop shows every column, and nothing under the name.
  await page.setViewportSize(desktop);
  await expect(page.getByRole('columnheader', { name: 'AMOUNT REQUESTED' })).toBeVisible();
  await expect(row.getByTestId('retirement-row-facts')).toHaveCount(0);
  await expect(row.getByText('TZS 611,000', { exact: true })).toHaveCount(1);
});

test('a retirements list that failed to load says so without "No retirements found!", and Try again loads it', async ({
  page,
}) => {
  const calls = await failCalls(page, '**/api/v1/retirement/requests**');
  await signIn(page, 'staff@example.com');
  await page.goto('/dashboard/retirements');
  const failure = page.getByRole('alert').filter({ hasText: 'Something went wrong on our side.' });
  await expect(failure).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No retirements found!')).toHaveCount(0);
  calls.heal()();
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('retirement-row').first()).toBeVisible();
  await expect(failure).toHaveCount(0);
});

test("Home lists the retirements waiting for the reviewer's answer, live, and each leaves once answered", async ({
  browser,
  request,
}) => {
  // An amount no other test uses, spent in full (no cash to return), so its row is recognisable.
  const amount = 100_000 + Math.floor(Math.random() * 800_000);
  const tzs = `TZS ${amount.toLocaleString('en-GB')}`;
  const { id } = await retirementAwaitingOwner(request, { amount_requested: amount });

  const finance = await pageOf(browser, 'finance@example.com');
  const secretary = await pageOf(browser, 'secretary@example.com');
  for (const reviewer of [finance, secretary]) {
    await expect(reviewer.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();
    await expect(reviewer.getByTestId('pending-requests')).toBeVisible();
  }
  const financeList = finance.getByTestId('pending-retirements');
  const secretaryList = secretary.getByTestId('pending-retirements');
  await expect(financeList.getByText(tzs)).toHaveCount(0);

  // Its owner submits it: it arrives on finance's Home, the first step's, without a reload; not on
  // the secretary's, whose step comes next.
  await submitRetirementThroughApi(request, id, amount);
  await expectOnLastPage(financeList, tzs, { timeout: 15_000 });
  await expect(secretaryList.getByText(tzs)).toHaveCount(0);

  // Its row's View opens the retirement form, where finance answers it.
  const row = financeList.getByTestId('retirement-row').filter({ hasText: tzs });
  await expect(row.getByRole('cell').first()).toHaveText('Asha Staff');
  await row.getByRole('button', { name: 'View', exact: true }).click();
  await expect(finance).toHaveURL(new RegExp(`/dashboard/retirements/${id}$`));
  const panel = finance.getByTestId('retirement-review-panel');
  await panel.getByRole('button', { name: 'Accept' }).click();
  await expect(finance.getByText(texts.reviewed, { exact: true })).toBeVisible();

  // Now it waits for the secretary, whose Home shows it live; finance's no longer does.
  await expectOnLastPage(secretaryList, tzs, { timeout: 15_000 });
  await finance.goto('/dashboard');
  await expect(finance.getByTestId('recent-requests')).toBeVisible();
  await expect(financeList.getByText(tzs)).toHaveCount(0);

  // On a phone the list fits the screen.
  await secretary.setViewportSize(phone);
  await expectNoSidewaysScroll(secretary);
  await shot(secretary, 'home-pending-retirements-375');
  await secretary.setViewportSize(desktop);
  await shot(secretary, 'home-pending-retirements-1280');
  await reviewRetirement(secretary, id, 'Accept');
  await secretary.goto('/dashboard');
  await expect(secretary.getByTestId('recent-requests')).toBeVisible();
  await expect(secretaryList.getByText(tzs)).toHaveCount(0);

  // The owner, a staff member, reviews nothing: no such list on their Home.
  const staff = await pageOf(browser, 'staff@example.com');
  await expect(staff.getByTestId('recent-requests')).toBeVisible();
  await expect(staff.getByTestId('pending-retirements')).toHaveCount(0);

  for (const user of [finance, secretary, staff]) await user.context().close();
});
