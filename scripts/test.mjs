#!/usr/bin/env node
// `npm test`: every test — domain unit tests, API tests against real PostgreSQL, browser tests in
// Chromium — then one closing line `N passed, N failed` that counts them all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
fs.mkdirSync(path.join(tmp, 'screenshots'), { recursive: true });
const only = process.argv[2]; // optional: unit | e2e

function run(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let exitCode = 0;

if (only !== 'e2e') {
  const report = path.join(tmp, 'vitest.json');
  fs.rmSync(report, { force: true });
  const status = run('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${report}`,
  ]);
  const json = readJson(report);
  if (json) {
    passed += json.numPassedTests;
    failed +=
      json.numFailedTests +
      (json.numTotalTestSuites > 0 && !json.success && json.numFailedTests === 0 ? 1 : 0);
  } else {
    failed += 1;
  }
  if (status !== 0) exitCode = 1;
}

if (only !== 'unit') {
  const report = path.join(tmp, 'playwright.json');
  fs.rmSync(report, { force: true });
  const status = run('npx', ['playwright', 'test'], path.join(root, 'e2e'));
  const json = readJson(report);
  if (json?.stats) {
    passed += json.stats.expected + json.stats.flaky;
    failed += json.stats.unexpected;
  } else {
    failed += 1;
  }
  if (status !== 0) exitCode = 1;
}

if (exitCode !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
