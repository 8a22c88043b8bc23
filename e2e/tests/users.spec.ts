import { expect, test, type Page } from '@playwright/test';
import { messages } from '@imprest/domain/messages.ts';
import { findMail } from './mailbox.ts';
import {
  apiToken,
  choose,
  chooseFromUserMenu,
  createUserThroughApi,
  demoPassword,
  desktop,
  expectNoSidewaysScroll,
  expectUnclipped,
  failCalls,
  phone,
  shot,
  signIn,
  expectAccessible,
} from './support.ts';

const director = 'director@example.com';
const finance = 'finance@example.com';
const admin = 'admin@example.com';

/** Spec texts, verbatim. */
const texts = {
  added: 'User added!',
  updated: 'User Update Successful',
  passwordsDiffer: 'Error! Password have to match',
};

/** A suffix that keeps this run's e-mail addresses apart from earlier runs'. */
const run = Date.now().toString(36);

/** Counts the page's calls of an API path ending (e.g. `/api/v1/users`) by one method. */
function countCalls(page: Page, method: string, pathEnd: string): { count: number } {
  const calls = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname.endsWith(pathEnd)) {
      calls.count += 1;
    }
  });
  return calls;
}

/** 50 users with 2 bad rows: row 17 has an invalid e-mail, row 33 a demo e-mail in other case. */
function bulkCsv(): Buffer {
  const lines = ['full name,department,phone,email'];
  for (let index = 1; index <= 50; index += 1) {
    const number = String(index).padStart(2, '0');
    let email = `bulk.${run}.${number}@example.org`;
    if (index === 17) email = `bulk.${run}.17-at-example.org`;
    if (index === 33) email = 'STAFF@Example.com';
    // A quoted name with a comma, padding to trim, a department by its label, and blank lines.
    const name = index === 5 ? `"Mwinyi, Bulk ${number}"` : `  Bulk ${run} ${number} `;
    const department = index % 2 === 0 ? 'Stem Kits' : 'engineering';
    lines.push(`${name},${department}, 07${number}123456 ,${email}`);
    if (index === 10) lines.push('', '  ');
  }
  // UTF-8 with a byte-order mark, as spreadsheets save it.
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n'), 'utf8')]);
}

async function openNewUsers(page: Page): Promise<void> {
  await page.goto('/dashboard/users');
  await expect(page.getByTestId('new-button')).toHaveText('New User');
  await page.getByTestId('new-button').click();
  await expect(page).toHaveURL(/\/dashboard\/new-users$/);
  await expect(page.getByTestId('page-title')).toHaveText('New Users');
}

