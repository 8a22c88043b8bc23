import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import {
  chunkFile,
  demoPassword,
  dist,
  holdRequests,
  holdTheApp,
  readManifest,
  signedInContext,
  type Chunk,
} from './support.ts';

// Issue 12: the file previewers' libraries are fetched when a file of their kind is first opened,
// never with the first page. Read from the manifest of the build the other tests run against
// (scripts/start.mjs builds apps/web/dist before the server starts).

/** The chunks a page loads before it can show: the given modules and all they import statically. */
function staticGraph(manifest: Record<string, Chunk>, keys: string[]): Set<string> {
  const graph = new Set<string>();
  const walk = (key: string) => {
    if (graph.has(key)) return;
    expect(manifest[key], `${key} is in the build`).toBeDefined();
    graph.add(key);
    for (const imported of manifest[key]?.imports ?? []) walk(imported);
  };
  for (const key of keys) walk(key);
  return graph;
}

/** The JavaScript files of a chunk graph. */
function jsFiles(manifest: Record<string, Chunk>, graph: Set<string>): string[] {
  return [...graph]
    .flatMap((key) => manifest[key]?.file ?? [])
    .filter((file) => /\.m?js$/.test(file));
}

/** Bytes gzipped as the build compresses them (apps/web/vite.config.ts: level 9). */
function gzippedSize(file: string): number {
  return zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
}

const kib = 1024;

/**
 * Issue 13: the initial JavaScript budgets, gzipped. Sign-in: the entry and its static imports
 * (it was 311 KB before the sign-in page left antd, socket.io and the dashboard behind). Home: that
 * plus the lazy routes /dashboard renders (antd's frame, the dashboard's frame, the page) and their
 * static imports; the requests table follows beside the lists' data.
 */
const budgets = { signIn: 150 * kib, home: 350 * kib };

/**
 * What /dashboard renders on top of the entry (app/router.tsx): antd's and the dashboard's frames,
 * built as one chunk named `shell` (apps/web/vite.config.ts), and the page.
 */
function homeRoutes(manifest: Record<string, Chunk>): string[] {
  const [shell] = Object.entries(manifest).find(([, chunk]) => chunk.name === 'shell') ?? [];
  expect(shell, 'the shell chunk').toBeDefined();
  return [shell ?? '', 'src/features/dashboard/pages/home-page.tsx'];
}

/** A string each library's code carries, minified or not. */
const libraries = [
  { name: 'pdfjs-dist', marker: 'GlobalWorkerOptions' },
  { name: 'dompurify', marker: 'DOMPurify' },
  { name: 'mammoth', marker: 'wordprocessingml/2006/main' },
  { name: 'read-excel-file', marker: 'sharedStrings' },
  { name: 'papaparse', marker: 'UndetectableDelimiter' },
  { name: 'fflate', marker: 'invalid zip data' },
];

