/**
 * Start-up benchmark (issue 13, docs/decisions/0020 and 0046): the server run as `npm start` ran it
 * first (`node --import tsx src/main.ts`, TypeScript compiled on load), then (the esbuild bundle
 * with Node's `--enable-source-maps`, which reads every loaded package's source map too) and now
 * (the bundle mapping its own stack traces), side by side on one data folder with its
 * embedded PostgreSQL already made: for each, one start not counted, then three starts, timed from
 * spawning node to the first answer of /healthz, and the server process's resident memory after
 * five idle seconds (a page and the set-up state served first). Run with
 * `npm run bench:startup -w apps/server`; the data folder in .tmp/ is removed afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../src/db/embedded.ts';
import { serverRoot } from '../src/paths.ts';
import { serverNodeFlags } from '../test/processes.ts';
import { log } from './support.ts';

const dataDir = path.resolve(serverRoot, '../../.tmp', `bench-startup-${process.pid}`);
const bundle = path.join(serverRoot, 'dist/main.js');
const modes = [
  { name: 'tsx (until 0020)', args: ['--import', 'tsx', path.join(serverRoot, 'src/main.ts')] },
  {
    name: 'bundle, --enable-source-maps (until 0046)',
    args: ['--enable-source-maps', ...serverNodeFlags, bundle],
  },
  { name: 'bundle (now)', args: [...serverNodeFlags, bundle] },
] as const;
const countedStarts = 3;

type Start = { ms: number; rssMiB: number };

/** Resident memory of one process, from /proc (Linux, like this machine). */
async function rssMiB(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

async function startOnce(args: readonly string[]): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let ms = Number.NaN;
    const deadline = started + 120_000;
    while (performance.now() < deadline) {
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
      if (answer?.ok) {
        ms = performance.now() - started;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (!Number.isFinite(ms)) throw new Error(`${args.join(' ')} did not answer in 120 s`);
    await fetch(`http://127.0.0.1:${port}/`);
    await fetch(`http://127.0.0.1:${port}/api/v1/setup`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    return { ms, rssMiB: await rssMiB(child.pid ?? 0) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [path.join(serverRoot, 'build.mjs')], { stdio: 'inherit' });
  const rows: string[] = [];
  // The first start makes the cluster; it is not counted for any mode.
  log('making the data folder…');
  await startOnce(modes[2].args);
  for (const mode of modes) {
    await startOnce(mode.args);
    const starts: Start[] = [];
    for (let run = 0; run < countedStarts; run += 1) starts.push(await startOnce(mode.args));
    log(`${mode.name}: ${starts.map((start) => `${start.ms.toFixed(0)} ms`).join(', ')}`);
    rows.push(
      `| ${mode.name} | ${median(starts.map((start) => start.ms)).toFixed(0)} ms | ${median(starts.map((start) => start.rssMiB)).toFixed(0)} MiB |`,
    );
  }
  process.stdout.write(
    `\n| server | start to first answer (median of ${countedStarts}) | resident memory at idle |\n|---|---|---|\n${rows.join('\n')}\n`,
  );
}

try {
  await main();
} finally {
  await fs.rm(dataDir, { recursive: true, force: true });
}
