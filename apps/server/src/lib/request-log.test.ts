import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { auth, buildOrganization, buildUser, createTestApp } from '../../test/helpers.ts';
import { createLogger } from './logger.ts';

// Issue 14: one JSON line per request with its id (accepted from and returned in x-request-id),
// user and organisation, status and duration; never a token.
const web = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-web-'));
await fs.writeFile(path.join(web, 'index.html'), '<!doctype html><title>Imprest</title>');
await fs.mkdir(path.join(web, 'assets'));
await fs.writeFile(path.join(web, 'assets', 'app.js'), 'console.log(1)');
const t = await createTestApp({ config: { webDist: web } });
afterAll(() => fs.rm(web, { recursive: true, force: true }));
const user = await buildUser(t.db, { organizationId: await buildOrganization(t.db) });

async function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp(t.context, { logger: createLogger('info', stream) });
  await app.ready();
  return { app, lines };
}

describe('the request log', () => {
  it('logs a page but not each of its files', async () => {
    const { app, lines } = await loggedApp();
    try {
      expect((await app.inject({ method: 'GET', url: '/dashboard' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/assets/app.js' })).statusCode).toBe(200);
      // A file's line is written once its stream has ended, just after inject resolves.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const urls = lines
        .filter((line) => line.msg === 'request completed')
        .map((line) => (line.req as { url: string }).url);
      expect(urls).toContain('/dashboard');
      expect(urls).not.toContain('/assets/app.js');
    } finally {
      await app.close();
    }
  });

  it('writes one line per request with its id, status, duration, user and organisation', async () => {
    const { app, lines } = await loggedApp();
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/users/validate-token',
        headers: { ...auth(user), 'x-request-id': 'lb-1234.abc' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-request-id']).toBe('lb-1234.abc');
      const requestLines = lines.filter((line) => line.reqId === 'lb-1234.abc');
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatchObject({
        msg: 'request completed',
        req: { method: 'GET', url: '/api/v1/users/validate-token' },
        res: { statusCode: 200 },
        user_id: user.id,
        organization_id: user.organization_id,
      });
      expect(typeof requestLines[0]?.responseTime).toBe('number');
      expect(JSON.stringify(lines)).not.toContain(user.token);
    } finally {
      await app.close();
    }
  });

  it('gives a request without an acceptable id a new one, and returns it', async () => {
    const { app, lines } = await loggedApp();
    try {
      const plain = await app.inject({ method: 'GET', url: '/api/v1/setup' });
      const hostile = await app.inject({
        method: 'GET',
        url: '/api/v1/setup',
        headers: { 'x-request-id': 'x\nforged log line' },
      });
      for (const response of [plain, hostile]) {
        expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect(lines.map((line) => line.reqId)).toEqual([
        plain.headers['x-request-id'],
        hostile.headers['x-request-id'],
      ]);
      expect(lines[0]).not.toHaveProperty('user_id');
    } finally {
      await app.close();
    }
  });
});