test('the previewers and their libraries are not in the first download', () => {
  const manifest = readManifest();
  const [entryKey] = Object.entries(manifest).find(([, chunk]) => chunk.isEntry) ?? [];
  expect(entryKey).toBe('index.html');

  // The entry and every chunk it imports statically: what the first page loads.
  const initial = new Set<string>();
  const walk = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const imported of manifest[key]?.imports ?? []) walk(imported);
  };
  walk('index.html');
  const initialFiles = [...initial].flatMap((key) => {
    const chunk = manifest[key];
    return chunk ? [chunk.file, ...(chunk.assets ?? [])] : [];
  });
  const read = (file: string) => fs.readFileSync(path.join(dist, file), 'utf8');
  const initialCode = initialFiles.filter((file) => /\.m?js$/.test(file)).map(read);

  const allFiles = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => `assets/${file}`);
  for (const library of libraries) {
    const holders = allFiles.filter((file) => read(file).includes(library.marker));
    // The library is in the build (so the check below is not vacuous)…
    expect(holders, `${library.name} is built`).not.toHaveLength(0);
    // …and not in what the first page loads.
    expect(
      initialCode.some((code) => code.includes(library.marker)),
      `${library.name} is not in the entry's static imports`,
    ).toBe(false);
  }

  // The previewers are dynamic imports of the dialog, and their vendor chunks are not initial.
  const previewers = Object.keys(manifest).filter((key) =>
    key.includes('components/files/components/previews/'),
  );
  expect(previewers.length).toBeGreaterThanOrEqual(5);
  for (const key of previewers) expect(initial.has(key), key).toBe(false);
  const dynamic = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
  for (const key of previewers) expect(dynamic.has(key), `${key} is imported lazily`).toBe(true);
  for (const name of ['pdfjs', 'dompurify', 'papaparse']) {
    const keys = Object.entries(manifest)
      .filter(([, chunk]) => chunk.name === name)
      .map(([key]) => key);
    expect(keys, `the ${name} chunk`).not.toHaveLength(0);
    for (const key of keys) expect(initial.has(key), key).toBe(false);
  }
  // The workers (pdf.js's own, the Word, spreadsheet and ZIP readers) are separate files.
  const workers = Object.values(manifest).flatMap((chunk) => chunk.assets ?? []);
  for (const worker of ['pdf.worker', 'word.worker', 'sheet.worker', 'zip.worker']) {
    expect(
      workers.some((file) => file.includes(worker)),
      worker,
    ).toBe(true);
    expect(
      initialFiles.some((file) => file.includes(worker)),
      worker,
    ).toBe(false);
  }
});

test('the sign-in page and Home stay within their JavaScript budgets', () => {
  const manifest = readManifest();
  const signIn = staticGraph(manifest, ['index.html']);
  const routes = homeRoutes(manifest);
  const home = staticGraph(manifest, ['index.html', ...routes]);
  const total = (graph: Set<string>) =>
    jsFiles(manifest, graph).reduce((sum, file) => sum + gzippedSize(file), 0);
  const signInBytes = total(signIn);
  const homeBytes = total(home);
  test.info().annotations.push({
    type: 'initial JavaScript, gzipped',
    description: `sign-in ${(signInBytes / kib).toFixed(1)} KiB, Home ${(homeBytes / kib).toFixed(1)} KiB`,
  });
  expect(signInBytes, 'sign-in: initial JavaScript gzipped').toBeLessThan(budgets.signIn);
  expect(homeBytes, 'Home: initial JavaScript gzipped').toBeLessThan(budgets.home);

  // What keeps sign-in light: the dashboard's routes, antd, socket.io, the service worker's
  // window library and the requests table are lazy, none of them a static import of the entry.
  for (const key of routes) expect(signIn.has(key), `${key} is not part of sign-in`).toBe(false);
  const lazy = new Set(Object.values(manifest).flatMap((chunk) => chunk.dynamicImports ?? []));
  for (const key of routes) expect(lazy.has(key), `${key} is imported lazily`).toBe(true);
  const [table] =
    Object.entries(manifest).find(([, chunk]) => chunk.name === 'requests-table') ?? [];
  expect(table, 'the requests table chunk').toBeDefined();
  expect(manifest['src/features/dashboard/pages/home-page.tsx']?.dynamicImports).toContain(table);
  expect(home.has(table ?? ''), 'the requests table is not part of Home’s first download').toBe(
    false,
  );
  const signInCode = jsFiles(manifest, signIn)
    .map((file) => fs.readFileSync(path.join(dist, file), 'utf8'))
    .join('\n');
  const homeCode = jsFiles(manifest, home)
    .map((file) => fs.readFileSync(path.join(dist, file), 'utf8'))
    .join('\n');
  /** Strings each library's code carries, minified or not. */
  const markers = [
    { name: 'antd (its CSS-in-JS)', marker: 'data-token-hash' },
    { name: 'socket.io-client', marker: 'websocket' },
    { name: 'workbox-window', marker: 'SKIP_WAITING' },
    { name: 'antd Table', marker: 'rowSelection' },
  ];
  const allCode = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => fs.readFileSync(path.join(dist, 'assets', file), 'utf8'))
    .join('\n');
  for (const { name, marker } of markers) {
    // The library is in the build (so the check is not vacuous), and not in sign-in's download.
    expect(allCode.includes(marker), `${name} is built`).toBe(true);
    expect(signInCode.includes(marker), `${name} is not part of sign-in`).toBe(false);
  }
  // Home brings antd; the table comes beside the lists' data, after the first screen.
  expect(homeCode.includes('data-token-hash'), 'antd is part of Home').toBe(true);
  expect(homeCode.includes('rowSelection'), 'the table is not in Home’s first download').toBe(
    false,
  );
});

