/**
 * Fuzz of every POST and PUT body (OWASP ASVS 5.0 L2, V2 validation and V1 encoding).
 *
 * The operations come from the OpenAPI document, so a new route is fuzzed without touching this
 * file; each body is generated from the JSON Schema the document holds for it (written from the
 * shared zod schemas by fastify-type-provider-zod), with real fixture ids, e-mails and budget codes
 * mixed in so that bodies get past validation and into the services. Then one hostile change is
 * made (a field replaced by SQL, NUL bytes, lone surrogates, 900 KB of text, 5,000 levels of
 * nesting, numbers past the double range…, a key such as `__proto__` added, a key removed, or the
 * whole body replaced), and a fixed list of raw requests (broken JSON, a body over 1 MiB, other
 * content types, multipart) is sent to every route too. Each is sent through `inject` with the
 * token of a director, a finance officer, an admin or a member of staff (public routes also with
 * none), each from a new client address so that per-address rate limits do not stop the bodies
 * before validation; `POST users/logout` ends the session of its caller, so it has its own user.
 *
 * Every case, valid or not:
 * - never answers 5xx;
 * - a 4xx answers JSON with an `error` sentence, and leaves the database as it was: row counts of
 *   every public table and a checksum of every numeric (money, rate) column are compared before
 *   and after (tables a refusal may write, failed sign-ins and rate-limit counters, are left out).
 * Bodies are classed before sending by a small JSON Schema check (`refusalOf`): one the documented
 * schema refuses (or that cannot be parsed) must be refused, with a 4xx. A body the schema allows
 * may be accepted and change the database; only "no 5xx" holds for it. The check can only err
 * towards "allowed" (zod refinements are not in the schema), so no valid body is ever required to
 * fail.
 *
 * Deterministic: a fixed seed (printed); fast-check prints the counterexample (route, actor, how
 * the body was made and its start) and the seed and path to replay it.
 *
 * What it found when written: an enum message built with String(input) overflowed the stack on a
 * 5,000-level array (PUT users → 500); NUL bytes reached PostgreSQL text (POST requests with
 * such a budget_code, and more → 500, SQLSTATE 22021); a multipart body that breaks off
 * (files/upload → 500). See describeInput and storableText in packages/domain/src/api/common.ts
 * and lib/error-handler.ts.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStaffedOrganization } from '../../test/factories/organizations.ts';
import { requestBody, submitted } from '../../test/factories/requests.ts';
import { buildRetirement } from '../../test/factories/retirements.ts';
import { buildUser, createTestApp, type TestUser } from '../../test/helpers.ts';
import { fixedRequests, mutatedBody, type RawRequest } from './fuzz-hostile.ts';
import { arbitraryFor, refusalOf, type FuzzHints, type JsonSchema } from './fuzz-schema.ts';
import { differences, snapshotterOf, type DatabaseSnapshot } from './fuzz-snapshot.ts';

const seed = 20_260_401;
const runsPerRoute = 60;

const t = await createTestApp();
const org = await buildStaffedOrganization(t.db);
const pending = await submitted(t.app, org.staff, requestBody(org.budget.code));
const retirement = await buildRetirement(t.app, {
  owner: org.otherStaff,
  finance: org.finance,
  reviewers: [org.finance, org.secretary],
  budgetCode: org.budget.code,
});
/** Someone the fuzz may edit, lock and restrict, so that the acting users keep their sessions. */
const victim = await buildUser(t.db, {
  organizationId: org.organizationId,
  fullname: 'Vera Victim',
});
/** Signs out through `POST users/logout`, which ends the session of whoever calls it. */
const leaver = await buildUser(t.db, {
  organizationId: org.organizationId,
  fullname: 'Lee Leaver',
});

const actors: Record<string, TestUser> = {
  director: org.director,
  finance_officer: org.finance,
  admin: org.admin,
  staff: org.staff,
};

const hints: FuzzHints = {
  ids: [
    org.budget.id,
    pending.id,
    ...pending.reviews.map((review) => review.id),
    retirement.id,
    retirement.request_id,
    ...retirement.reviews.map((review) => review.id),
  ],
  userIds: [victim.id, org.otherStaff.id],
  emails: [victim.email, org.staff.email, 'nobody@example.test'],
  budgetCodes: [org.budget.code],
  // Invalid dates are in the hostile list; these pass, so that requests get created.
  dates: [1, 7, 30].map((days) =>
    new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10),
  ),
  byName: {
    amount_currency: [org.budget.currency],
    tax_status: ['taxInclusive'],
    purpose: ['other', 'meals'],
    mode_of_service: ['other'],
    name_of_establishment: ['Dar Express'],
    expenditure_justification: ['Field visit'],
    file_paths: [[]],
    meta_data: [['operating cost', 'hq']],
    settings: ['{"mute_notification":true}', '{"mute_notification":false}'],
    request_id: [pending.id, retirement.request_id],
    review_id: retirement.reviews.map((review) => review.id),
    rows: [[{ start_value: 0, end_value: null, user_role: ['finance_officer'] }]],
  },
};

type Operation = {
  method: 'POST' | 'PUT';
  path: string;
  isPublic: boolean;
  /** The JSON body schema; undefined when the route documents none (logout, multipart upload). */
  schema: JsonSchema | undefined;
};

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: unknown[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
};

/** Every POST and PUT the API documents. */
function postAndPutOperations(): Operation[] {
  const { paths } = t.app.swagger() as unknown as OpenApi;
  return Object.entries(paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const upper = method.toUpperCase();
      if (upper !== 'POST' && upper !== 'PUT') return [];
      return [
        {
          method: upper,
          path,
          isPublic: !operation.security?.length,
          schema: operation.requestBody?.content?.['application/json']?.schema,
        },
      ];
    }),
  );
}

