import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../config.ts';
import { attachRealtime } from '../realtime/socket.ts';
import { createFileStore, createLocalSigner } from '../features/files/store.ts';
import { uploaded } from '../../test/factories/files.ts';
import {
  auth,
  buildOrganization,
  buildUser,
  createTestApp,
  type TestApp,
} from '../../test/helpers.ts';
import { contentSecurityDirectives, inlineScriptHashes, s3Origins } from './security-headers.ts';

// Security headers on every kind of response (ASVS 3.4), through the real app and its error paths.

let web: string;
let plain: TestApp;
let secure: TestApp;
const tokens = new Map<TestApp, { token: string }>();
const tokenOf = (t: TestApp) => tokens.get(t) ?? { token: '' };

beforeAll(async () => {
  web = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-web-'));
  await fs.writeFile(
    path.join(web, 'index.html'),
    '<!doctype html><title>Imprest</title><script type="module" src="/assets/app.js"></script>',
  );
  await fs.mkdir(path.join(web, 'assets'));
  await fs.writeFile(path.join(web, 'assets', 'app.js'), 'console.log(1)');
  plain = await createTestApp({ config: { webDist: web } });
  secure = await createTestApp({ config: { webDist: web, appUrl: 'https://imprest.example.org' } });
  for (const t of [plain, secure])
    tokens.set(t, await buildUser(t.db, { organizationId: await buildOrganization(t.db) }));
});
afterAll(async () => {
  await fs.rm(web, { recursive: true, force: true });
});

/** The directives of a Content-Security-Policy header, by name. */
function directivesOf(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name ?? '', values]),
  );
}

