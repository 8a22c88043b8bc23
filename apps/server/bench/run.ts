/**
 * Runs every benchmark, one after another, each in a child process of its own (so each starts and
 * removes its own database): `npm run bench`. A benchmark that runs past its time limit is stopped
 * with SIGTERM, which makes it remove its database; SIGINT or SIGTERM to this process is passed on
 * the same way. Exits non-zero when a benchmark failed; a missed target is reported, not a failure.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const benchmarks = ['budgets.ts', 'requests.ts', 'users.ts', 'audit.ts', 'jobs.ts'];
/** Each takes three to six minutes on two busy cores; far beyond that, something is stuck. */
const timeLimitMs = 15 * 60_000;
/** How long a stopped benchmark may take to remove its database before it is killed. */
const graceMs = 30_000;

let current: ReturnType<typeof spawn> | undefined;
let stopSignal: NodeJS.Signals | undefined;

function log(message: string): void {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

/** Asks the running benchmark to stop (it cleans up), and kills it when it does not. */
function stop(child: ReturnType<typeof spawn>): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, graceMs).unref();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopSignal) return;
    stopSignal = signal;
    log(`${signal}: stopping the running benchmark…`);
    if (current) stop(current);
  });
}

/** Runs one benchmark file with tsx; answers its exit code (or the signal that ended it). */
function run(file: string): Promise<number | NodeJS.Signals> {
  return new Promise((resolve, reject) => {
    // Its own process group: a Ctrl-C reaches only this process, which passes it on once (a
    // second signal would make the benchmark exit before removing its database).
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, file)],
      {
        cwd: path.resolve(import.meta.dirname, '..'),
        stdio: 'inherit',
        detached: true,
      },
    );
    current = child;
    const timer = setTimeout(() => {
      log(`${file} ran past ${timeLimitMs / 60_000} minutes: stopping it`);
      stop(child);
    }, timeLimitMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      current = undefined;
      resolve(code ?? signal ?? 1);
    });
  });
}

const startedAt = performance.now();
const results: string[] = [];
let failed = false;
for (const file of benchmarks) {
  if (stopSignal) break;
  log(`── ${file} ──`);
  const fileStartedAt = performance.now();
  const outcome = await run(file);
  const seconds = ((performance.now() - fileStartedAt) / 1000).toFixed(0);
  if (outcome !== 0) failed = true;
  results.push(
    `  ${file.padEnd(14)} ${outcome === 0 ? 'done' : `failed (${outcome})`} in ${seconds} s`,
  );
}
process.stdout.write(
  `\nBenchmarks, ${((performance.now() - startedAt) / 1000).toFixed(0)} s in all:\n${results.join('\n')}\n`,
);
if (stopSignal) process.exit(stopSignal === 'SIGINT' ? 130 : 143);
process.exit(failed ? 1 : 0);