test('an admin imports 50 users from a CSV, fixes the 2 bad rows, and finds them', async ({
  page,
}) => {
  await page.setViewportSize(desktop);
  await signIn(page, admin);
  await openNewUsers(page);

  await test.step('the single form offers no director position to an admin', async () => {
    await shot(page, 'new-users-single-1280');
    await page.getByLabel('Position', { exact: true }).click();
    const dropdown = page.locator('.ant-select-dropdown:visible');
    await expect(dropdown.getByTitle('Finance Officer', { exact: true })).toBeVisible();
    await expect(dropdown.getByTitle('Director', { exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
  });

  await page.locator('label.ant-radio-button-wrapper', { hasText: 'Multiple' }).click();
  await expect(page.getByRole('radio', { name: 'Multiple' })).toBeChecked();

  await test.step('the template downloads as User_Data_Template.csv', async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'User_Data_Template.csv' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('User_Data_Template.csv');
  });

  const input = page.getByTestId('file-upload-area').locator('input[type=file]');
  await test.step('a file other than CSV is refused', async () => {
    await expect(input).toHaveAttribute('accept', '.csv');
    await input.setInputFiles({
      name: 'users.xlsx',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a csv'),
    });
    await expect(page.getByTestId('file-upload-error')).toContainText(
      messages.fileExtensionNotSupported,
    );
  });

  await test.step('a header with other columns is named in the message', async () => {
    await input.setInputFiles({
      name: 'wrong.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('full name,department,mobile,email\nA,it,1,a@example.org\n'),
    });
    await expect(page.getByTestId('csv-error')).toContainText('missing "phone"');
    await expect(page.getByTestId('csv-error')).toContainText('unexpected "mobile"');
  });

  await test.step('a file saved by Excel: an empty last column is read, a phone it rewrote is named', async () => {
    await input.setInputFiles({
      name: 'excel.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `\uFEFFfull name,department,phone,email,\r\nExcel ${run},it,2.55712E+11,excel.${run}@example.org,\r\n`,
      ),
    });
    await expect(page.getByTestId('csv-error')).toHaveCount(0);
    await expect(page.getByTestId('csv-table')).toContainText(
      'Phone 2.55712E+11 was rewritten by the spreadsheet: format the phone column as text and enter the number again',
    );
  });

  await test.step('the preview marks the invalid and the taken e-mail', async () => {
    await input.setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: bulkCsv() });
    const summary = page.getByTestId('csv-summary');
    await expect(summary).toContainText('50 users read; 2 rows need fixing');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeDisabled();
    const table = page.getByTestId('csv-table');
    await expect(table.getByRole('row', { name: /Mwinyi, Bulk 05/ })).toContainText('0705123456');
    await expect(table.getByRole('row', { name: new RegExp(`Bulk ${run} 06`) })).toContainText(
      'Stem Kits',
    );
    // Spec §9: 10 a page; no size changer at 50 rows (it shows above 50).
    await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(10);
    await expect(page.locator('.ant-pagination-item')).toHaveCount(5);
    await expect(page.locator('.ant-pagination-options')).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Only rows to fix' }).check();
    await expect(table.locator('tbody tr.csv-row-bad')).toHaveCount(2);
    await expect(table.getByRole('row', { name: /17-at-example\.org/ })).toContainText(
      'Invalid e-mail address',
    );
    await expect(table.getByRole('row', { name: /STAFF@Example\.com/ })).toContainText(
      'A user with this e-mail already exists',
    );
    await shot(page, 'new-users-multiple-preview-1280');
    await page.setViewportSize(phone);
    await expectNoSidewaysScroll(page);
    await shot(page, 'new-users-multiple-preview-375');
    await page.setViewportSize(desktop);
  });

  await test.step('edit mode fixes both rows and Save adds all 50', async () => {
    await page.getByText('Edit', { exact: true }).click();
    await page.getByLabel('E-mail, row 17').fill(`bulk.${run}.17@example.org`);
    await page.getByLabel('E-mail, row 33').fill(`bulk.${run}.33@example.org`);
    await expect(page.getByTestId('csv-summary')).toContainText('50 users read and ready to save.');
    // A look at Single keeps the file read under Multiple, and the edits made to it.
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'Single' }).click();
    await expect(page.getByTestId('csv-summary')).toBeHidden();
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'Multiple' }).click();
    await expect(page.getByTestId('csv-summary')).toContainText('50 users read and ready to save.');
    await expect(page.getByLabel('E-mail, row 17')).toHaveValue(`bulk.${run}.17@example.org`);
    // A double click sends the batch once: the second POST would be refused ("already taken")
    // and could be the answer the page shows.
    const posts = countCalls(page, 'POST', '/api/v1/users');
    await page.getByRole('button', { name: 'Save', exact: true }).dblclick();
    await expect(page.getByText(texts.added, { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('50 users have been added.')).toBeVisible();
    expect(posts.count).toBe(1);
    await page.getByRole('button', { name: 'View Users' }).click();
    await expect(page).toHaveURL(/\/dashboard\/users$/);
  });

  await test.step('the users list finds them by search', async () => {
    const table = page.getByTestId('users-table');
    await page.getByLabel('Search users').fill(`bulk.${run}.17`);
    await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
    await expect(table).toContainText(`bulk.${run}.17@example.org`);
    await expect(table).toContainText('Staff');
    await page.getByLabel('Search users').fill(`Bulk ${run}`);
    await expect(table.getByText(`Bulk ${run} 02`, { exact: true })).toBeVisible();
    // 49 of this run's users are named alike (one is "Mwinyi, …"): pages of 10 with the pager.
    await expect(page.locator('.ant-pagination')).toContainText('5');
    await page.getByLabel('Search users').fill(`no-such-user-${run}`);
    await expect(table).toContainText('No users found!');
  });
});

