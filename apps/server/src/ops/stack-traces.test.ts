import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../test/processes.ts';
import { serverRoot } from '../paths.ts';

const run = promisify(execFile);

/**
 * A program built by the server's own build.mjs (one ES module bundled by esbuild, its source map
 * beside it) that maps its stack traces first, as main.ts does, then prints the first line of a
 * Node error's trace and fails twice: once caught and printed, once uncaught, which Node prints on
 * its way out.
 */
const program = [
  `import { mapBundleStackTraces } from ${JSON.stringify(path.resolve(import.meta.dirname, 'stack-traces.ts'))};`,
  "import { copyFileSync, existsSync } from 'node:fs';",
  'mapBundleStackTraces(import.meta.url);',
  '',
  'function check(amount: number): number {',
  "  if (amount < 0) throw new RangeError('the amount is below zero');",
  '  return amount;',
  '}',
  '',
  'try {',
  '  Buffer.alloc(-1);',
  '} catch (error) {',
  "  console.log((error as Error).stack?.split('\\n')[0]);",
  '}',
  'try {',
  '  check(-1);',
  '} catch (error) {',
  '  console.log((error as Error).stack);',
  '}',
  // A good map put back after a failed read (the second test) must not be read again.
  'const map = `${new URL(import.meta.url).pathname}.map`;',
  'if (existsSync(`${map}.good`)) copyFileSync(`${map}.good`, map);',
  'check(-2);',
  '',
].join('\n');

/** Where `program` raises its error, as a frame names it: line and column, 1-based. */
const lines = program.split('\n');
const throwLine = lines.findIndex((line) => line.includes('throw new')) + 1;
const throwColumn = (lines[throwLine - 1] ?? '').indexOf('new RangeError') + 1;
const callerLine = lines.indexOf('  check(-1);') + 1;

/** A frame of `check` that names the bundle's line, as V8 writes it. */
const bundleFrame = /^ {4}at check \(file:\/\/.*\/dist\/main\.js:\d+:\d+\)$/;

let folder = '';
let source = '';
let bundle = '';

beforeAll(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-stack-traces-'));
  source = path.join(folder, 'program.ts');
  bundle = path.join(folder, 'dist/main.js');
  await fs.writeFile(source, program);
  await run(process.execPath, [path.join(serverRoot, 'build.mjs'), source, bundle]);
});

afterAll(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

/** Runs the bundle with the server's Node flags (node-flags.json), none about source maps. */
async function runBundle(): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [...serverNodeFlags, bundle]).then(
    () => expect.fail('the program should exit with its uncaught error'),
    (failure: { stdout: string; stderr: string; code: number }) => {
      expect(failure.code).toBe(1);
      return failure;
    },
  );
}

describe("the bundle's stack traces (docs/decisions/0046)", () => {
  it('name the TypeScript file, line and column, caught or uncaught, without --enable-source-maps', async () => {
    const { stdout, stderr } = await runBundle();
    const [nodeHead, head, thrower, caller] = stdout.trim().split('\n');
    // Node's own errors keep their code in the first line, as Node writes it.
    expect(nodeHead).toMatch(
      /^RangeError \[ERR_OUT_OF_RANGE\]: The value of "size" is out of range/,
    );
    expect(head).toBe('RangeError: the amount is below zero');
    expect(thrower).toBe(`    at check (${source}:${throwLine}:${throwColumn})`);
    expect(caller).toMatch(new RegExp(`^    at .*\\(?${source}:${callerLine}:\\d+\\)?$`));
    expect(stdout).not.toContain('main.js');
    // Node prints the uncaught error's stack through the same formatting (above it, the line of
    // the bundle it was thrown on, which Node reads from the file itself).
    const frames = stderr.split('\n').filter((line) => line.startsWith('    at '));
    expect(frames[0]).toBe(`    at check (${source}:${throwLine}:${throwColumn})`);
    expect(frames.filter((frame) => frame.includes('main.js'))).toEqual([]);
  });

  it("keep the bundle's own lines when its map cannot be read, and do not read it again", async () => {
    await fs.rename(`${bundle}.map`, `${bundle}.map.good`);
    await fs.writeFile(`${bundle}.map`, '{ not json');
    const { stdout, stderr } = await runBundle();
    const [, head, thrower] = stdout.trim().split('\n');
    expect(head).toBe('RangeError: the amount is below zero');
    expect(thrower).toMatch(bundleFrame);
    // The program put the good map back before its uncaught error: still the bundle's lines.
    const frames = stderr.split('\n').filter((line) => line.startsWith('    at '));
    expect(frames[0]).toMatch(bundleFrame);
    await fs.rm(`${bundle}.map.good`);
  });

  it('are left to Node when there is no map beside the program', async () => {
    await fs.rm(`${bundle}.map`);
    const { stdout } = await runBundle();
    const [, head, thrower] = stdout.trim().split('\n');
    expect(head).toBe('RangeError: the amount is below zero');
    expect(thrower).toMatch(bundleFrame);
  });
});
