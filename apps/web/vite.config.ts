import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { extractFirstScreenStyles } from './vite/antd-first-screen-styles.ts';
import { bootScript } from './vite/boot-script.ts';
import { prerenderSignIn } from './vite/prerender-sign-in.ts';

/** The API and socket.io server that `vite` dev proxies to (decisions §1: one port, 3000). */
const apiTarget = 'http://localhost:3000';

/**
 * How the build splits the app (issue 13: the sign-in page's and Home's first download).
 * - react and vendor: stable library chunks that cache across releases.
 * - app: everything else the entry imports statically, i.e. what the sign-in page runs, kept in
 *   the entry's own chunk rather than split in many.
 * - shell: antd's frame and the dashboard's frame (app/antd-provider.tsx,
 *   components/layout/dashboard-layout.tsx) with everything they import, antd's core, menu and
 *   dropdown among them: every dashboard page needs them, so one file rather than the forty
 *   small chunks automatic splitting made of them, each a request of its own before Home shows.
 * - home: Home's parts (features/dashboard: its tiles, lists and their data, with antd's card,
 *   grid, statistic, spin and tag, and lib/pagination.ts) in one file: Home is where a returning
 *   user lands, and on a phone's connection each of the sixteen small files automatic splitting
 *   made of them was a request of its own, queueing behind the others (issue 13: Home's LCP).
 *   The page itself stays a chunk of its own, and the pages without antd's frame (password reset)
 *   do not download these.
 * - the pages and the rest of antd split automatically, each page fetching what it alone needs.
 * A module two groups match goes to the higher priority: what sign-in needs never leaves for the
 * shell.
 */
const chunkGroups = [
  {
    name: 'react',
    priority: 30,
    test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
  },
  {
    name: 'vendor',
    priority: 30,
    // src/lib/zod-config.ts rides with zod: it must run before any chunk that builds a schema.
    test: /node_modules[\\/](zod|@tanstack)[\\/]|src[\\/]lib[\\/]zod-config\.ts$/,
  },
  { name: 'app', priority: 20, tags: ['$initial' as const] },
  // Only a signed-in page opens a socket, so socket.io is not part of the sign-in page.
  {
    name: 'socket',
    priority: 10,
    test: /node_modules[\\/](socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io)[\\/]/,
  },
  // The file previewers' libraries (issue 12), each a chunk of its own that only a previewer
  // imports, so e2e/tests/bundle.spec.ts can tell from the manifest that the first page lacks them.
  { name: 'pdfjs', priority: 10, test: /node_modules[\\/]pdfjs-dist[\\/]/ },
  { name: 'dompurify', priority: 10, test: /node_modules[\\/]dompurify[\\/]/ },
  { name: 'papaparse', priority: 10, test: /node_modules[\\/]papaparse[\\/]/ },
  {
    name: 'shell',
    priority: 5,
    test: /src[\\/](app[\\/]antd-provider|components[\\/]layout[\\/]dashboard-layout)\.tsx$/,
  },
  // Home's data requests (features/dashboard/api), which main.tsx starts beside the session's
  // validation, with what they import (the requests API's schemas, which the dashboard's frame and
  // other pages share): a small file that needs none of Home's antd parts.
  {
    name: 'home-data',
    priority: 6,
    test: /src[\\/]features[\\/]dashboard[\\/]api[\\/]/,
  },
  {
    name: 'home',
    priority: 4,
    test: /src[\\/]features[\\/]dashboard[\\/](api|components)[\\/]|src[\\/]lib[\\/]pagination\.ts$/,
  },
];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files worth compressing; images are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, once everything else
 * (the service worker included) is written, for @fastify/static's `preCompressed` (issue 13): the
 * server sends the smallest the browser accepts without compressing on every request. Small files
 * get theirs too: a missing sibling costs the server a failed look-up per encoding on every request.
 * A file that would not shrink is left alone.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'imprest-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const entries = await fs.readdir(outDir, { recursive: true, withFileTypes: true });
        const files = entries
          .filter((entry) => entry.isFile() && compressible.test(entry.name))
          .map((entry) => path.join(entry.parentPath, entry.name));
        await Promise.all(
          files.map(async (file) => {
            const content = await fs.readFile(file);
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                },
              }),
              gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
            ]);
            if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
            if (gz.length < content.length) await fs.writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}

/** The module that gives the address of antd's first-screen stylesheet (src/app/antd-styles.ts). */
const antdStylesModule = 'virtual:antd-first-screen-styles';

/**
 * Builds antd's first-screen stylesheet (vite/antd-first-screen-styles.ts) into
 * `assets/antd-first-screen-<hash>.css` and gives its address to src/app/antd-styles.ts, which
 * links it before the dashboard draws (issue 13). Build only: under `vite` dev the module gives
 * null and antd styles everything at run time, as before.
 */
function antdFirstScreenStyles(): Plugin {
  const resolvedId = `\0${antdStylesModule}`;
  let isBuild = false;
  let base = '/';
  return {
    name: 'imprest-antd-first-screen-styles',
    configResolved(config) {
      isBuild = config.command === 'build';
      base = config.base;
    },
    resolveId(source) {
      return source === antdStylesModule ? resolvedId : undefined;
    },
    async load(id) {
      if (id !== resolvedId) return undefined;
      // antd names its styles after the build's mode (a development build's differ), read when its
      // modules load: only a production build's match what the browser's antd looks for.
      if (!isBuild || process.env.NODE_ENV !== 'production') return 'export default null;';
      const css = await extractFirstScreenStyles();
      const hash = crypto.createHash('sha256').update(css).digest('hex').slice(0, 8);
      const fileName = `assets/antd-first-screen-${hash}.css`;
      this.emitFile({ type: 'asset', fileName, source: css });
      return `export default ${JSON.stringify(`${base}${fileName}`)};`;
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    antdFirstScreenStyles(),
    bootScript(),
    prerenderSignIn(() => [react(), antdFirstScreenStyles()]),
    VitePWA({
      strategies: 'generateSW',
      filename: 'sw.js',
      registerType: 'autoUpdate',
      // src/lib/service-worker.ts registers it with workbox-window, in production only.
      injectRegister: false,
      includeAssets: ['favicon.svg'],
      manifest: {
        name: 'Imprest',
        short_name: 'Imprest',
        description: 'Expense requests, approvals, budgets and retirements.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1d4ed8',
        background_color: '#f5f7fb',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        navigateFallback: 'index.html',
        // The API, its docs and socket.io are never answered from the app shell.
        navigateFallbackDenylist: [/^\/api/, /^\/socket\.io/],
        cleanupOutdatedCaches: true,
      },
      devOptions: { enabled: false },
    }),
    precompress(),
  ],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  // The previewers' workers (new Worker(new URL(…), { type: 'module' })) are ES modules too.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the chunk graph e2e/tests/bundle.spec.ts checks.
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: chunkGroups } },
    },
  },
});