test('the built files are served pre-compressed, cached by their kind, robots.txt is real', async ({
  request,
}) => {
  const manifest = readManifest();
  const entry = manifest['index.html']?.file ?? '';
  const original = fs.readFileSync(path.join(dist, entry));
  const asset = `/${entry}`;

  // Brotli when the browser takes it, gzip when only that, the file itself otherwise; each
  // answer says it varies by accept-encoding, and the bytes are the file's once decoded.
  for (const [accepted, encoding] of [
    ['br, gzip, deflate', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
  ] as const) {
    const response = await request.get(asset, { headers: { 'accept-encoding': accepted } });
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers['content-encoding'], accepted).toBe(encoding);
    expect(headers['vary']?.toLowerCase()).toContain('accept-encoding');
    expect(headers['content-type']).toMatch(/javascript/);
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Buffer.compare(await response.body(), original), `${accepted}: same bytes`).toBe(0);
    // The security headers stay on static files.
    expect(headers['content-security-policy']).toContain("script-src 'self'");
  }
  const compressed = await request.get(asset, { headers: { 'accept-encoding': 'br' } });
  const sent = Number(compressed.headers()['content-length']);
  expect(sent).toBeGreaterThan(0);
  expect(sent).toBeLessThan(original.length / 2);

  // The page and the service worker are never served stale; a page route is the same index.html.
  for (const url of ['/', '/dashboard', '/sw.js', '/manifest.webmanifest']) {
    const response = await request.get(url, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status(), url).toBe(200);
    expect(response.headers()['cache-control'], url).toBe('no-cache');
  }
  const page = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(page.headers()['content-encoding']).toBe('br');
  // The app's page, the sign-in page rendered into it by the build (vite/prerender-sign-in.ts).
  expect(await page.text()).toContain('<div id="root" data-prerendered>');

  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  const text = await robots.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toMatch(/^Disallow: \/$/m);
  expect(text).not.toContain('<html');
});

/** The JavaScript files a page has fetched, each as sent (encoded) and unpacked, and their sums. */
async function downloadedScripts(page: Page) {
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry as PerformanceResourceTiming)
      .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
      .map((entry) => ({
        path: new URL(entry.name).pathname,
        encoded: entry.encodedBodySize,
        decoded: entry.decodedBodySize,
      })),
  );
  return {
    scripts,
    encoded: scripts.reduce((sum, script) => sum + script.encoded, 0),
    decoded: scripts.reduce((sum, script) => sum + script.decoded, 0),
  };
}

test('what the browser downloads for sign-in, compressed as served', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const { scripts, encoded, decoded } = await downloadedScripts(page);
  test.info().annotations.push({
    type: 'sign-in JavaScript transferred (brotli)',
    description: `${scripts.length} files, ${(encoded / kib).toFixed(1)} KiB (${(decoded / kib).toFixed(1)} KiB decoded)`,
  });
  // Everything the page fetched, the service worker's window library included, arrives compressed
  // and within the gzipped budget.
  expect(scripts.length).toBeGreaterThan(0);
  expect(encoded).toBeLessThan(budgets.signIn);
  expect(encoded).toBeLessThan(decoded / 2);
});

