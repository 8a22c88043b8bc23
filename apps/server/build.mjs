#!/usr/bin/env node
// The server's production build (docs/decisions/0020): src/main.ts and everything it imports from
// this package and from packages/domain, bundled by esbuild into one ES module, dist/main.js, with
// a source map. Packages from node_modules stay outside the bundle and are loaded as installed, so
// one copy of each (zod, pg, fastify…) serves the domain's code and the server's alike.
import path from 'node:path';
import { build } from 'esbuild';

const serverRoot = import.meta.dirname;

/** Every bare import stays external except the workspace's own domain package (TypeScript source). */
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@imprest/domain/') ? undefined : { path: args.path, external: true },
    );
  },
};

// `node build.mjs <entry> <outfile>` builds another program the same way (src/ops/stack-traces.test.ts).
const [
  entry = path.join(serverRoot, 'src/main.ts'),
  outfile = path.join(serverRoot, 'dist/main.js'),
] = process.argv.slice(2);

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  // Stack traces in the log name functions as written.
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [externalPackages],
});