test('the director invites a user by e-mail, who sets a password and signs in', async ({
  page,
}) => {
  const invitee = { fullname: `Invited ${run}`, email: `invited.${run}@example.org` };
  await page.setViewportSize(desktop);
  await signIn(page, director);
  await openNewUsers(page);

  await test.step('the single form adds the user without a password', async () => {
    await page.getByLabel('Full name').fill(invitee.fullname);
    await page.getByLabel('E-mail').fill(invitee.email);
    await choose(page, 'Department', 'Outreach');
    await page.getByLabel('Phone number').fill('07-12 345 678x');
    await expect(page.getByLabel('Phone number')).toHaveValue('0712345678');
    await choose(page, 'Position', 'Director');
    await expect(page.getByTestId('account-role')).toHaveValue('Director');
    await choose(page, 'Position', 'Petty Cash Custodian');
    await expect(page.getByTestId('account-role')).toHaveValue('Admin');
    const posts = countCalls(page, 'POST', '/api/v1/users');
    await page.getByRole('button', { name: 'Save', exact: true }).dblclick();
    await expect(page.getByText(texts.added, { exact: true })).toBeVisible();
    // This server sends e-mail through SMTP (GET settings/mail answers `smtp`).
    await expect(
      page.getByText(
        `An invitation e-mail has been sent to ${invitee.email} to choose a password.`,
      ),
    ).toBeVisible();
    await expect(page.getByTestId('form-error')).toHaveCount(0);
    expect(posts.count).toBe(1);
    await expect(page.getByRole('button', { name: 'View Users' })).toBeVisible();
  });

  await test.step('the same e-mail again fails with the server error', async () => {
    await openNewUsers(page);
    await page.getByLabel('Full name').fill('Someone Else');
    await page.getByLabel('E-mail').fill(invitee.email.toUpperCase());
    await choose(page, 'Department', 'Outreach');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByTestId('form-error')).toContainText('Error! Failed to create user');
    await expect(page.getByTestId('form-error')).toContainText('already taken');
  });

  let link = '';
  await test.step('the invitation e-mail arrives through SMTP with a link', async () => {
    await expect
      .poll(() => findMail(invitee.email, /reset-link\?token=/), { timeout: 20_000 })
      .not.toBeNull();
    const mail = findMail(invitee.email, /reset-link\?token=/) ?? '';
    link = /https?:\/\/\S+\/reset-link\?\S+/.exec(mail)?.[0] ?? '';
    expect(link).toContain('token=');
  });

  await test.step('the link leads to /new-password and the password works', async () => {
    const url = new URL(link);
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await page.goto(`${url.pathname}${url.search}`);
    await expect(page).toHaveURL(/\/new-password\?/);
    // An invitation's page greets a newcomer: nothing is being reset.
    await expect(page.getByRole('heading', { name: 'Welcome to Imprest' })).toBeVisible();
    await expect(
      page.getByText(`Choose the password you will sign in with as ${invitee.email}.`),
    ).toBeVisible();
    await expect(page.getByText('At least 8 characters, and not a common password.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reset Password' })).toHaveCount(0);
    await shot(page, 'invitation-new-password-1280');
    // A refused password says why, in the server's words, under the page's own title.
    await page.getByLabel('New Password').fill('password1');
    await page.getByLabel('Confirm Password').fill('password1');
    await page.getByRole('button', { name: 'Set Password' }).click();
    const refused = page.getByTestId('new-password-error');
    await expect(refused).toContainText("Error. Couldn't reset password");
    await expect(refused).toContainText(
      'This password is among the 10,000 most common passwords; choose another.',
    );
    await page.getByLabel('New Password').fill('Invited#2026x');
    await page.getByLabel('Confirm Password').fill('Invited#2026x');
    // A double click spends the link once; the second call, refused, used to be what the page
    // reported ("Error. Couldn't reset password") though the password was set.
    const resets = countCalls(page, 'POST', '/api/v1/forgot-password/validate');
    await page.getByRole('button', { name: 'Set Password' }).dblclick();
    await expect(page).toHaveURL(/\/success-auth$/);
    expect(resets.count).toBe(1);
    await expect(page.getByText('Password set', { exact: true })).toBeVisible();
    await expect(
      page.getByText('Your password is set. Sign in with it to start using Imprest.'),
    ).toBeVisible();

    // The link is spent: used again, the page says so.
    await page.goto(`${url.pathname}${url.search}`);
    await page.getByLabel('New Password').fill('Invited#2026y');
    await page.getByLabel('Confirm Password').fill('Invited#2026y');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expect(page.getByTestId('new-password-error')).toContainText(
      'This reset link is invalid or has expired. Ask for a new one.',
    );
    await signIn(page, invitee.email, 'Invited#2026x');
    await expect(page.getByTestId('user-menu')).toContainText(invitee.fullname);
  });
});

