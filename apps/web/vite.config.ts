import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The API and socket.io server that `vite` dev proxies to (decisions §1: one port, 3000). */
const apiTarget = 'http://localhost:3000';

/**
 * Stable vendor chunks that cache across releases. antd is left to automatic splitting so the
 * sign-in page does not download the dashboard's tables and menus.
 */
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
  {
    name: 'vendor',
    // src/lib/zod-config.ts rides with zod: it must run before any chunk that builds a schema.
    test: /node_modules[\\/](zod|@tanstack|socket\.io-client|socket\.io-parser|engine\.io-client|engine\.io-parser|@socket\.io|dayjs|workbox-window)[\\/]|src[\\/]lib[\\/]zod-config\.ts$/,
  },
  // The file previewers' libraries (issue 12), each a chunk of its own that only a previewer
  // imports, so e2e/tests/bundle.spec.ts can tell from the manifest that the first page lacks them.
  { name: 'pdfjs', test: /node_modules[\\/]pdfjs-dist[\\/]/ },
  { name: 'dompurify', test: /node_modules[\\/]dompurify[\\/]/ },
  { name: 'papaparse', test: /node_modules[\\/]papaparse[\\/]/ },
];

export default defineConfig({
  plugins: [
    react(),
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
      output: { codeSplitting: { groups: vendorGroups } },
    },
  },
});
