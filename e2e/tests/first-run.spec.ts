import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  apiToken,
  desktop,
  expectAccessible,
  expectNoSidewaysScroll,
  phone,
  shot,
  signIn,
} from './support.ts';

/** A port nobody listens on just now. */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * A server of its own on an empty database, as `npm start` first finds it (the suite's server
 * holds the demo organisation): scripts/e2e-server.mjs --empty, on a free port.
 */
async function startEmptyServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const server: ChildProcess = spawn(
    process.execPath,
    [path.resolve(import.meta.dirname, '../../scripts/e2e-server.mjs'), '--empty'],
    { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the empty server exited (${server.exitCode})`);
    const answer = await fetch(`${url}/api/v1/setup`).catch(() => null);
    if (answer?.ok) break;
    if (Date.now() > deadline) throw new Error('the empty server did not answer in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    url,
    // SIGTERM, as Ctrl-C stops it: the script then removes its data folder (and database).
    stop: async () => {
      server.kill('SIGTERM');
      await exited;
    },
  };
}

const director = {
  organisation: 'Kilimo Trust',
  fullname: 'Neema Mushi',
  email: 'neema@kilimo.example',
  password: 'Kilimo#2026 secure',
};

test('a new organisation: its director sets it up, and Home says what is left until requests can go through', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const server = await startEmptyServer();
  const context = await browser.newContext({ baseURL: server.url, viewport: phone });
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Set up your organisation' }).click();
    await page.getByLabel('Organisation name').fill(director.organisation);
    await page.getByLabel('Full name').fill(director.fullname);
    await page.getByLabel('Email').fill(director.email);
    await page.getByLabel('Password').fill(director.password);
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    await test.step('Home lists what is left: the reviewers, and a budget code', async () => {
      const guide = page.getByTestId('getting-started');
      await expect(guide).toBeVisible();
      const reviewers = guide.getByTestId('getting-started-reviewers');
      await expect(reviewers).toContainText('Add the people who review requests');
      await expect(reviewers).toContainText(
        'Nobody holds Finance Officer and Executive Secretary yet, so requests would wait at those steps of the approval matrix.',
      );
      const budget = guide.getByTestId('getting-started-budget');
      await expect(budget).toContainText('Every request is made against a budget code');
      await expect(guide.getByLabel('To do')).toHaveCount(2);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await shot(page, 'first-run-home-375');
      await reviewers.getByRole('button', { name: 'New User' }).click();
      await expect(page).toHaveURL(/\/dashboard\/new-users$/);
    });

    // The director adds the finance officer, the secretary and a member of staff (the users tests
    // click through that form); the guide follows what is done.
    const token = await apiToken(api, director.email, director.password);
    const headers = { Authorization: `Bearer ${token}` };
    const added = await api.post('/api/v1/users', {
      headers,
      data: [
        {
          fullname: 'Juma Hesabu',
          email: 'juma@kilimo.example',
          department: 'finance',
          role: 'finance_officer',
          password: 'Hesabu#2026 secure',
        },
        {
          fullname: 'Rehema Katibu',
          email: 'rehema@kilimo.example',
          department: 'administration',
          role: 'executive_secretary',
          password: 'Katibu#2026 secure',
        },
        {
          fullname: 'Baraka Mfanyakazi',
          email: 'baraka@kilimo.example',
          department: 'engineering',
          role: 'staff',
          password: 'Mfanyakazi#2026',
        },
      ],
    });
    expect(added.status(), await added.text()).toBe(201);

    await test.step('with the reviewers added, only the budget code is left', async () => {
      await page.setViewportSize(desktop);
      await page.goto('/dashboard');
      const guide = page.getByTestId('getting-started');
      await expect(guide.getByTestId('getting-started-reviewers')).toContainText(
        'Someone holds every position of the approval matrix.',
      );
      await expect(guide.getByLabel('Done')).toHaveCount(1);
      await expect(guide.getByLabel('To do')).toHaveCount(1);
      await expect(page.getByTestId('recent-requests')).toBeVisible();
      await shot(page, 'first-run-home-1280');
      await guide.getByRole('button', { name: 'New Budget' }).click();
      await expect(page).toHaveURL(/\/dashboard\/new-budget$/);
    });

    await test.step('staff, who cannot add users, do not see it while it is still open', async () => {
      const staffPage = await (
        await browser.newContext({ baseURL: server.url, viewport: phone })
      ).newPage();
      await signIn(staffPage, 'baraka@kilimo.example', 'Mfanyakazi#2026');
      await expect(staffPage.getByTestId('recent-requests')).toBeVisible();
      await expect(staffPage.getByTestId('getting-started')).toHaveCount(0);
      await staffPage.context().close();
    });

    const budget = await api.post('/api/v1/budget', {
      headers,
      data: {
        name: 'Field programmes',
        amount: 25_000_000,
        department: 'all',
        amount_currency: 'tzs',
        code: 1,
        meta_data: ['operating cost', 'hq'],
      },
    });
    expect(budget.status(), await budget.text()).toBe(201);

    await test.step('with both done, Home is as an organisation at work sees it', async () => {
      // Both of the guide's answers are in before its absence is taken as the answer.
      const answers = Promise.all([
        page.waitForResponse((response) => response.url().includes('/approval-matrix/vacancies')),
        page.waitForResponse((response) => response.url().includes('/budget/codes?limit=1')),
      ]);
      await page.goto('/dashboard');
      await answers;
      await expect(page.getByTestId('recent-requests')).toBeVisible();
      await expect(page.getByTestId('getting-started')).toHaveCount(0);
    });
  } finally {
    await api.dispose();
    await context.close();
    await server.stop();
  }
});