const operations = postAndPutOperations();
const snapshot = await snapshotterOf(t.db);
let lastSnapshot: DatabaseSnapshot = await snapshot();
/** Answers per route and status, printed at the end. */
const tally = new Map<string, Map<number, number>>();

function actorsFor(operation: Operation): string[] {
  if (operation.path.endsWith('/users/logout')) return ['leaver'];
  return [...Object.keys(actors), ...(operation.isPublic ? ['anonymous'] : [])];
}

function headersOf(actor: string): Record<string, string> {
  if (actor === 'leaver') return { authorization: `Bearer ${leaver.token}` };
  const user = actors[actor];
  return user ? { authorization: `Bearer ${user.token}` } : {};
}

function preview(text: string): string {
  const start = JSON.stringify(text.slice(0, 300));
  return text.length > 300 ? `${start}… (${text.length} characters)` : start;
}

/** Whether the body must be refused whatever the route does with a valid one. */
function mustRefuse(operation: Operation, request: RawRequest): string | undefined {
  if (request.isUnparsable) return 'it cannot be parsed';
  if (!operation.schema) return undefined;
  if (request.contentType === 'text/plain') return refusalOf(operation.schema, request.payload);
  if (request.contentType !== 'application/json') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.payload);
  } catch {
    return 'it is not JSON';
  }
  return refusalOf(operation.schema, parsed);
}

let sent = 0;
/** Cases the documented schema refuses, which must all be answered 4xx. */
let refusedBySchema = 0;

/** Sends one case and checks the rules of the top of this file. */
async function check(operation: Operation, actor: string, request: RawRequest): Promise<void> {
  sent += 1;
  const response = await t.app.inject({
    method: operation.method,
    url: operation.path,
    // A new client address each time, so the per-address rate limits of the public routes let the
    // body through to validation instead of answering 429 before it (429 is still accepted).
    remoteAddress: `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
    headers: {
      ...headersOf(actor),
      ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
    },
    payload: request.payload,
  });
  const status = response.statusCode;
  const counts = tally.get(`${operation.method} ${operation.path}`) ?? new Map<number, number>();
  counts.set(status, (counts.get(status) ?? 0) + 1);
  tally.set(`${operation.method} ${operation.path}`, counts);

  const where = [
    `${operation.method} ${operation.path} as ${actor}: ${request.description}`,
    `content-type: ${request.contentType ?? '(none)'}`,
    `body: ${preview(request.payload)}`,
    `answer ${status}: ${response.body.slice(0, 500)}`,
  ].join('\n');
  expect(status, where).toBeLessThan(500);
  const refusal = mustRefuse(operation, request);
  if (refusal) refusedBySchema += 1;
  if (refusal) expect(status, `must be refused (${refusal})\n${where}`).toBeGreaterThanOrEqual(400);

  const now = await snapshot();
  if (status >= 400) {
    expect(response.headers['content-type'], where).toMatch(/^application\/json/);
    expect(typeof (response.json() as { error?: unknown }).error, where).toBe('string');
    expect(differences(lastSnapshot, now), `a refused call changed the database\n${where}`).toEqual(
      [],
    );
  }
  lastSnapshot = now;
}

afterAll(() => {
  const lines = [...tally].map(([route, counts]) => {
    const statuses = [...counts]
      .sort(([left], [right]) => left - right)
      .map(([status, count]) => `${status}×${count}`);
    return `  ${route.padEnd(48)} ${statuses.join(' ')}`;
  });
  const total = [...tally.values()].reduce(
    (sum, counts) => sum + [...counts.values()].reduce((a, b) => a + b, 0),
    0,
  );
  console.info(
    `fuzz: seed ${seed}, ${total} requests (${refusedBySchema} refused by the documented schema)\n${lines.join('\n')}`,
  );
});

describe(`fuzz of every POST/PUT body (seed ${seed})`, () => {
  it('finds the routes in the OpenAPI document', () => {
    expect(operations.length).toBeGreaterThan(20);
    const bodies = operations.filter((operation) => operation.schema);
    expect(bodies.length).toBeGreaterThan(18);
  });

  for (const operation of operations) {
    it(`${operation.method} ${operation.path}`, { timeout: 120_000 }, async () => {
      const names = actorsFor(operation);
      for (const [index, request] of fixedRequests.entries()) {
        await check(operation, names[index % names.length] ?? 'anonymous', request);
      }
      const body = operation.schema ? arbitraryFor(operation.schema, hints) : fc.jsonValue();
      const cases = fc
        .tuple(fc.constantFrom(...names), mutatedBody(body, operation.schema))
        .map(([actor, mutated]) => ({
          actor,
          request: {
            description: mutated.description,
            contentType: 'application/json',
            payload: mutated.text,
            isUnparsable: false,
          },
          [fc.toStringMethod]: () => `${actor}: ${mutated.description}: ${preview(mutated.text)}`,
        }));
      await fc.assert(
        fc.asyncProperty(cases, async ({ actor, request }) => check(operation, actor, request)),
        { seed, numRuns: runsPerRoute },
      );
    });
  }

  it('leaves Object.prototype as it was', () => {
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('still lets the acting users in, so the fuzz did not turn into a run of 401s', async () => {
    for (const [name, user] of Object.entries(actors)) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/v1/users/validate-token',
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(response.statusCode, name).toBe(200);
    }
  });
});
