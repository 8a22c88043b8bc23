import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers.ts';

const t = await createTestApp();

/** The routes that answer without a session; every other API route must demand one. */
const publicRoutes = new Set([
  'POST /api/v1/users/authenticate',
  'GET /api/v1/setup',
  'POST /api/v1/setup',
  'POST /api/v1/forgot-password',
  'POST /api/v1/forgot-password/validate',
  // The signed policy or link is the authority (docs/decisions/0007).
  'POST /api/v1/files/upload',
  'GET /api/v1/files/object',
]);

type OpenApi = { paths: Record<string, Record<string, unknown>> };

/** Every method and path the API documents, path parameters filled with something invalid. */
function documentedRoutes(): { method: string; path: string; url: string }[] {
  const { paths } = t.app.swagger() as unknown as OpenApi;
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => ({
      method: method.toUpperCase(),
      path,
      url: path.replace(/\{[^}]+\}/g, 'not-a-valid-value'),
    })),
  );
}

describe('authentication comes first (decisions §2)', () => {
  it('documents the public routes it expects, so the list below cannot go stale', () => {
    const documented = new Set(documentedRoutes().map((route) => `${route.method} ${route.path}`));
    for (const route of publicRoutes) expect(documented).toContain(route);
  });

  const tokens = [
    ['no token', {}],
    ['a forged token', { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' }],
    ['a token header that is not a JWT', { token: 'not-a-jwt' }],
  ] as const;

  it.each(tokens)(
    'answers 401 to every other route with %s, whatever the body and parameters',
    async (_name, headers) => {
      const protectedRoutes = documentedRoutes().filter(
        (route) =>
          route.path.startsWith('/api/v1/') && !publicRoutes.has(`${route.method} ${route.path}`),
      );
      expect(protectedRoutes.length).toBeGreaterThan(30);
      for (const route of protectedRoutes) {
        const withBody = !['GET', 'DELETE'].includes(route.method);
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: `${route.url}?page=-1&amount=lots`,
          headers: { ...headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: '{"malformed": ' } : {}),
        });
        expect(response.statusCode, `${route.method} ${route.path}`).toBe(401);
        expect(response.json().error).toBe(
          'Your session has expired or is invalid. Please sign in again.',
        );
      }
    },
  );
});
