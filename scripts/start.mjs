#!/usr/bin/env node
// `npm start` / `npm run demo`: builds the web app when its sources are newer than the build, then
// runs the server (web app, API, socket.io and /api/docs on one port). No other step by hand.
// WEB_CONCURRENCY runs several server processes on that port (docs/decisions/0016).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isDemo = process.argv.includes('--demo');
const webDist = path.join(root, 'apps/web/dist');
const stamp = path.join(webDist, '.build-stamp');

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

const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/domain/src',
];
const sourceTime = Math.max(...sources.map((source) => newest(path.join(root, source))));
const builtTime = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (sourceTime > builtTime || !fs.existsSync(path.join(webDist, 'index.html'))) {
  console.log('Building the web app…');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString());
}

const env = { ...process.env };
if (isDemo) env.IMPREST_DEMO = '1';
const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
// The server stops gracefully on each of these (docs/decisions/0016); pass them on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
