import fastifyRateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  type RateLimitOptions,
} from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.ts';
import { AppError } from './errors.ts';

const minute = 60_000;

/*
 * Limits on calls that cost something before any session exists: an e-mail, an argon2 hash, a file
 * slot (the security issue, finding 5; docs/decisions/0012). Per address through
 * @fastify/rate-limit on the route, per account or user in the service. Generous for a person,
 * tight for a script.
 */
export const rateLimits = {
  /**
   * Sign-in hashes every attempt; failures are also slowed by the throttle (throttle.ts). Whole
   * offices sign in from one address at nine o'clock, so this only bounds the hashing a single
   * address can ask for (under one a second).
   */
  signInPerAddress: { max: 600, windowMs: 15 * minute },
  /** Each call sends an e-mail. */
  forgotPasswordPerAddress: { max: 10, windowMs: 15 * minute },
  forgotPasswordPerAccount: { max: 3, windowMs: 15 * minute },
  /** Each call hashes a password. */
  resetPerAddress: { max: 10, windowMs: 15 * minute },
  setupPerAddress: { max: 10, windowMs: 60 * minute },
  /** Upload policies a user may be given: each reserves a stored name and up to 20 MB. */
  uploadSlotsPerUser: { max: 100, windowMs: 60 * minute },
} as const;

export type Limit = { max: number; windowMs: number };

/**
 * Counts one hit of `key` in a fixed window and answers the count so far and the milliseconds
 * left: one upsert on an UNLOGGED table shared by every server process.
 */
export async function hitCounter(
  db: Executor,
  key: string,
  windowMs: number,
): Promise<{ current: number; ttl: number }> {
  const result = await db.execute<{ hits: number; ttl: string }>(sql`
    INSERT INTO rate_limit_counters AS c (key, hits, reset_at)
    VALUES (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.reset_at <= now() THEN 1 ELSE c.hits + 1 END,
      reset_at = CASE WHEN c.reset_at <= now() THEN excluded.reset_at ELSE c.reset_at END
    RETURNING hits, ceil(extract(epoch FROM reset_at - now()) * 1000) AS ttl`);
  const row = result.rows[0];
  // Now and then, forget windows that ended long ago, so the table stays small.
  if (Math.random() < 0.01) {
    await db.execute(
      sql`DELETE FROM rate_limit_counters WHERE reset_at < now() - interval '1 hour'`,
    );
  }
  return { current: Number(row?.hits ?? 1), ttl: Math.max(0, Number(row?.ttl ?? windowMs)) };
}

/** "8 seconds", "1 minute", "3 minutes": how long a refused caller waits, in words. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The 429 of every rate limit, in the error body of decisions §2, with Retry-After. */
export function tooManyRequests(ttlMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(
    'too_many_requests',
    `Too many requests. Please wait ${waitText(seconds)} and try again.`,
    { headers: { 'retry-after': String(seconds) } },
  );
}

/** Counts one hit of `key` and throws 429 past the limit (a per-account limit in a service). */
export async function assertWithinLimit(db: Executor, key: string, limit: Limit): Promise<void> {
  const { current, ttl } = await hitCounter(db, key, limit.windowMs);
  if (current > limit.max) throw tooManyRequests(ttl);
}

/** A @fastify/rate-limit store over `hitCounter`; each route counts under its own name. */
function postgresStore(db: Executor): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string;

    /** The plugin passes its options to the root store; a route's child passes its name. */
    constructor(scope?: unknown) {
      this.scope = typeof scope === 'string' ? scope : '';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
    ): void {
      hitCounter(db, `${this.scope}${key}`, timeWindow ?? minute).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      // The plugin hands a child its merged options, the route under `routeInfo`.
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new PostgresRateLimitStore(`${String(route?.method)} ${String(route?.url)}|`);
    }
  }
  return PostgresRateLimitStore;
}

/**
 * Registers @fastify/rate-limit with counters in PostgreSQL, shared by every process; routes opt
 * in with `config: { rateLimit: perAddress(...) }` or `perUser(...)`.
 */
export async function registerRateLimits(app: FastifyInstance, db: Executor): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    store: postgresStore(db),
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl),
  });
}

/** Route options of a limit per client address (the socket's, or TRUST_PROXY's). */
export function perAddress(limit: Limit): RateLimitOptions {
  return { max: limit.max, timeWindow: limit.windowMs, hook: 'onRequest' };
}

/** Route options of a limit per signed-in user, counted after authentication. */
export function perUser(limit: Limit): RateLimitOptions {
  return {
    max: limit.max,
    timeWindow: limit.windowMs,
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `user:${request.actor?.id ?? request.ip}`,
  };
}
