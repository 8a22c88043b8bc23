import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestApp } from '../../../test/helpers.ts';

// Issue 14: /healthz and /readyz answer without a token, cheaply, and stay out of the request log.
const t = await createTestApp();

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('health', () => {
  it('/healthz answers while the process runs, without a token', async () => {
    const response = await get('/healthz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('/readyz is 503 until the job worker runs, then 200', async () => {
    t.context.readiness = undefined;
    const waiting = await get('/readyz');
    expect(waiting.statusCode).toBe(503);
    expect(waiting.json()).toEqual({
      status: 'not ready',
      checks: { database: 'ok', migrations: 'ok', redis: 'not configured', jobs: 'not ready' },
    });
    t.context.readiness = { jobs: async () => true };
    const ready = await get('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('/readyz names a configured Redis that does not answer', async () => {
    const withRedis = {
      ...t.context,
      config: { ...t.context.config, redisUrl: 'redis://127.0.0.1:1' },
      readiness: {
        jobs: async () => true,
        redis: async () => {
          throw new Error('connection refused');
        },
      },
    };
    const app = await buildApp(withRedis, { logger: false });
    try {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json().checks.redis).toBe('connection refused');
    } finally {
      await app.close();
    }
  });

  it('neither answer is written to the request log; other calls are', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp(
      { ...t.context, readiness: { jobs: async () => true } },
      { logger: createLogger('info', stream) },
    );
    try {
      await app.inject({ method: 'GET', url: '/healthz' });
      await app.inject({ method: 'GET', url: '/readyz' });
      expect(lines.join('')).not.toMatch(/healthz|readyz/);
      await app.inject({ method: 'GET', url: '/api/v1/setup' });
      expect(lines.join('')).toContain('/api/v1/setup');
    } finally {
      await app.close();
    }
  });

  it('/readyz is 503 when a migration of this build is missing', async () => {
    t.context.readiness = { jobs: async () => true };
    await t.db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)`,
    );
    const response = await get('/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json().checks.migrations).toMatch(/^\d+ of \d+ migrations applied$/);
  });
});