test('what the browser downloads for Home, compressed as served', async ({ browser, request }) => {
  const context = await signedInContext(browser, request, 'finance@example.com');
  const page = await context.newPage();
  await page.goto('/dashboard');
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const { scripts, encoded, decoded } = await downloadedScripts(page);
  test.info().annotations.push({
    type: 'Home JavaScript transferred (brotli), the table and socket.io included',
    description: `${scripts.length} files, ${(encoded / kib).toFixed(1)} KiB (${(decoded / kib).toFixed(1)} KiB decoded)`,
  });
  // The table came beside the lists (lazy, not skipped), and every file of some size came
  // compressed.
  const manifest = readManifest();
  const table = Object.values(manifest).find((chunk) => chunk.name === 'requests-table');
  expect(scripts.map((script) => script.path)).toContain(`/${table?.file}`);
  for (const script of scripts.filter((entry) => entry.decoded > kib)) {
    expect(script.encoded, script.path).toBeLessThan(script.decoded);
  }
  await context.close();
});

/** What index.html's boot script decided (apps/web/vite/boot-script.ts), and policy violations. */
async function bootOf(page: Page) {
  return page.evaluate(() => ({
    firstPage: document.documentElement.dataset.firstPage ?? null,
    violations: (window as { violations?: string[] }).violations ?? [],
  }));
}

/**
 * Opens `url` holding the entry's file back until every one of `files` is asked for (10 s at
 * most), and gives every file asked for meanwhile: only the boot script can ask for one then,
 * since none of the app's own code has arrived. (Waiting for one of them only, the others the
 * script asks for a moment later could be missed on a busy machine.)
 */
async function askedBeforeTheEntry(page: Page, url: string, files: string[]) {
  const asked: string[] = [];
  const record = (sent: { url: () => string }) => asked.push(new URL(sent.url()).pathname);
  page.on('request', record);
  const releaseTheApp = await holdTheApp(page);
  await page.goto(url, { waitUntil: 'commit' });
  await expect.poll(() => asked, { timeout: 10_000 }).toEqual(expect.arrayContaining(files));
  const askedWhileHeld = [...asked];
  await releaseTheApp();
  await expect(page.getByTestId('page-title')).toBeVisible();
  page.off('request', record);
  return askedWhileHeld;
}

test("index.html's boot script starts Home's files with the entry's, only for a returning user", async ({
  browser,
  request,
}) => {
  const shell = chunkFile('shell');
  const table = chunkFile('requests-table');
  const antdStyles = fs
    .readdirSync(path.join(dist, 'assets'))
    .find((file) => /^antd-first-screen-.*\.css$/.test(file));

  // Signed in, opening Home: the dashboard's and Home's files and antd's stylesheet are asked for
  // before the entry's code has arrived, by the script the policy allows by its hash.
  const context = await signedInContext(browser, request, 'finance@example.com');
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const found = window as unknown as { violations?: string[] };
      (found.violations ??= []).push(event.violatedDirective);
    });
  });
  const page = await context.newPage();
  const forHome = await askedBeforeTheEntry(page, '/dashboard', [
    shell,
    table,
    `/assets/${antdStyles}`,
  ]);
  expect(forHome).toEqual(expect.arrayContaining([shell, table, `/assets/${antdStyles}`]));
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  expect(await bootOf(page)).toEqual({ firstPage: 'home', violations: [] });

  // Another dashboard page: the frames' files, not Home's table.
  const forRequests = await askedBeforeTheEntry(page, '/dashboard/requests', [shell]);
  expect(forRequests).not.toContain(table);
  await expect(page.getByTestId('page-title')).toHaveText('Requests');
  expect(await bootOf(page)).toEqual({ firstPage: 'dashboard', violations: [] });
  await context.close();

  // Signed out: the sign-in page fetches none of them.
  const signedOut = await browser.newContext();
  const signIn = await signedOut.newPage();
  const asked: string[] = [];
  signIn.on('request', (sent) => asked.push(new URL(sent.url()).pathname));
  await signIn.goto('/');
  await expect(signIn.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await signIn.waitForLoadState('networkidle');
  expect(asked).not.toContain(shell);
  expect((await bootOf(signIn)).firstPage).toBe('sign-in');
  await signIn.goto('/reset-password');
  expect((await bootOf(signIn)).firstPage).toBe('other');
  await signedOut.close();
});