describe('every response', () => {
  const cases: [string, (t: TestApp) => Promise<LightMyRequestResponse>, number][] = [
    ['a page (/)', (t) => t.app.inject({ method: 'GET', url: '/' }), 200],
    ['an app route (/dashboard)', (t) => t.app.inject({ method: 'GET', url: '/dashboard' }), 200],
    ['a static file', (t) => t.app.inject({ method: 'GET', url: '/assets/app.js' }), 200],
    [
      'an API answer',
      (t) =>
        t.app.inject({ method: 'GET', url: '/api/v1/approval-matrix', headers: auth(tokenOf(t)) }),
      200,
    ],
    ['a 401', (t) => t.app.inject({ method: 'GET', url: '/api/v1/approval-matrix' }), 401],
    [
      'a 400',
      (t) =>
        t.app.inject({
          method: 'GET',
          url: '/api/v1/files/presigned-post-url?file_name=tool.exe',
          headers: auth(tokenOf(t)),
        }),
      400,
    ],
    [
      'a 400 of a malformed body',
      (t) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/users/authenticate',
          headers: { 'content-type': 'application/json' },
          payload: '{not json',
        }),
      400,
    ],
    ['a 404', (t) => t.app.inject({ method: 'GET', url: '/api/v1/no-such-endpoint' }), 404],
    [
      'a 400 of an address the router cannot read',
      (t) => t.app.inject({ method: 'GET', url: '/api/v1/users/%E0%A4%A' }),
      400,
    ],
    ['the API docs', (t) => t.app.inject({ method: 'GET', url: '/api/docs/json' }), 200],
  ];

  it.each(cases)('%s carries nosniff, the policy and no referrer', async (_what, call, status) => {
    const response = await call(plain);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    const directives = directivesOf(response);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    // Served over plain HTTP: no HSTS (it would be ignored, or lock a host out of HTTP).
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps every API answer out of caches, the token and the profile among them', async () => {
    const user = await buildUser(plain.db, {
      organizationId: await buildOrganization(plain.db, 'No Store Org'),
    });
    const answers = [
      await plain.app.inject({
        method: 'POST',
        url: '/api/v1/users/authenticate',
        payload: { email: user.email, password: user.password },
      }),
      await plain.app.inject({
        method: 'GET',
        url: '/api/v1/users/validate-token',
        headers: { token: user.token },
      }),
      await plain.app.inject({
        method: 'GET',
        url: `/api/v1/users/${user.id}`,
        headers: auth(user),
      }),
      await plain.app.inject({ method: 'GET', url: '/api/v1/approval-matrix' }),
      await plain.app.inject({ method: 'GET', url: '/api/v1/no-such-endpoint' }),
      await plain.app.inject({ method: 'GET', url: '/api/v1/budget/%zz', headers: auth(user) }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 401, 404, 400]);
    // The router's own refusals speak the API's error body, without its internals or the path.
    expect(answers[5]?.json()).toEqual({
      error: 'This address is not valid: part of it is wrongly encoded.',
    });
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
    // The web's pages and hashed assets keep their own caching.
    const page = await plain.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it.each(cases)('%s behind HTTPS also carries HSTS', async (_what, call, status) => {
    const response = await call(secure);
    expect(response.statusCode, response.body).toBe(status);
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(directivesOf(response).has('upgrade-insecure-requests')).toBe(true);
  });

  it('lets the page reach its own socket.io and nothing that runs inline', async () => {
    const directives = directivesOf(await plain.app.inject({ method: 'GET', url: '/' }));
    expect(directives.get('connect-src')).toEqual(["'self'", 'ws://localhost:3000']);
    // blob: workers and images only for the file previewers (docs/decisions/0015).
    expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(directives.get('script-src-attr')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'self'"]);
    expect(directives.has('upgrade-insecure-requests')).toBe(false);
    const everything = [...directives.values()].flat();
    expect(everything).not.toContain("'unsafe-eval'");
    expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
  });
});

describe('a stored file from the local store', () => {
  it('replaces the page policy with a sandbox, and keeps nosniff and no referrer', async () => {
    const name = await uploaded(plain.app, tokenOf(plain), 'receipt.pdf');
    const link = await plain.app.inject({
      method: 'GET',
      url: `/api/v1/files/presigned-get-url?file_name=${name}`,
      headers: auth(tokenOf(plain)),
    });
    const file = await plain.app.inject({ method: 'GET', url: link.json().url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['referrer-policy']).toBe('no-referrer');
    const directives = directivesOf(file);
    expect(directives.get('sandbox')).toEqual([]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
    expect(directives.has('script-src')).toBe(false);
  });

  it('keeps the headers on the store’s refusals', async () => {
    const refused = await plain.app.inject({
      method: 'GET',
      url: '/api/v1/files/object?key=x&expires=1&signature=y',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    expect(directivesOf(refused).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('the S3 origins the policy allows', () => {
  const jwt = { JWT_SECRET: 'x'.repeat(40), S3_ACCESS_KEY_ID: 'AK', S3_SECRET_ACCESS_KEY: 'sk' };
  const key = '0b6f3c4e-1d2a-4b8c-9e0f-123456789abc/Ab3dE9xinvoice.pdf';

  it.each([
    ['AWS', { S3_BUCKET: 'imprest-files', S3_REGION: 'af-south-1' }],
    [
      'an endpoint with the bucket in the path',
      { S3_BUCKET: 'files', S3_ENDPOINT: 'http://minio.local:9000', S3_FORCE_PATH_STYLE: 'true' },
    ],
    [
      'an endpoint with the bucket as a host',
      { S3_BUCKET: 'files', S3_ENDPOINT: 'https://storage.example.org' },
    ],
  ])('with %s: the origin of every presigned link and upload', async (_what, env) => {
    const config = readConfig({ ...jwt, ...env });
    const store = createFileStore(config, createLocalSigner(new Uint8Array(32)));
    const origins = s3Origins(config.s3);
    const get = await store.presignGet(key, {
      expiresSeconds: 300,
      fileName: 'invoice.pdf',
      contentType: 'application/pdf',
      disposition: 'inline',
    });
    const post = await store.presignPost(key, { maxBytes: 10, expiresSeconds: 60 });
    expect(origins).toEqual([new URL(get).origin]);
    expect(origins).toContain(new URL(post.url).origin);
    const directives = contentSecurityDirectives(config);
    for (const directive of ['img-src', 'frame-src', 'connect-src'])
      expect(directives[directive]).toContain(origins[0]);
    expect(directives['script-src']).toEqual(["'self'"]);
  });

  it('allows no other origin with the local store', () => {
    const directives = contentSecurityDirectives(readConfig(jwt));
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(directives['frame-src']).toEqual(["'self'"]);
  });
});

describe("index.html's boot script", () => {
  const boot = "document.documentElement.setAttribute('data-first-page', 'other');";
  let built: string;
  let app: TestApp;
  beforeAll(async () => {
    built = await fs.mkdtemp(path.join(os.tmpdir(), 'imprest-web-'));
    await fs.writeFile(
      path.join(built, 'index.html'),
      `<!doctype html><head><script>${boot}</script>` +
        '<script type="module" crossorigin src="/assets/app.js"></script></head>',
    );
    app = await createTestApp({ config: { webDist: built } });
  });
  afterAll(async () => {
    await fs.rm(built, { recursive: true, force: true });
  });

  it('runs by its hash alone: no other inline script, no file of another origin', async () => {
    const hash = `'sha256-${crypto.createHash('sha256').update(boot).digest('base64')}'`;
    for (const url of ['/', '/dashboard']) {
      const directives = directivesOf(await app.app.inject({ method: 'GET', url }));
      expect(directives.get('script-src')).toEqual(["'self'", hash]);
      expect(directives.get('script-src-attr')).toEqual(["'none'"]);
    }
  });

  it('is read from the built page: a changed script has another hash, no page none', async () => {
    const other = path.join(built, 'other');
    await fs.mkdir(other);
    await fs.writeFile(path.join(other, 'index.html'), `<script>${boot} </script>`);
    expect(inlineScriptHashes(other)).toHaveLength(1);
    expect(inlineScriptHashes(other)).not.toEqual(inlineScriptHashes(built));
    expect(inlineScriptHashes(path.join(built, 'missing'))).toEqual([]);
  });
});

describe('socket.io, which answers outside Fastify', () => {
  it('sends nosniff on its polling answers too', async () => {
    const realtime = await attachRealtime(plain.app, plain.context);
    try {
      const base = await plain.app.listen({ port: 0, host: '127.0.0.1' });
      const response = await fetch(`${base}/socket.io/?EIO=4&transport=polling`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await realtime.close();
    }
  });
});
