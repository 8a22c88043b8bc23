import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import {
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';

export const demoPassword = 'Imprest#2026';

/** A chunk of the web build's manifest (apps/web/dist/.vite/manifest.json). */
export type Chunk = {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  assets?: string[];
};

/** The web build the tests run against (scripts/start.mjs builds it before the server starts). */
export const dist = path.resolve(import.meta.dirname, '../../apps/web/dist');

/** The build's chunk graph, by module. */
export function readManifest(): Record<string, Chunk> {
  return JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
}

/** The address of the app's entry file, from the build's manifest. */
export function entryFile(): string {
  const entry = Object.values(readManifest()).find((chunk) => chunk.isEntry);
  expect(entry, 'the build has an entry').toBeDefined();
  return `/${entry?.file}`;
}

/** The address of the build's chunk named `name` (apps/web/vite.config.ts names its groups). */
export function chunkFile(name: string): string {
  const chunk = Object.values(readManifest()).find((found) => found.name === name);
  expect(chunk, `the build has a ${name} chunk`).toBeDefined();
  return `/${chunk?.file}`;
}

/**
 * Holds the app's entry file back from `page` until the returned function is called: meanwhile
 * the page is its HTML alone (and what index.html's boot script asks for).
 */
export async function holdTheApp(page: Page): Promise<() => Promise<void>> {
  const release = await holdRequests(page, `**${entryFile()}`);
  return async () => {
    release();
    await page.unrouteAll({ behavior: 'wait' });
  };
}

/**
 * Holds back the requests of `target` (a page, or every page of a context) to `url`, as a slow
 * connection would, until the returned function is called: they then go on as they would have.
 */
export async function holdRequests(
  target: Page | BrowserContext,
  url: string | RegExp,
): Promise<() => void> {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await target.route(url, async (route) => {
    await released;
    await route.fallback();
  });
  return release;
}

/** Signs in through the sign-in page and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The server ends the page's session (as when its 7 days run out or a password changes elsewhere);
 * the page goes to the sign-in page, whose `next` is where it was. Then `email` signs in there
 * and is sent back to that page.
 */
export async function endSessionAndSignInAgain(
  page: Page,
  request: APIRequestContext,
  email: string,
): Promise<void> {
  const where = new URL(page.url()).pathname;
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const out = await request.post('/api/v1/users/logout', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(out.status()).toBeLessThan(300);
  await expect(page).toHaveURL(`/?next=${encodeURIComponent(where)}`, { timeout: 15_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(demoPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(where);
}

/**
 * Saves a screenshot under .tmp/screenshots for a person to look at: the whole page, or the
 * viewport when Chromium's capture beyond the viewport stalls (CI once waited out a test's two
 * minutes on it, at 375 px, on a page whose assertions had all passed). A page that cannot be
 * captured at all still fails the test.
 */
export async function shot(page: Page, name: string): Promise<void> {
  const path = `../.tmp/screenshots/${name}.png`;
  try {
    await page.screenshot({ path, fullPage: true, timeout: 20_000 });
  } catch (error) {
    if (page.isClosed()) throw error;
    console.warn(
      `shot ${name}: the full page was not captured (${String(error)}); the viewport instead`,
    );
    await page.screenshot({ path, timeout: 20_000 });
  }
}

/**
 * A day `offset` days from today in the organisation's calendar (Africa/Dar_es_Salaam, the
 * server's default): `DD/MM/YYYY` as the date pickers write it (en-GB), or `YYYY-MM-DD` (en-CA) as
 * the API takes it.
 */
export function organisationDay(offset = 0, locale: 'en-GB' | 'en-CA' = 'en-GB'): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: 'Africa/Dar_es_Salaam',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(Date.now() + offset * 86_400_000));
}

/**
 * Ends the executive secretary's live delegations through the API as the director, so a test
 * starts with none whatever an earlier one left (a second one for the same days would be refused).
 */
export async function endSecretaryDelegations(request: APIRequestContext): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, 'director@example.com')}` };
  for (const status of ['active', 'scheduled']) {
    const list = await request.get(`/api/v1/delegations?status=${status}&per_page=100`, {
      headers,
    });
    expect(list.status(), await list.text()).toBe(200);
    const { data } = (await list.json()) as {
      data: { id: string; delegator: { fullname: string } }[];
    };
    for (const delegation of data.filter((item) => item.delegator.fullname === 'Daudi Secretary')) {
      const ended = await request.post(`/api/v1/delegations/${delegation.id}/end`, { headers });
      expect(ended.status(), await ended.text()).toBe(200);
    }
  }
}

export const desktop = { width: 1280, height: 900 };
export const phone = { width: 375, height: 812 };
/**
 * A phone held sideways or a small tablet: the mobile layout, with the columns a table shows from
 * 576 px (antd's `sm`).
 */
export const widePhone = { width: 700, height: 900 };

/** A token of a demo account (or another, by its password), for setting up through the API. */
export async function apiToken(
  request: APIRequestContext,
  email: string,
  password = demoPassword,
): Promise<string> {
  const response = await request.post('/api/v1/users/authenticate', {
    data: { email, password },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { token: string };
  return body.token;
}

/** A page of its own browser context, signed in as a demo account. */
export async function pageOf(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: desktop,
    timezoneId: 'Africa/Dar_es_Salaam',
  });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/**
 * A fresh browser context signed in as `email` through a stored session, as someone who comes back
 * to the app: the token and user in localStorage, no sign-in page.
 */
export async function signedInContext(
  browser: Browser,
  request: APIRequestContext,
  email: string,
  options: Parameters<Browser['newContext']>[0] = {},
) {
  const token = await apiToken(request, email);
  const auth = await request.get('/api/v1/users/validate-token', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(auth.status()).toBe(200);
  const { token: fresh, user } = (await auth.json()) as { token: string; user: unknown };
  const context = await browser.newContext(options);
  await context.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token: fresh, user },
  );
  return context;
}

/**
 * Picks an option of an antd Select reached through its label. On a busy machine a click can land
 * while the dropdown is still sliding open, and the Select then keeps it open without choosing
 * (seen once in CI): so the pick is tried again, from opening the dropdown, until it has closed.
 */
export async function choose(page: Page, label: string | RegExp, option: string): Promise<void> {
  const field = page.getByLabel(label, { exact: typeof label === 'string' });
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await expect(async () => {
    if ((await dropdown.count()) === 0) await field.click();
    await dropdown.getByTitle(option, { exact: true }).click({ timeout: 5_000 });
    await expect(dropdown).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/** The rules every page is checked against: WCAG 2.2 A and AA, and axe's best practices. */
export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe finds no serious or critical violation (issue 13's bar) on the page, or only in the part
 * `within` (a CSS selector) names, once its animations have ended: a message still fading in would
 * be read at part of its contrast.
 */
export async function expectAccessible(page: Page, within?: string): Promise<void> {
  await settle(page);
  const builder = new AxeBuilder({ page }).withTags(axeTags);
  const results = await (within ? builder.include(within) : builder).analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
    );
  expect(blocking).toEqual([]);
}

/**
 * A table keeps to its card: nothing in it, its status or View included, is scrolled out of sight
 * sideways. Waits for antd's columns to settle after a change of width.
 */
export async function expectTableFits(table: Locator): Promise<void> {
  const content = table.locator('.ant-table-content');
  await expect
    .poll(() => content.evaluate((element) => element.scrollWidth - element.clientWidth))
    .toBeLessThanOrEqual(0);
}

/**
 * A control is on a phone's first screen: its bottom is above the fixed footer menu. Waits for the
 * page to settle after a change of width (antd's breakpoints re-render it a moment later: CI,
 * 6 December, read the control's box mid-way, 1,207 px down, then drew it at 300).
 */
export async function expectAboveFooter(page: Page, control: Locator): Promise<void> {
  const footer = page.getByTestId('mobile-footer');
  await expect(footer, 'the phone footer is shown').toBeVisible();
  await expect
    .poll(async () => {
      const [box, bar] = [await control.boundingBox(), await footer.boundingBox()];
      return (box?.y ?? Infinity) + (box?.height ?? 0) - (bar?.y ?? 0);
    })
    .toBeLessThanOrEqual(0);
}

/**
 * The page as printed (spec §2 Print): no menu, header or control of `record` (a CSS selector) on
 * paper, and nothing past the page's edge at a desktop's or a phone's width. Saves a screenshot
 * `name` and returns to the screen at the desktop's width.
 */
export async function expectPrintedRecord(page: Page, record: string, name: string): Promise<void> {
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('page-title')).toBeHidden();
  await expect(page.locator('.dashboard-sider:visible, .mobile-footer:visible')).toHaveCount(0);
  await expect(page.locator(`${record} :is(.ant-btn, [role="button"]):visible`)).toHaveCount(0);
  for (const size of [desktop, phone]) {
    await page.setViewportSize(size);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      size.width,
    );
  }
  await page.setViewportSize(desktop);
  await shot(page, name);
  await page.emulateMedia({ media: 'screen' });
}

/**
 * Two controls side by side or one above the other, at least `gap` pixels apart: neither touches
 * the other when they wrap on a phone.
 */
export async function expectApart(first: Locator, second: Locator, gap = 8): Promise<void> {
  const [a, b] = await Promise.all([first.boundingBox(), second.boundingBox()]);
  if (!a || !b) throw new Error('both controls are on screen');
  const below = b.y >= a.y + a.height - 1;
  const space = below
    ? b.y - (a.y + a.height)
    : Math.abs(b.x - a.x) - (b.x > a.x ? a.width : b.width);
  expect(space, below ? 'the gap between the rows' : 'the gap between them').toBeGreaterThanOrEqual(
    gap,
  );
}

/**
 * Opens the account menu and picks an item once the menu has finished opening. antd slides the
 * menu open in steps (prepare, start, active); on a busy machine the prepare step can last a
 * second, and a click pressed during it and released once the slide has begun (the menu shrunk
 * to start growing) is released over the page behind: the browser then clicks nothing, and Log
 * Out did nothing (seen in CI, and once in 25 runs here with both cores busy).
 */
export async function chooseFromUserMenu(
  page: Page,
  item: 'My profile' | 'Settings' | 'Log Out',
): Promise<void> {
  await page.getByTestId('user-menu').click();
  const menu = page.locator('.ant-dropdown:visible');
  await expect(menu).not.toHaveClass(/-appear|-enter/);
  await menu.getByRole('menuitem', { name: item }).click();
}

/** The page does not scroll sideways (spec: 375 px), once it has laid itself out for the width. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

/**
 * Expects each of `cells` to show whole, not cut off by its table's sideways scroll: on a phone a
 * row's amount and status must be read without scrolling the table.
 */
export async function expectUnclipped(cells: Locator): Promise<void> {
  for (const cell of await cells.all()) {
    const overhang = await cell.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const frame = (
        element.closest('.ant-table-content') ?? document.documentElement
      ).getBoundingClientRect();
      return Math.max(frame.left - box.left, box.right - frame.right);
    });
    expect(overhang, `"${await cell.innerText()}" shows whole`).toBeLessThanOrEqual(0.5);
  }
}

/** Picks a budget code in the request form: types it, then chooses its "code - name" option. */
export async function chooseBudgetCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Budget Code').fill(code);
  await page
    .locator('.ant-select-dropdown:visible')
    .getByText(new RegExp(`^${code} - `))
    .click();
}

export type RequestBody = {
  purpose: string;
  mode_of_service: string | null;
  name_of_establishment: string;
  expenditure_justification: string;
  amount_requested: number;
  budget_code: string;
  /** Stored names of files uploaded first (`uploadThroughApi`). */
  file_paths: string[];
};

/** A user added through the API: what the tests read back. */
export type CreatedUser = { id: string; email: string; fullname: string };

/** Adds a user with a password through the API as the director (POST users). */
export async function createUserThroughApi(
  request: APIRequestContext,
  user: { fullname: string; email: string; role?: string; password: string },
): Promise<CreatedUser> {
  const token = await apiToken(request, 'director@example.com');
  const response = await request.post('/api/v1/users', {
    headers: { Authorization: `Bearer ${token}` },
    data: [
      {
        fullname: user.fullname,
        email: user.email,
        department: 'engineering',
        role: user.role ?? 'staff',
        phone_number: '0712000000',
        password: user.password,
      },
    ],
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { users: CreatedUser[] };
  const created = body.users[0];
  if (!created) throw new Error('POST users answered no user');
  return created;
}

/** Submits a request through the API (as staff@example.com unless told) and returns its id. */
export async function createRequest(
  request: APIRequestContext,
  overrides: Partial<RequestBody> = {},
  ownerEmail = 'staff@example.com',
): Promise<string> {
  const token = await apiToken(request, ownerEmail);
  const inFiveDays = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
  const response = await request.post('/api/v1/requests', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      purpose: 'procurement',
      mode_of_service: 'goods',
      name_of_establishment: 'Kariakoo Supplies',
      expenditure_justification: 'Workshop materials for the e2e bootcamp',
      amount_requested: 2_000_000,
      amount_currency: 'tzs',
      budget_code: '6105',
      payment_mode: 'bank_transfer',
      tax_status: 'taxInclusive',
      expenditure_date: inFiveDays,
      ...overrides,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { id: string };
  return body.id;
}

/** Approves the first pending step of a request through the API, as `email` (its reviewer). */
export async function approveStepThroughApi(
  request: APIRequestContext,
  email: string,
  id: string,
  comments = '',
): Promise<void> {
  const token = await apiToken(request, email);
  const headers = { Authorization: `Bearer ${token}` };
  const read = await request.get(`/api/v1/requests/request/${id}`, { headers });
  expect(read.status(), await read.text()).toBe(200);
  const { reviews } = (await read.json()) as {
    reviews: { id: string; step: number; status: string }[];
  };
  const first = reviews
    .filter((review) => review.status === 'pending')
    .sort((a, b) => a.step - b.step)[0];
  const answer = await request.put('/api/v1/reviews', {
    headers,
    data: { id: first?.id, request_id: id, status: 'approved', comments },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** Finance attaches a retirement to an approved request through the API. */
async function attachRetirementThroughApi(request: APIRequestContext, id: string): Promise<void> {
  const token = await apiToken(request, 'finance@example.com');
  const response = await request.post('/api/v1/retirement/attach-retirement', {
    headers: { Authorization: `Bearer ${token}` },
    data: { id },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

/** Finance, then the secretary, approve a request through the API; returns its approval number. */
export async function approveThroughApi(request: APIRequestContext, id: string): Promise<string> {
  for (const email of ['finance@example.com', 'secretary@example.com']) {
    await approveStepThroughApi(request, email, id);
  }
  const headers = { Authorization: `Bearer ${await apiToken(request, 'staff@example.com')}` };
  const read = await request.get(`/api/v1/requests/request/${id}`, { headers });
  expect(read.status(), await read.text()).toBe(200);
  const { approval_number: approvalNumber } = (await read.json()) as {
    approval_number: string | null;
  };
  expect(approvalNumber).toBeTruthy();
  return approvalNumber ?? '';
}

/** A request of staff@example.com, approved and with a pending retirement; its approval number. */
export async function retirementAwaitingOwner(
  request: APIRequestContext,
  overrides: Partial<RequestBody> = {},
): Promise<{ id: string; approvalNumber: string }> {
  const id = await createRequest(request, overrides);
  const approvalNumber = await approveThroughApi(request, id);
  await attachRetirementThroughApi(request, id);
  return { id, approvalNumber };
}

/** The owner (staff@example.com) submits the retirement of a request through the API. */
export async function submitRetirementThroughApi(
  request: APIRequestContext,
  id: string,
  amountSpent: number,
): Promise<void> {
  const headers = { Authorization: `Bearer ${await apiToken(request, 'staff@example.com')}` };
  const read = await request.get(`/api/v1/requests/request/${id}`, { headers });
  expect(read.status(), await read.text()).toBe(200);
  const { current_retirement: retirement } = (await read.json()) as {
    current_retirement: { id: string } | null;
  };
  const response = await request.post('/api/v1/retirement/user-submit', {
    headers,
    data: {
      id: retirement?.id,
      amount_spent: amountSpent,
      amount_currency: 'tzs',
      comments: 'Receipts kept by the office.',
      file_paths: [],
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A one-page PDF with a correct cross-reference table, so a viewer can open it. */
export function minimalPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(text.length);
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** A 1×1 PNG. */
export const onePixelPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/**
 * Waits until `text` shows on the last page of a paginated table inside `container`, turning to
 * the last page on every try (the table may still be loading, or grow meanwhile): the pending
 * lists are queues, oldest first, so a request submitted just now is found there however many
 * wait before it.
 */
export async function expectOnLastPage(
  container: Locator,
  text: string,
  options: { timeout?: number } = {},
): Promise<void> {
  await expect
    .poll(
      async () => {
        const pages = container.locator('.ant-pagination-item');
        if ((await pages.count()) > 1) await pages.last().click();
        return container.getByText(text).count();
      },
      { timeout: options.timeout ?? 10_000 },
    )
    .toBeGreaterThan(0);
}

/**
 * Collects every Content-Security-Policy refusal of the page and its frames, as text: the
 * `securitypolicyviolation` events (reported through the console) and the console's own lines.
 */
export async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `csp-violation ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber} in ${document.location.href}`,
      );
    });
  });
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to|csp-violation/i.test(text)) violations.push(text);
  });
  page.on('pageerror', (error) => {
    if (/Content Security Policy/i.test(error.message)) violations.push(error.message);
  });
  return violations;
}

/** Waits for the dialog's opening animation (finite ones only: spinners turn forever). */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().endTime === Infinity,
      ),
  );
}

/** Opens an attachment of the request view by its display name; returns the preview dialog. */
export async function openAttachment(page: Page, name: string): Promise<Locator> {
  await page.getByTestId('attachment-list').getByRole('button', { name, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('file-preview-loading')).toHaveCount(0, { timeout: 20_000 });
  await settle(page);
  return dialog;
}

/** Uploads one file through a presigned POST, as the web app does; answers its stored name. */
export async function uploadThroughApi(
  request: APIRequestContext,
  token: string,
  name: string,
  buffer: Buffer,
  mimeType = 'application/octet-stream',
): Promise<string> {
  const presigned = await request.get(
    `/api/v1/files/presigned-post-url?file_name=${encodeURIComponent(name)}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  expect(presigned.status()).toBe(200);
  const body = (await presigned.json()) as {
    url: string;
    fields: Record<string, string>;
    file_name: string;
  };
  const stored = await request.post(body.url, {
    multipart: { ...body.fields, file: { name, mimeType, buffer } },
  });
  expect(stored.status(), await stored.text()).toBe(204);
  return body.file_name;
}

