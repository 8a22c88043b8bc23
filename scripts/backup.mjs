#!/usr/bin/env node
// `npm run backup [file]`: one tar.gz of the database and DATA_DIR/files (docs/decisions/0017).
// Runs apps/server/src/ops/backup-cli.ts like scripts/start.mjs runs the server: from the
// repository root (so a relative DATA_DIR means what it means to `npm start`), with a relative
// file name taken from the folder npm was called in.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const calledFrom = process.env.INIT_CWD ?? process.cwd();
const args = process.argv.slice(2);
const [file] = args.filter((arg) => !arg.startsWith('-'));
const options = args.filter((arg) => arg.startsWith('-'));
const target = file ? [path.resolve(calledFrom, file)] : ['--directory', calledFrom];

const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/ops/backup-cli.ts'), ...options, ...target],
  { cwd: root, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
