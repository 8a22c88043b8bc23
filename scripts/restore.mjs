#!/usr/bin/env node
// `npm run restore <archive>`: an archive of `npm run backup` back into an empty DATA_DIR or an
// empty DATABASE_URL database (docs/decisions/0017). Runs apps/server/src/ops/restore-cli.ts from
// the repository root, like scripts/start.mjs runs the server, with the archive's path taken from
// the folder npm was called in.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const calledFrom = process.env.INIT_CWD ?? process.cwd();
const args = process.argv
  .slice(2)
  .map((arg) => (arg.startsWith('-') ? arg : path.resolve(calledFrom, arg)));

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/ops/restore-cli.ts'), ...args],
  { cwd: root, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