/**
 * The open date picker's dropdown lies inside the screen's width, every month it shows with it: at
 * 375 px a range picker's two months (576 px) were pushed off the left edge.
 */
export async function expectPickerInside(page: Page): Promise<void> {
  const dropdown = page.locator('.ant-picker-dropdown:visible');
  await expect(dropdown).toBeVisible();
  await settle(page);
  const width = page.viewportSize()?.width ?? 0;
  const boxes = await dropdown.evaluate((element) =>
    [element, ...Array.from(element.querySelectorAll('.ant-picker-panel'))]
      .map((part) => part.getBoundingClientRect())
      .filter((box) => box.width > 0)
      .map((box) => [Math.round(box.left), Math.round(box.right)]),
  );
  expect(boxes.length).toBeGreaterThan(1);
  const outside = boxes.filter(([left = 0, right = 0]) => left < 0 || right > width);
  expect(outside, `dropdown and months ${JSON.stringify(boxes)} in ${width} px`).toEqual([]);
}

/** The message failCalls answers with. */
export const serverFailure = 'Something went wrong on our side.';

/**
 * Makes the `method` calls to `url` fail with a server error (500), as a broken server would,
 * until heal() is called. The calls after heal() wait for the function it returns, so a test can
 * see the page while a retry runs.
 */
