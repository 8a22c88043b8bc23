#!/usr/bin/env node
// `npm test`: every test — domain unit tests, API tests against real PostgreSQL, browser tests in
// Chromium — then one closing line `N passed, N failed` that counts them all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

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
/** What failed, named again just above the closing line, where a log's tail shows it. */
const failures = [];

/** The first lines of a failure's message, without terminal colours. */
function firstLines(message, count = 4) {
  return stripVTControlCharacters(String(message ?? ''))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !/node_modules|<anonymous>/.test(line))
    .slice(0, count);
}

function vitestFailures(json) {
  for (const file of json.testResults ?? []) {
    const where = path.relative(root, file.name);
    const tests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of tests) {
      failures.push({
        name: `${where} › ${test.fullName}`,
        lines: firstLines(test.failureMessages?.[0]),
      });
    }
    // A file that failed as a whole (an error while loading it, a failed hook) has no failed test.
    if (file.status === 'failed' && tests.length === 0) {
      failures.push({ name: where, lines: firstLines(file.message) });
    }
  }
}

function playwrightFailures(suite, titles = []) {
  const here = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status !== 'unexpected') continue;
      const result = test.results?.at(-1);
      failures.push({
        name: `e2e › ${[...here, spec.title].join(' › ')} (${spec.file}:${spec.line})`,
        lines: firstLines(result?.error?.message ?? result?.status),
      });
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child, here);
}

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
    vitestFailures(json);
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
    for (const suite of json.suites ?? []) playwrightFailures(suite);
  } else {
    failed += 1;
  }
  if (status !== 0) exitCode = 1;
}

if (exitCode !== 0 && failed === 0) failed = 1;
for (const { name, lines } of failures) {
  console.log(`✘ failed: ${name}`);
  for (const line of lines) console.log(`✘   ${line}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
