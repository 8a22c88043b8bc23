// Home's main-thread work at a phone's speed, two builds side by side (issue 13):
//
//   npm run bench:main-thread -w e2e -- http://localhost:3001 http://localhost:3000 [loads]
//
// Each address is a running `npm run demo` (the previous build on one port, this one on another).
// Each load signs in as the demo's finance officer through the API, stores the session as the app
// does, and opens Home in Debian's Chromium at 4x CPU slowdown without network throttling; a
// PerformanceObserver collects the long tasks until 5 s after. The two builds are loaded in turn,
// `loads` times each (8 by default), and the medians printed: blocking time after the first
// contentful paint (long tasks' time over 50 ms, as Lighthouse's Total Blocking Time counts it),
// all long tasks' time, and the first contentful paint. Traffic goes to the given addresses only.
import { chromium } from '@playwright/test';

const [first, second, loadsArgument] = process.argv.slice(2);
if (!first || !second) {
  console.error('usage: main-thread.mjs <address of one build> <address of the other> [loads]');
  process.exit(2);
}
const loads = Number(loadsArgument ?? 8);

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});

async function loadHome(base) {
  const response = await fetch(`${base}/api/v1/users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'finance@example.com', password: 'Imprest#2026' }),
  });
  if (!response.ok) throw new Error(`${base}: sign-in answered ${response.status}`);
  const session = await response.json();
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/robots.txt`);
    await page.evaluate(({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
      localStorage.setItem('mode', 'staff');
    }, session);
    await page.addInitScript(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.longTasks.push([entry.startTime, entry.duration]);
      }).observe({ type: 'longtask', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${base}/dashboard`);
    await page.waitForTimeout(5000);
    return await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const tasks = window.longTasks;
      return {
        blocking: tasks
          .filter(([start]) => start > fcp)
          .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0),
        long: tasks.reduce((sum, [, duration]) => sum + duration, 0),
        fcp,
      };
    });
  } finally {
    await context.close();
  }
}

const results = new Map([
  [first, []],
  [second, []],
]);
for (let load = 0; load < loads; load += 1) {
  for (const base of [first, second]) results.get(base).push(await loadHome(base));
}
await browser.close();

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [base, runs] of results) {
  const of = (key) => runs.map((run) => Math.round(run[key]));
  console.log(
    `${base}: blocking after FCP ${of('blocking').join(', ')} ms (median ${median(of('blocking'))});` +
      ` all long tasks median ${median(of('long'))} ms; FCP median ${median(of('fcp'))} ms`,
  );
}
