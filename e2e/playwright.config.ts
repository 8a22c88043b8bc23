import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { smtpPort } from './tests/mailbox.ts';

const port = Number(process.env.E2E_PORT ?? 3999);

/**
 * Debian's Chromium headless shell when installed (`apt-get install -y chromium-headless-shell`):
 * the same Chromium build, headless only, as Playwright's own default for headless tests. It runs
 * this suite in half the CPU of the full browser's headless mode (docs/decisions/0038). Without it,
 * the full browser.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const chromiumPath = fs.existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // A test here is a whole flow: three or four people sign in, in browsers of their own, on a
  // 2-core machine that also runs the server and its database. On this machine such a flow takes
  // 40 to 60 s, so 60 s failed the longest of them when CI shared the machine; 120 s does not
  // hide a hang (every expectation still waits at most 10 s).
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: '../.tmp/playwright.json' }]]
    : [['list'], ['json', { outputFile: '../.tmp/playwright.json' }]],
  outputDir: '../.tmp/test-results',
  // A real SMTP server for the whole run (tests/mailbox.ts): invitation e-mails land in .tmp/mail.
  globalSetup: './global-setup.ts',
  use: {
    baseURL: `http://localhost:${port}`,
    // A failed test keeps its trace: every action, call, console line and source. Not a screenshot
    // of every frame or a DOM snapshot of every step: those cost a third of the suite's CPU, and
    // the failure's own screenshot and page snapshot (error-context.md) remain.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node ../scripts/e2e-server.mjs',
    env: { PORT: String(port), SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
    url: `http://localhost:${port}/api/v1/setup`,
    timeout: 180_000,
    reuseExistingServer: false,
    // Stopped as Ctrl-C stops it, not killed: scripts/e2e-server.mjs then drops the run's database
    // (with DATABASE_URL) and removes its data folder. Killed, it left both behind on every run.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