test('the director edits a user and changes their position', async ({ page, request }) => {
  const user = await createUserThroughApi(request, {
    fullname: `Edited ${run}`,
    email: `edited.${run}@example.org`,
    password: 'Edited#2026x',
  });
  await page.setViewportSize(desktop);
  await signIn(page, director);
  await page.goto('/dashboard/users');
  await page.getByLabel('Search users').fill(user.email);
  await page.getByTestId('users-table').getByText(user.fullname).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/view-user/${user.id}$`));
  await expect(page.getByTestId('page-title')).toHaveText('View User');

  await expect(page.getByLabel('Full name')).toBeDisabled();
  await expect(page.getByTestId('payment-request')).toHaveText('Allowed');
  await expect(page.getByText('Created On')).toBeVisible();
  await expect(page.getByText('Modified On')).toBeVisible();
  await expect(page.getByTestId('last-logged-in')).toHaveText('N/A');
  await expect(page.getByRole('button', { name: 'Delete' })).toBeVisible();
  await shot(page, 'user-view-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'user-view-375');
  await page.setViewportSize(desktop);

  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Full name')).toBeEnabled();
  await choose(page, 'Position', 'Finance Officer');
  await expect(page.getByTestId('account-role')).toHaveValue('Admin');
  await page.getByRole('button', { name: 'Update User' }).click();
  await expect(page.getByText(texts.updated, { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Back to the user' }).click();
  await expect(
    page.locator('.ant-form-item', { has: page.getByText('Position', { exact: true }) }),
  ).toContainText('Finance Officer');

  await test.step('delete asks first and then removes the user', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(
      page.getByText(`Are you sure you want to delete the user ${user.fullname} from the system?`),
    ).toBeVisible();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/dashboard\/users$/);
  });
});

test("a user's own change reaches the director's open view, and the director's save keeps it", async ({
  page,
  request,
}) => {
  const user = await createUserThroughApi(request, {
    fullname: `Followed ${run}`,
    email: `followed.${run}@example.org`,
    password: 'Followed#2026x',
  });
  const userToken = await apiToken(request, user.email, 'Followed#2026x');
  /** The user changes their own phone (My profile's call) while the director has them open. */
  async function ownPhone(phoneNumber: string): Promise<void> {
    const response = await request.put('/api/v1/users', {
      headers: { Authorization: `Bearer ${userToken}` },
      data: { user_id: user.id, phone_number: phoneNumber },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
  await page.setViewportSize(desktop);
  await signIn(page, director);
  await page.goto(`/dashboard/view-user/${user.id}`);
  const phoneField = page.getByLabel('Phone number');
  await expect(phoneField).toHaveValue('0712000000');
  await expect(page.getByRole('status', { name: 'Live updates: connected' })).toBeVisible();

  // Read-only: the field follows the refreshed user (update_user). It kept the first load's value.
  await ownPhone('255711222333');
  await expect(phoneField).toHaveValue('255711222333');

  // Editing: what the director typed stays; the fields they left follow the user's change.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Full name').fill(`Followed ${run} Renamed`);
  await ownPhone('255799888777');
  await expect(phoneField).toHaveValue('255799888777');
  await expect(page.getByLabel('Full name')).toHaveValue(`Followed ${run} Renamed`);
  await page.getByRole('button', { name: 'Update User' }).click();
  await expect(page.getByText(texts.updated, { exact: true })).toBeVisible();

  // The save sent the new name only: the user's phone is not put back to the old one.
  const stored = await request.get(`/api/v1/users/${user.id}`, {
    headers: { Authorization: `Bearer ${await apiToken(request, director)}` },
  });
  expect(stored.status()).toBe(200);
  const { user: body } = (await stored.json()) as {
    user: { fullname: string; phone_number: string };
  };
  expect({ fullname: body.fullname, phone_number: body.phone_number }).toEqual({
    fullname: `Followed ${run} Renamed`,
    phone_number: '255799888777',
  });
});

test('an admin changes only phone and e-mail; the users list at both widths', async ({ page }) => {
  await page.setViewportSize(desktop);
  await signIn(page, admin);
  await page.goto('/dashboard/users');
  const table = page.getByTestId('users-table');
  for (const header of ['NAME', 'DEPARTMENT', 'EMAIL ADDRESS', 'SYSTEM ROLE']) {
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  await choose(page, 'Department', 'Finance');
  await expect(table).toContainText('Chausiku Finance');
  await expect(table).not.toContainText('Asha Staff');
  await shot(page, 'users-list-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  // Each row's e-mail address and system role show whole at 375 px (the department goes under
  // the name), not cut off by the table's own sideways scroll.
  const row = table.getByRole('row', { name: /Chausiku Finance/ });
  const email = row.getByRole('cell', { name: 'finance@example.com', exact: true });
  await expectUnclipped(email);
  // The address wraps before its "@", never inside a word ("finance@exampl" / "e.com"): each of its
  // pieces sits on one line ("finance" / "@example.com").
  const pieces = await email.evaluate((cell) => {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const found: { text: string; lines: number; top: number }[] = [];
    for (let piece = walker.nextNode(); piece; piece = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(piece);
      const tops = Array.from(range.getClientRects(), (rect) => Math.round(rect.top));
      found.push({ text: piece.textContent ?? '', lines: new Set(tops).size, top: tops[0] ?? 0 });
    }
    return found;
  });
  expect(
    pieces.filter((piece) => piece.lines !== 1),
    JSON.stringify(pieces),
  ).toEqual([]);
  await expectUnclipped(row.getByRole('cell', { name: 'Admin', exact: true }));
  await expect(row).toContainText('Finance');
  await shot(page, 'users-list-375');
  await page.setViewportSize(desktop);

  await table.getByText('Chausiku Finance').click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('Full name')).toBeDisabled();
  await expect(page.getByLabel('Phone number')).toBeEnabled();
  // A finance officer holds a permission this admin lacks: their e-mail is not the admin's to
  // change, since a new address would take the account over (docs/decisions/0033).
  await expect(page.getByLabel('E-mail')).toBeDisabled();
  await expect(
    page.getByText('Only someone holding every permission of this user can change their e-mail.'),
  ).toBeVisible();
  await expect(page.getByTestId('last-logged-in')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByTestId('restrict-panel')).toHaveCount(0);

  // A staff member's e-mail is.
  await page.goto('/dashboard/users');
  await page.getByLabel('Search users').fill('Asha Staff');
  await table.getByText('Asha Staff').click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('E-mail')).toBeEnabled();
  await expect(page.getByLabel('Phone number')).toBeEnabled();
  await expect(page.getByLabel('Full name')).toBeDisabled();
});

test('my profile changes my phone and my password', async ({ page, request }) => {
  const password = 'Profile#2026x';
  const user = await createUserThroughApi(request, {
    fullname: `Profile ${run}`,
    email: `profile.${run}@example.org`,
    password,
  });
  await page.setViewportSize(desktop);
  await signIn(page, user.email, password);
  await chooseFromUserMenu(page, 'My profile');
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  await expect(page.getByTestId('profile-page')).toContainText(user.email);

  await page.getByLabel('Phone number').fill('+255 754 000 111');
  await expect(page.getByLabel('Phone number')).toHaveValue('255754000111');
  await page.getByRole('button', { name: 'Save phone number' }).click();
  await expect(page.getByText('Your phone number has been saved.')).toBeVisible();

  await page.getByLabel('Current password').fill(password);
  await page.getByLabel('New password', { exact: true }).fill('Changed#2026x');
  await page.getByLabel('Confirm new password').fill('Changed#2026y');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('password-mismatch')).toHaveText(texts.passwordsDiffer);

  await page.getByLabel('Current password').fill('Wrong#2026x');
  await page.getByLabel('Confirm new password').fill('Changed#2026x');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('password-error')).toContainText('current password');
  // A refused current password does not end the session.
  await expect(page).toHaveURL(/\/dashboard\/profile$/);
  await shot(page, 'profile-1280');
  await page.setViewportSize(phone);
  await expectNoSidewaysScroll(page);
  await shot(page, 'profile-375');
  await page.setViewportSize(desktop);

  await page.getByLabel('Current password').fill(password);
  await page.getByLabel('New password', { exact: true }).fill('Changed#2026x');
  await page.getByLabel('Confirm new password').fill('Changed#2026x');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByTestId('password-changed')).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard\/profile$/);

  await chooseFromUserMenu(page, 'Log Out');
  await signIn(page, user.email, 'Changed#2026x');
});

test('without SMTP, adding a user says the invitation was written to the mail folder, not sent', async ({
  page,
}) => {
  // This run's server has SMTP_URL; the server's answer without it (apps/server's settings
  // routes test) is given to the page instead, as GET settings/mail sends it.
  const folder = '/srv/imprest/data/mail';
  await page.route('**/api/v1/settings/mail', (route) =>
    route.fulfill({ json: { delivery: 'folder', folder } }),
  );
  const invitee = { fullname: `Unmailed ${run}`, email: `unmailed.${run}@example.org` };
  await page.setViewportSize(desktop);
  await signIn(page, director);
  await openNewUsers(page);
  await page.getByLabel('Full name').fill(invitee.fullname);
  await page.getByLabel('E-mail').fill(invitee.email);
  await choose(page, 'Department', 'Outreach');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(texts.added, { exact: true })).toBeVisible();
  await expect(
    page.getByText(
      `Imprest sends no e-mail until SMTP_URL is set, so the invitation to ${invitee.email} was written to a file in ${folder} on the server. Open it and pass its link on: the link lets them choose a password.`,
    ),
  ).toBeVisible();
  await expect(page.getByText(/has been sent/)).toHaveCount(0);

  // Settings says so too, beside the e-mail notifications switch.
  await page.goto('/dashboard/settings');
  await expect(page.getByTestId('mail-folder-notice')).toContainText(
    `This server sends no e-mail yetSMTP_URL is not set, so each e-mail Imprest writes (invitations, password resets, notifications) goes to a file in ${folder} on the server instead.`,
  );
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a position nobody can review as is named on the users and matrix pages until someone holds it', async ({
  page,
  request,
}) => {
  // The demo's one executive secretary, locked by finance: the default matrix's second step has
  // nobody to answer it, and requests would wait there.
  const signedIn = await request.post('/api/v1/users/authenticate', {
    data: { email: 'secretary@example.com', password: demoPassword },
  });
  expect(signedIn.status()).toBe(200);
  const secretaryId = ((await signedIn.json()) as { user: { id: string } }).user.id;
  const financeToken = await apiToken(request, finance);
  const restrict = async (lock: boolean) => {
    const response = await request.post('/api/v1/users/restrict', {
      headers: { Authorization: `Bearer ${financeToken}` },
      data: { user_id: secretaryId, lock_status: lock },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
  const alert = page.getByTestId('vacant-positions');
  await page.setViewportSize(desktop);
  await signIn(page, director);
  await page.goto('/dashboard/users');
  await expect(page.getByTestId('users-page').locator('table')).toBeVisible();
  await expect(alert).toHaveCount(0);

  await restrict(true);
  try {
    await page.reload();
    await expect(alert).toContainText('No active user holds the position Executive Secretary');
    await expect(alert).toContainText(
      'Requests wait at that step of the approval matrix, with nobody to review them.',
    );
    await shot(page, 'users-vacant-position-1280');
    await expectAccessible(page, '[data-testid="vacant-positions"]');
    await page.goto('/dashboard/approval-matrix');
    await expect(alert).toContainText('No active user holds the position Executive Secretary');
    await page.setViewportSize(phone);
    await expectNoSidewaysScroll(page);
    await shot(page, 'approval-matrix-vacant-position-375');
    await alert.getByRole('link', { name: 'Add a user' }).click();
    await expect(page).toHaveURL(/\/dashboard\/new-users$/);
  } finally {
    await restrict(false);
  }
  // Held again: the page asks afresh as it opens, and says nothing.
  await page.goto('/dashboard/approval-matrix');
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Executive Secretary' }).first()).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test('phone-width new users, single form', async ({ page }) => {
  await page.setViewportSize(phone);
  await signIn(page, admin);
  await page.goto('/dashboard/new-users');
  await expect(page.getByLabel('Full name')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, 'new-users-single-375');
});

test('a users list that failed to load says so without "No users found!", and Try again loads it', async ({
  page,
}) => {
  const calls = await failCalls(page, /\/api\/v1\/users\/department\//);
  await signIn(page, admin);
  await page.goto('/dashboard/users');
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No users found!')).toHaveCount(0);
  const tryAgain = page.getByRole('alert').getByRole('button', { name: 'Try again' });
  calls.heal()();
  await tryAgain.click();
  await expect(page.getByTestId('users-table').locator('.ant-table-row').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});
