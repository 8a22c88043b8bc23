#!/usr/bin/env node
// `npm start` / `npm run demo`: builds the web app and the server when their sources are newer than
// their builds, then runs the server (web app, API, socket.io and /api/docs on one port) as compiled
// JavaScript. No other step by hand.
// WEB_CONCURRENCY runs several server processes on that port (docs/decisions/0016).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isDemo = process.argv.includes('--demo');
const webDist = path.join(root, 'apps/web/dist');
const webStamp = path.join(webDist, '.build-stamp');

/** Newest modification time of the files below a path. */
function newest(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(path.join(target, entry)));
  }
  return latest;
}

/** Builds one part when any of its sources is newer than its stamp (or its output is missing). */
function buildWhenStale({ name, sources, output, stamp, command, args, cwd }) {
  const sourceTime = Math.max(...sources.map((source) => newest(path.join(root, source))));
  const builtTime = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
  if (sourceTime <= builtTime && fs.existsSync(output)) return;
  console.log(`Building ${name}…`);
  const build = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString());
}

buildWhenStale({
  name: 'the web app',
  sources: [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    'packages/domain/src',
  ],
  output: path.join(webDist, 'index.html'),
  stamp: webStamp,
  command: 'npx',
  args: ['vite', 'build', '--logLevel', 'warn'],
  cwd: path.join(root, 'apps/web'),
});
// The server runs as compiled JavaScript, bundled by esbuild in a fraction of a second
// (docs/decisions/0020), not through a TypeScript loader at run time.
const serverDist = path.join(root, 'apps/server/dist');
buildWhenStale({
  name: 'the server',
  sources: [
    'apps/server/src',
    'apps/server/build.mjs',
    'apps/server/package.json',
    'packages/domain/src',
  ],
  output: path.join(serverDist, 'main.js'),
  stamp: path.join(serverDist, '.build-stamp'),
  command: process.execPath,
  args: [path.join(root, 'apps/server/build.mjs')],
  cwd: path.join(root, 'apps/server'),
});

const env = { ...process.env };
if (isDemo) env.IMPREST_DEMO = '1';
// Node's flags for the server (docs/decisions/0024), the Dockerfile's and the tests' too.
const nodeFlags = JSON.parse(
  fs.readFileSync(path.join(root, 'apps/server/node-flags.json'), 'utf8'),
);
const server = spawn(process.execPath, [...nodeFlags, path.join(serverDist, 'main.js')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
// The server stops gracefully on each of these (docs/decisions/0016); pass them on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
