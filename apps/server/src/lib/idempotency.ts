import { createHash } from 'node:crypto';
import { idempotencyKeyLifetimeHours } from '@imprest/domain/api/common.ts';
import { sql } from 'drizzle-orm';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import { withTransactionHook, type Database, type Executor } from '../db/client.ts';
import { executeNamed } from '../db/named.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** The route honours an `Idempotency-Key` header (issue 14; docs/decisions/0018). */
    isIdempotent?: boolean;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    idempotencyClaim: IdempotencyClaim | null;
  }
}

/**
 * One call's key: `open` until a transaction of the call records it, `claimed` once one has (the
 * row commits or rolls back with that transaction's write), `closed` once the handler is done.
 */
type IdempotencyClaim = {
  userId: string;
  organizationId: string;
  key: string;
  fingerprint: string;
  state: 'open' | 'claimed' | 'closed';
};

type StoredAnswer = { statusCode: number; body: string };

/** The key is recorded by another call of the same user: answer with that call's answer. */
class KeyTakenError extends Error {
  constructor() {
    super('idempotency key taken by a concurrent call');
    this.name = 'KeyTakenError';
  }
}

export const idempotencyMessages = {
  otherBody:
    'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  stillRunning: 'A call with this Idempotency-Key is still being handled. Try again in a moment.',
  answerLost:
    'A call with this Idempotency-Key was saved, but its answer was lost. Reload to see the result.',
} as const;

/** How long a repeat waits for the first call's answer before giving up with a 409. */
const answerWaitMs = 10_000;
const answerPollMs = 50;

/** JSON with object keys sorted, so the same body hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The method, path and validated body of a call, hashed. */
function fingerprintOf(request: FastifyRequest): string {
  return (
    createHash('sha256')
      // The path as called, parameters included: one key is one call on one record.
      .update(`${request.method} ${request.url.split('?')[0] ?? ''}\n`)
      .update(canonicalJson(request.body))
      .digest('hex')
  );
}

/**
 * Records the key inside the call's first transaction. A live row of the same key (another call
 * got there first, committed or still running) makes this insert wait for it and then find the
 * conflict: the call stops here, before any write, and answers with the first call's answer.
 * An expired row is taken over.
 */
async function recordKey(tx: Executor, claim: IdempotencyClaim): Promise<(() => void) | undefined> {
  if (claim.state !== 'open') return undefined;
  // Prepared under a name (issue 13): every idempotent write sends it, and the answer's update
  // below; PostgreSQL planned each afresh on every call (decision 0026).
  const inserted = await executeNamed(
    tx,
    'idempotency_key',
    sql`
    INSERT INTO idempotency_keys AS k (user_id, key, organization_id, fingerprint, expires_at)
    VALUES (${claim.userId}, ${claim.key}, ${claim.organizationId}, ${claim.fingerprint},
            now() + make_interval(hours => ${sql.raw(String(idempotencyKeyLifetimeHours))}))
    ON CONFLICT (user_id, key) DO UPDATE SET
      organization_id = excluded.organization_id,
      fingerprint = excluded.fingerprint,
      status_code = NULL,
      response_body = NULL,
      created_at = now(),
      expires_at = excluded.expires_at
    WHERE k.expires_at <= now()
    RETURNING 1 AS recorded`,
  );
  if (inserted.length === 0) throw new KeyTakenError();
  claim.state = 'claimed';
  // The row goes with a rolled-back write: a later transaction of the call records it again.
  return () => {
    if (claim.state === 'claimed') claim.state = 'open';
  };
}

/**
 * The first answer to a key, waiting while its call is still running. Null when no live row
 * holds the key (no call, or only calls that changed nothing). The same key with another body
 * is a 422.
 */
