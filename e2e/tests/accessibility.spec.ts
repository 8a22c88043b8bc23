import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import {
  chooseFromUserMenu,
  createRequest,
  desktop,
  phone,
  settle,
  shot,
  signIn,
} from './support.ts';

// Issue 13: axe-core on every page of the app at 1280 and 375 px finds no serious or critical
// violation of WCAG 2.2 A/AA (and axe's best practices). Each page is checked once its data has
// loaded, so tables, tags and review controls are part of what is checked.

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/** WCAG 2.0–2.2 A and AA, and axe's best practices. */
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

type Finding = { page: string; rule: string; impact: string; help: string; targets: string[] };

/** Waits until nothing on the page is loading any more: spinners, skeletons, animations. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('.ant-skeleton-active')).toHaveCount(0);
  await expect(page.getByTestId('fullscreen-loader')).toHaveCount(0);
  await settle(page);
}

/** Runs axe on the page as it stands; returns every violation found, whatever its impact. */
async function audit(page: Page, name: string): Promise<Finding[]> {
  await settled(page);
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
  return results.violations.map((violation) => ({
    page: name,
    rule: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
  }));
}

/** Opens a page of the dashboard by its address and waits for its header title. */
async function open(page: Page, url: string, title: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('page-title')).toHaveText(title);
}

/** The serious and critical findings, as readable lines for the failure message. */
function blocking(findings: Finding[]): string[] {
  return findings
    .filter((finding) => finding.impact === 'serious' || finding.impact === 'critical')
    .map(
      (finding) =>
        `${finding.page}: [${finding.impact}] ${finding.rule} — ${finding.help} — ${finding.targets.join(' | ')}`,
    );
}

for (const [label, viewport] of [
  ['1280', desktop],
  ['375', phone],
] as const) {
  test(`every page at ${label} px: no serious or critical axe violation`, async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const findings: Finding[] = [];
    // A request finance is the first reviewer of: its view shows the review controls.
    const requestId = await createRequest(request, {
      expenditure_justification: 'Projector cables for the accessibility check',
      amount_requested: 410_000,
    });

    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
    findings.push(...(await audit(page, 'sign-in')));
    // The sign-in page with its messages: a field error and a refused sign-in.
    await page.getByLabel('Email').fill('not an address');
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Enter a valid e-mail address')).toBeVisible();
    await page.getByLabel('Email').fill('staff@example.com');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid credentials')).toBeVisible();
    findings.push(...(await audit(page, 'sign-in with errors')));

    // Staff: their own requests and retirements, with the outstanding retirements on Home.
    await signIn(page, 'staff@example.com');
    findings.push(...(await audit(page, 'Home (staff)')));
    await open(page, '/dashboard/requests', 'Requests');
    findings.push(...(await audit(page, 'requests (staff)')));
    await open(page, '/dashboard/retirements', 'Retirement');
    findings.push(...(await audit(page, 'retirements (staff)')));
    await open(page, '/dashboard/new-requests', 'New Requests');
    await expect(page.getByTestId('request-form')).toBeVisible();
    findings.push(...(await audit(page, 'new request')));
    await chooseFromUserMenu(page, 'Log Out');
    await expect(page).toHaveURL(/\/$/);

    // Finance in admin mode sees every list with rows, the budgets, the users and the review.
    await signIn(page, 'finance@example.com');
    await page.getByTestId('mode-switcher').getByText('Admin', { exact: true }).click();
    await settled(page);
    findings.push(...(await audit(page, 'Home (finance, admin mode)')));
    await open(page, '/dashboard/requests', 'Requests');
    findings.push(...(await audit(page, 'requests (admin mode)')));
    await open(page, `/dashboard/requests/${requestId}`, 'Requests');
    await expect(page.getByText('Approval Request', { exact: true })).toBeVisible();
    await expect(page.getByTestId('review-panel')).toBeVisible();
    findings.push(...(await audit(page, 'request view with the review')));
    await open(page, '/dashboard/budget', 'Budget');
    await expect(page.getByTestId('budget-table').locator('.ant-table-row').first()).toBeVisible();
    findings.push(...(await audit(page, 'budgets')));
    await open(page, '/dashboard/retirements', 'Retirement');
    findings.push(...(await audit(page, 'retirements (admin mode)')));
    await open(page, '/dashboard/users', 'Users');
    await expect(page.getByTestId('users-table').locator('.ant-table-row').first()).toBeVisible();
    findings.push(...(await audit(page, 'users')));
    await open(page, '/dashboard/settings', 'Settings');
    findings.push(...(await audit(page, 'settings')));
    await shot(page, `accessibility-settings-${label}`);

    test.info().annotations.push({
      type: `axe findings at ${label} px (all impacts)`,
      description:
        findings
          .map((finding) => `${finding.page}: ${finding.impact} ${finding.rule}`)
          .join('; ') || 'none',
    });
    expect(blocking(findings)).toEqual([]);
  });
}
