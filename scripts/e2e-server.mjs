#!/usr/bin/env node
// The server the browser tests drive: demo mode on a fresh data folder, and with DATABASE_URL a
// fresh database on that server, so every run starts from the same demo organisation. With
// --empty, no demo: the database is as `npm start` first finds it (first-run.spec.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const isEmpty = process.argv.includes('--empty');
const runId = `${Date.now()}${isEmpty ? '_empty' : ''}`;
// Every answer of the browser tests is also checked by its zod schema (VERIFY_RESPONSES).
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', VERIFY_RESPONSES: '1' };
if (isEmpty) delete env.IMPREST_DEMO;
else env.IMPREST_DEMO = '1';
env.DATA_DIR = path.join(root, '.tmp', `e2e-${runId}`);
fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
let cleanup = async () => undefined;
if (process.env.DATABASE_URL) {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `imprest_e2e_${runId}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  cleanup = async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
}
const startArgs = [path.join(root, 'scripts/start.mjs'), ...(isEmpty ? [] : ['--demo'])];
const server = spawn(process.execPath, startArgs, {
  cwd: root,
  env,
  stdio: 'inherit',
});
const stop = (signal) => server.kill(signal);
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
server.on('exit', async (code) => {
  await cleanup().catch(() => undefined);
  fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  process.exit(code ?? 0);
});
