/**
 * Download benchmark (issue 13: "xlsx downloads: 100,000 requests streamed at under 150 MB peak
 * RSS"): one organisation with 100,000 requests (the requests benchmark's seed, in one
 * organisation), the production server started as `npm start` runs it, and a finance officer's
 * admin-mode download of every request (`GET requests/download/finance_officer?id=`) read to the
 * end, twice on the same server (BENCH_DOWNLOADS to change the count). Reports, for each, the
 * time, the size, the server's resident memory before it, the largest sampled during it (every
 * 20 ms) and the kernel's high-water mark (VmHWM) after. The second download starts with the first
 * one's garbage still in the old generation (V8 collects it at its own limit), so it shows what a
 * server that has served downloads before reaches, not only a fresh one.
 * Run with `npm run bench:download -w apps/server`; the database is removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { startSession } from '../src/features/auth/session.ts';
import { signToken } from '../src/features/auth/tokens.ts';
import { startServerProcess, stopAllProcesses } from '../test/processes.ts';
import { defaultShape, seedMillionRequests } from './seed-requests.ts';
import { log, nodeArgsFrom, secondsSince, withDatabase } from './support.ts';

const requestCount = 100_000;
/** Issue 13's ceiling for the server process while it streams the workbook. */
const peakTargetMiB = 150;

/** One field of /proc/<pid>/status in MiB (Linux, like this machine). */
async function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

async function main(): Promise<void> {
  await withDatabase(async (db, url) => {
    try {
      const seeding = performance.now();
      const client = await db.$client.connect();
      try {
        await seedMillionRequests(client, {
          ...defaultShape,
          organizations: 1,
          requests: requestCount,
        });
      } finally {
        client.release();
      }
      log(`seeded ${requestCount.toLocaleString('en-GB')} requests in ${secondsSince(seeding)}`);
      const officer = (
        await db.$client.query<{ id: string; organization_id: string }>(
          `SELECT id, organization_id FROM users WHERE role = 'finance_officer' ORDER BY id LIMIT 1`,
        )
      ).rows[0];
      if (!officer) throw new Error('the seed made no finance officer');
      const secret = randomBytes(32).toString('hex');
      const session = await startSession(db, officer.id);
      const token = signToken(
        new TextEncoder().encode(secret),
        { sub: officer.id, org: officer.organization_id, sid: session.id },
        session.expiresAt,
      );

      const server = await startServerProcess({
        name: 'download',
        env: { DATABASE_URL: url, JWT_SECRET: secret },
        nodeArgs: nodeArgsFrom('BENCH_SERVER_NODE_ARGS') ?? [],
      });
      const pid = server.pid;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const idle = await memoryMiB(pid, 'VmRSS');
      let sampled = idle;
      const sampler = setInterval(() => {
        void memoryMiB(pid, 'VmRSS').then((value) => {
          sampled = Math.max(sampled, value);
        });
      }, 20);
      const downloads = Number(process.env.BENCH_DOWNLOADS ?? 2);
      const lines = [
        '',
        `Server RSS at idle: ${idle.toFixed(0)} MiB.`,
        '',
        `| download | requests | time | size | RSS before | largest RSS sampled | VmHWM after | target |`,
        `|---|---|---|---|---|---|---|---|`,
      ];
      for (let round = 1; round <= downloads; round += 1) {
        const before = await memoryMiB(pid, 'VmRSS');
        const started = performance.now();
        const answer = await fetch(
          `${server.url}/api/v1/requests/download/finance_officer?id=${officer.id}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        if (!answer.ok || !answer.body) throw new Error(`download answered ${answer.status}`);
        let bytes = 0;
        let head = '';
        for await (const chunk of answer.body) {
          if (bytes === 0) head = Buffer.from(chunk).subarray(0, 2).toString('latin1');
          bytes += chunk.byteLength;
        }
        const seconds = (performance.now() - started) / 1000;
        const highWater = await memoryMiB(pid, 'VmHWM');
        if (head !== 'PK') throw new Error('the download is not an xlsx (zip) file');
        const peak = Math.max(sampled, highWater);
        lines.push(
          `| ${round} | ${requestCount.toLocaleString('en-GB')} | ${seconds.toFixed(1)} s | ${(bytes / 1024 / 1024).toFixed(1)} MiB | ${before.toFixed(0)} MiB | ${sampled.toFixed(0)} MiB | ${highWater.toFixed(0)} MiB | peak < ${peakTargetMiB} MB: ${peak * 1.048576 < peakTargetMiB ? 'met' : 'missed'} |`,
        );
      }
      clearInterval(sampler);
      process.stdout.write([...lines, ''].join('\n'));
    } finally {
      await stopAllProcesses();
    }
  });
}

await main();