test("Home's data is asked for beside the session's validation, not after it", async ({
  browser,
  request,
}) => {
  const context = await signedInContext(browser, request, 'finance@example.com');
  const page = await context.newPage();
  const asked: string[] = [];
  page.on('request', (sent) => asked.push(new URL(sent.url()).pathname));
  const isList = (path: string) =>
    path.startsWith('/api/v1/requests/') || path.startsWith('/api/v1/retirement/');
  // The validation is held back until Home's lists are asked for (10 s at most): Home itself
  // renders only once the session stands, so only the start-up's prefetch can ask for them then.
  let askedWhileHeld: string[] = [];
  await page.route('**/api/v1/users/validate-token', async (route) => {
    await expect.poll(() => asked.filter(isList), { timeout: 10_000 }).toHaveLength(4);
    askedWhileHeld = asked.filter(isList);
    await route.continue();
  });
  await page.goto('/dashboard');
  await expect(page.getByTestId('page-title')).toHaveText('Home');
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  // A finance officer's Home: the counts, the recent requests, the queue waiting for the role and
  // the retirements waiting for the officer's review.
  const ids = askedWhileHeld.map((path) => path.replace(/[0-9a-f-]{36}/, ':id'));
  expect(ids.sort()).toEqual([
    '/api/v1/requests/finance_officer/pending/:id',
    '/api/v1/requests/summary/:id',
    '/api/v1/requests/user/:id',
    '/api/v1/retirement/pending',
  ]);
  // Home used those answers: it asked for none of its lists a second time before the socket
  // joined (which refreshes the lists on screen only if the page may have missed an event,
  // lib/realtime.ts, docs/decisions/0030).
  await expect.poll(() => asked.some((path) => path.startsWith('/socket.io'))).toBe(true);
  const beforeSocket = asked.slice(
    0,
    asked.findIndex((path) => path.startsWith('/socket.io')),
  );
  expect(beforeSocket.filter(isList)).toHaveLength(4);
  await context.close();
});

test("signing in asks for Home's data while Home's files download, not once Home has rendered", async ({
  page,
}) => {
  // antd's frame (the `shell` chunk), without which no dashboard page renders, is held back: only
  // the sign-in's own head start can ask for Home's lists meanwhile (issue 13).
  const releaseShell = await holdRequests(page, `**${chunkFile('shell')}`);
  // No live connection: its catch-up on joining would fetch the lists again if the organisation
  // had an event lately (lib/live-socket.ts), which says nothing of the head start.
  await page.route('**/socket.io/**', (route) => route.abort());
  const asked: string[] = [];
  page.on('request', (sent) => asked.push(new URL(sent.url()).pathname));
  await page.goto('/');
  await page.getByLabel('Email').fill('staff@example.com');
  await page.getByLabel('Password').fill(demoPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const lists = () =>
    asked
      .filter((path) => path.startsWith('/api/v1/requests/'))
      .map((path) => path.replace(/[0-9a-f-]{36}/, ':id'))
      .sort();
  // A staff member's Home: the counts and their own recent requests.
  await expect
    .poll(lists, { message: "Home's lists asked for while its frame downloads" })
    .toEqual(['/api/v1/requests/summary/:id', '/api/v1/requests/user/:id']);
  // The router waits for the frame before it leaves the sign-in page.
  expect(await page.getByTestId('page-title').count()).toBe(0);
  releaseShell();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('recent-requests').locator('table')).toBeVisible();
  // Home drew those answers: it asked for neither list a second time as it rendered.
  expect(lists()).toHaveLength(2);
});
