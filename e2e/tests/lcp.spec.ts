import fs from 'node:fs';
import { expect, test, type Browser, type APIRequestContext } from '@playwright/test';
import { desktop, phone, signedInContext } from './support.ts';

// Issue 13: Home's Largest Contentful Paint, and no layout shift while it loads. Measured by the
// browser itself (PerformanceObserver) on a cold load: a fresh context (empty cache, no service
// worker) opening /dashboard with a stored session, as someone does who comes back to the app.
//
// In `npm test` this proves that Home paints its own content (not the loader) and never moves,
// and reports the paint times; it does not hold them to a time, because a timed test fails on a
// busy CI machine for reasons that are not the app's (STYLE: speed targets live in benchmarks).
// `npm run bench:web` runs the same loads on a quiet machine with the 1 s target enforced.

test.use({ timezoneId: 'Africa/Dar_es_Salaam' });

/** Issue 13's target for Home on localhost (1 s), enforced when the benchmark sets it. */
const lcpBudgetMs = Number(process.env.LCP_BUDGET_MS ?? 0);

/**
 * Cumulative Layout Shift over the whole load. Google's "good" is 0.1; Home should not move at all
 * once drawn (tiles keep their size while their numbers load, the lists keep the table's height),
 * so anything above a hair means something jumps: 0.02 leaves room for sub-pixel rounding only.
 */
const clsBudget = 0.02;

type Measure = {
  lcp: { startTime: number; size: number; element: string }[];
  shifts: { value: number; hadRecentInput: boolean; sources: string[] }[];
  longTasks: { startTime: number; duration: number }[];
  fcp: number | null;
};

/** The page's window, with what the observers below collect. */
type MeasuredWindow = { measure: Measure };

/** A signed-in context whose pages record, from their very start, what the browser painted. */
async function measuredContext(
  browser: Browser,
  request: APIRequestContext,
  email: string,
  viewport: { width: number; height: number },
) {
  const context = await signedInContext(browser, request, email, {
    viewport,
    timezoneId: 'Africa/Dar_es_Salaam',
  });
  // Observe from the very start of the page: LCP candidates, layout shifts, long tasks.
  await context.addInitScript(() => {
    const measured = window as unknown as MeasuredWindow;
    const describe = (node: Node | null | undefined): string => {
      if (!(node instanceof Element)) return node ? node.nodeName : '(gone)';
      const testId = node.closest('[data-testid]')?.getAttribute('data-testid');
      return `${node.tagName.toLowerCase()}${node.className ? `.${String(node.className).split(' ')[0]}` : ''}${testId ? ` in ${testId}` : ''}`;
    };
    measured.measure = { lcp: [], shifts: [], longTasks: [], fcp: null };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        size: number;
        element: Element | null;
      })[]) {
        measured.measure.lcp.push({
          startTime: entry.startTime,
          size: entry.size,
          element: describe(entry.element),
        });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[]) {
        measured.measure.shifts.push({
          value: entry.value,
          hadRecentInput: entry.hadRecentInput,
          sources: (entry.sources ?? []).map((source) => describe(source.node)),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        measured.measure.longTasks.push({ startTime: entry.startTime, duration: entry.duration });
      }
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === 'first-contentful-paint') measured.measure.fcp = entry.startTime;
      }
    }).observe({ type: 'paint', buffered: true });
  });
  return context;
}

type Load = {
  lcp: number;
  element: string;
  cls: number;
  fcp: number;
  blocking: number;
  shifts: Measure['shifts'];
};

/** One cold load of /dashboard in a fresh context: what the observers saw until Home was whole. */
async function loadHome(
  browser: Browser,
  request: APIRequestContext,
  email: string,
  viewport: { width: number; height: number },
): Promise<Load> {
  const context = await measuredContext(browser, request, email, viewport);
  const page = await context.newPage();
  await page.goto('/dashboard');
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  // Loaded: the tiles' numbers and the lists' rows (or their empty text) are drawn.
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('.ant-skeleton-active')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // The browser reports a paint once the frame is on screen, and the observer hears of it in a
  // task of its own: on a busy machine that can come after the page looks whole. Wait (5 s at
  // most) for the report of Home's own content once the loader was the largest paint so far.
  await expect
    .poll(
      () =>
        page.evaluate(
          () => (window as unknown as MeasuredWindow).measure.lcp.at(-1)?.element ?? '',
        ),
      { timeout: 5000 },
    )
    .not.toContain('fullscreen-loader');
  // Nothing the user did: the observers report what loading alone painted and moved.
  const measure = await page.evaluate(() => (window as unknown as MeasuredWindow).measure);
  await context.close();
  const last = measure.lcp.at(-1);
  const fcp = measure.fcp ?? Number.NaN;
  return {
    lcp: last?.startTime ?? Infinity,
    element: `${last?.element} (${last?.size} px²)`,
    cls: measure.shifts
      .filter((shift) => !shift.hadRecentInput)
      .reduce((sum, shift) => sum + shift.value, 0),
    fcp,
    // Total Blocking Time's idea, from the first paint on: each long task's time beyond 50 ms.
    blocking: measure.longTasks
      .filter((task) => task.startTime >= fcp)
      .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
    shifts: measure.shifts.filter((shift) => shift.value > 0.001),
  };
}

for (const [label, viewport, email] of [
  ['1280', desktop, 'finance@example.com'],
  ['375', phone, 'staff@example.com'],
] as const) {
  test(`Home at ${label} px: paints Home's content without a layout shift (${email})`, async ({
    browser,
    request,
  }) => {
    // The server compiles and caches on its first answers: one load first, not counted.
    await loadHome(browser, request, email, viewport);
    // Three cold loads. LCP: the best of them, as a benchmark takes its best run (the others
    // share the machine with whatever else runs); layout shifts: none in any of them.
    const loads: Load[] = [];
    for (let run = 0; run < 3; run += 1)
      loads.push(await loadHome(browser, request, email, viewport));
    const best = Math.min(...loads.map((load) => load.lcp));
    test.info().annotations.push({
      type: `Home at ${label} px, three cold loads`,
      description: loads
        .map(
          (load) =>
            `FCP ${load.fcp.toFixed(0)} ms, LCP ${load.lcp.toFixed(0)} ms ${load.element}, CLS ${load.cls.toFixed(4)}, blocking ${load.blocking.toFixed(0)} ms`,
        )
        .join('; '),
    });
    fs.mkdirSync('../.tmp/perf', { recursive: true });
    fs.writeFileSync(`../.tmp/perf/home-lcp-${label}.json`, `${JSON.stringify(loads, null, 2)}\n`);
    for (const load of loads) {
      // The largest paint is Home's own (its tiles, cards or table), never the full-screen loader.
      expect(load.element).not.toContain('fullscreen-loader');
      expect(Number.isFinite(load.lcp), 'a Largest Contentful Paint was reported').toBe(true);
    }
    if (lcpBudgetMs > 0) {
      expect(best, 'Largest Contentful Paint, best of three cold loads').toBeLessThan(lcpBudgetMs);
    }
    for (const load of loads) {
      expect(load.cls, `layout shifts: ${JSON.stringify(load.shifts)}`).toBeLessThan(clsBudget);
    }
  });
}