async function answerOf(
  db: Database,
  claim: Pick<IdempotencyClaim, 'userId' | 'key' | 'fingerprint'>,
): Promise<StoredAnswer | null> {
  const deadline = Date.now() + answerWaitMs;
  for (;;) {
    const result = await db.execute<{
      fingerprint: string;
      status_code: number | null;
      response_body: string | null;
      age_ms: number;
    }>(sql`
      SELECT fingerprint, status_code, response_body,
             (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms
      FROM idempotency_keys
      WHERE user_id = ${claim.userId} AND key = ${claim.key} AND expires_at > now()`);
    const row = result.rows[0];
    if (!row) return null;
    if (row.fingerprint !== claim.fingerprint)
      throw new AppError('unprocessable', idempotencyMessages.otherBody);
    if (row.status_code !== null)
      return { statusCode: row.status_code, body: row.response_body ?? '' };
    // Committed without an answer: the process stopped between its commit and storing the answer.
    if (row.age_ms > answerWaitMs * 3)
      throw new AppError('conflict', idempotencyMessages.answerLost);
    if (Date.now() > deadline) throw new AppError('conflict', idempotencyMessages.stillRunning);
    await new Promise((resolve) => setTimeout(resolve, answerPollMs));
  }
}

function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  return reply
    .status(answer.statusCode)
    .header('idempotent-replayed', 'true')
    .type('application/json; charset=utf-8')
    .send(answer.body);
}

/** Now and then, forget keys whose 24 hours are over, so the table stays small. */
async function forgetExpiredKeys(db: Database): Promise<void> {
  if (Math.random() >= 0.01) return;
  await db.execute(sql`DELETE FROM idempotency_keys WHERE expires_at <= now()`);
}

function idempotentHandler(db: Database, handler: RouteHandlerMethod): RouteHandlerMethod {
  return async function handleIdempotently(this: FastifyInstance, request, reply) {
    const key = request.headers['idempotency-key'];
    const actor = request.actor;
    if (typeof key !== 'string' || !actor) return handler.call(this, request, reply);
    const claim: IdempotencyClaim = {
      userId: actor.id,
      organizationId: actor.organization_id,
      key,
      fingerprint: fingerprintOf(request),
      state: 'open',
    };
    // No look-up first: the key is recorded by the call's first transaction, where a repeat finds
    // it taken before it writes anything, and is answered below. A first call, the usual case,
    // sends one statement fewer (issue 13).
    request.idempotencyClaim = claim;
    try {
      return await withTransactionHook(
        (tx) => recordKey(tx, claim),
        () => handler.call(this, request, reply),
      );
    } catch (error) {
      // A concurrent call with the key committed first: this one wrote nothing, and the first
      // call's answer is this call's answer too. A refusal that this call met only because the
      // other's write had landed (an e-mail now taken) is answered the same way.
      if (claim.state === 'claimed') throw error;
      const first = await answerOf(db, claim);
      if (first) return replay(reply, first);
      throw error;
    } finally {
      if (claim.state === 'open') claim.state = 'closed';
      await forgetExpiredKeys(db).catch(() => undefined);
    }
  };
}

/**
 * `Idempotency-Key` on the writes that create or decide something (issue 14; docs/decisions/0018):
 * routes declaring `config: { isIdempotent: true }` record the key in the write's own transaction
 * and its answer after commit; a repeat by the same user with the same body gets that answer
 * (`idempotent-replayed: true`) and changes nothing, and the same key with another body is a 422.
 * Keys live 24 hours in PostgreSQL, shared by every server process. Register before the routes.
 */
export function registerIdempotency(api: FastifyInstance, db: Database): void {
  api.decorateRequest('idempotencyClaim', null);
  api.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.isIdempotent) route.handler = idempotentHandler(db, route.handler);
  });
  api.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (claim?.state !== 'claimed') return payload;
    // Only an answer this process produced: a failure after commit leaves the key without an
    // answer, and a repeat is told so rather than shown a 500.
    if (reply.statusCode < 500 && typeof payload === 'string') {
      // The write has committed: failing to keep its answer must not turn it into a 500, which the
      // client would take for a failure and make again under a new key. A repeat is then told the
      // answer was lost (409), as after a crash at this point.
      try {
        await executeNamed(
          db,
          'idempotency_answer',
          sql`
          UPDATE idempotency_keys SET status_code = ${reply.statusCode}, response_body = ${payload}
          WHERE user_id = ${claim.userId} AND key = ${claim.key}`,
        );
      } catch (error) {
        request.log.error({ err: error }, 'could not keep the answer of an idempotent write');
      }
    }
    claim.state = 'closed';
    return payload;
  });
}