export async function failCalls(
  page: Page,
  url: string | RegExp,
  method = 'GET',
): Promise<{ heal: () => () => void }> {
  let isFailing = true;
  let healed = Promise.resolve();
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    if (isFailing) {
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: serverFailure }),
      });
    }
    await healed;
    return route.fallback();
  });
  return {
    heal() {
      let release = () => undefined as void;
      healed = new Promise<void>((resolve) => {
        release = resolve;
      });
      isFailing = false;
      return release;
    },
  };
}

/**
 * Drops one live event on its way to `page` (the socket itself stays up), as when a change lands
 * between the page's last refresh and its save: only a version check can then stop a stale save.
 * socket.io connects by HTTP long-polling and then upgrades to a WebSocket, and the page says
 * "connected" before the upgrade: so the event is dropped from both. In a polling answer it
 * becomes a no-op packet (engine.io's `6`), as an answer of no packets is not valid.
 */
export async function dropSocketEvent(page: Page, event: string): Promise<void> {
  await page.routeWebSocket(/\/socket\.io\//, (socket) => {
    const server = socket.connectToServer();
    server.onMessage((message) => {
      if (!String(message).includes(event)) socket.send(message);
    });
  });
  await page.route(/\/socket\.io\/.*transport=polling/, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    try {
      const response = await route.fetch({ timeout: 0 });
      const packets = (await response.text()).split('\x1e');
      const body = packets.map((packet) => (packet.includes(event) ? '6' : packet)).join('\x1e');
      await route.fulfill({ response, body });
    } catch (error) {
      // A poll still open when the test closes its page has nowhere to go.
      if (!page.isClosed()) throw error;
    }
  });
}

/**
 * Turns CSS transitions off in every document `page` opens, as a reduced-motion stylesheet does
 * and as a starved browser that skips frames may: no `transitionend` ever fires. What waits for one
 * (antd's loading icon once did) must not hang on it.
 */
export async function withoutTransitions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const style = document.createElement('style');
    style.textContent = '*, *::before, *::after { transition: none !important; }';
    document.addEventListener('DOMContentLoaded', () => document.head.append(style));
  });
}
