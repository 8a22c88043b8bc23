import { roles, type Role } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestUser } from '../../test/helpers.ts';
import {
  authorizationMatrix,
  isPublicRow,
  rowName,
  type Kind,
  type ProtectedRow,
} from './authorization-matrix.ts';
import { buildWorld, freshUser, type World } from './authorization-world.ts';

/**
 * ASVS 5.0 V8: every documented API operation × every role × own record, a colleague's, another
 * organisation's, and no token → the status of decisions §2 and §9, from the one table in
 * authorization-matrix.ts. A documented operation without a row fails here.
 */

const t = await createTestApp();
const world: World = await buildWorld(t);

type OpenApi = { paths: Record<string, Record<string, unknown>> };

/** Every `METHOD /api/v1/...` the OpenAPI document lists. */
function documentedOperations(): string[] {
  const { paths } = t.app.swagger() as unknown as OpenApi;
  return Object.entries(paths)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
}

describe('the authorization matrix covers the API', () => {
  it('has a row for every documented operation (add one to authorization-matrix.ts)', () => {
    const covered = new Set<string>(authorizationMatrix.map((row) => row.operation));
    const missing = documentedOperations().filter((operation) => !covered.has(operation));
    expect(missing.join(', '), 'documented operations without a row').toBe('');
  });

  it('names only operations that are documented', () => {
    const documented = new Set(documentedOperations());
    const stale = authorizationMatrix
      .map((row) => row.operation)
      .filter((operation) => !documented.has(operation));
    expect(stale.join(', '), 'rows naming no documented operation').toBe('');
  });

  it('gives every protected row at least one kind of record', () => {
    const empty = authorizationMatrix
      .filter((row): row is ProtectedRow => !isPublicRow(row))
      .filter((row) => Object.keys(row.expect).length === 0)
      .map(rowName);
    expect(empty).toEqual([]);
  });
});

const kindLabels: Record<Kind, string> = {
  own: 'own record',
  colleague: 'a colleague’s record',
  other: 'another organisation’s record',
  none: 'no record named',
};
const kinds = Object.keys(kindLabels) as Kind[];

type Case = { role: Role; kind: Kind; label: string; status: number };

function casesOf(row: ProtectedRow): Case[] {
  return kinds.flatMap((kind) => {
    const expected = row.expect[kind];
    if (!expected) return [];
    return roles.map((role) => ({ role, kind, label: kindLabels[kind], status: expected[role] }));
  });
}

async function actorFor(row: ProtectedRow, role: Role): Promise<TestUser> {
  if (row.actor === 'fresh' || row.actor === 'fresh-locked')
    return freshUser(world, world.home, { role, isLocked: row.actor === 'fresh-locked' });
  return world.home.actors[role];
}

function recordOf(kind: Kind, actor: TestUser) {
  if (kind === 'colleague') return { owner: world.home.colleague, org: world.home };
  if (kind === 'other') return { owner: world.elsewhere.colleague, org: world.elsewhere };
  return { owner: actor, org: world.home };
}

/** Makes a row's call for a role and kind; `withToken` false sends it without a session. */
async function callAs(row: ProtectedRow, role: Role, kind: Kind, withToken: boolean) {
  const actor = await actorFor(row, role);
  const call = await row.call({ world, actor, kind, ...recordOf(kind, actor) });
  return t.app.inject({
    method: call.method,
    url: call.url,
    headers: { ...call.headers, ...(withToken ? auth(actor) : {}) },
    ...(call.payload === undefined ? {} : { payload: call.payload }),
  });
}

/** Another organisation's ids or name in a successful answer: a leak across organisations. */
function foreignMarkersIn(body: string): string[] {
  return [...world.foreignMarkers].filter((marker) => body.includes(marker));
}

const protectedRows = authorizationMatrix.filter((row): row is ProtectedRow => !isPublicRow(row));

describe.each(protectedRows.map((row) => [rowName(row), row] as const))('%s', (_name, row) => {
  it.each(casesOf(row))('$role, $label → $status', async ({ role, kind, status }) => {
    const response = await callAs(row, role, kind, true);
    expect(response.statusCode, response.body.slice(0, 500)).toBe(status);
    const isJson = String(response.headers['content-type'] ?? '').includes('json');
    if (response.statusCode < 300 && isJson)
      expect(foreignMarkersIn(response.body), 'another organisation’s data').toEqual([]);
  });

  const [first] = casesOf(row);
  it('no token → 401', async () => {
    const response = await callAs(row, 'staff', first?.kind ?? 'none', false);
    expect(response.statusCode, response.body.slice(0, 500)).toBe(401);
  });
});

const publicRows = authorizationMatrix.filter(isPublicRow);

describe.each(publicRows.map((row) => [rowName(row), row] as const))('%s (public)', (_n, row) => {
  it(`no token → ${row.status}`, async () => {
    const call = await row.call(world);
    const response = await t.app.inject({
      method: call.method,
      url: call.url,
      headers: call.headers ?? {},
      ...(call.payload === undefined ? {} : { payload: call.payload }),
    });
    expect(response.statusCode, response.body.slice(0, 500)).toBe(row.status);
  });
});
