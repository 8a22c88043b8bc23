import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { defaultOrgTimezone } from '@imprest/domain/constants.ts';
import { z } from 'zod';
import { repoRoot } from './paths.ts';

/** Whether the runtime knows `zone` as a time zone (its dates are read in it). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Environment of decisions §1, read and validated once; `process.env` appears nowhere else. */
/** An on/off setting: `1` or `true` is on; `0`, `false`, empty or unset is off. */
const onOff = z
  .enum(['1', 'true', '0', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

const environment = z.object({
  // Empty (`PORT=` in an env file) is unset, as for the other settings: coerced, it was 0, a
  // random port nobody could find.
  PORT: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.coerce.number().int().min(0).max(65535).default(3000),
  ),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  APP_URL: z.string().url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('eu-west-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: onOff,
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  TRUST_PROXY: z.string().optional(),
  ORG_TIMEZONE: z
    .string()
    .default(defaultOrgTimezone)
    .refine(isTimeZone, 'ORG_TIMEZONE must be an IANA time zone such as Africa/Dar_es_Salaam'),
  IMPREST_DEMO: onOff,
  VERIFY_RESPONSES: onOff,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
  WEB_CONCURRENCY: z.string().optional(),
  DATABASE_POOL_SIZE: z.string().optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  appUrl: string;
  s3: {
    bucket: string;
    endpoint: string | undefined;
    region: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
  } | null;
  jwtSecret: string | undefined;
  /**
   * Which proxies' `X-Forwarded-For` to believe (decisions §1): none (the socket's address is the
   * client's), a hop count, or addresses and subnets (`proxy-addr` names such as `loopback` too).
   */
  trustProxy: false | number | string[];
  orgTimezone: string;
  isDemo: boolean;
  /**
   * Every answer also checked by its zod schema and against what zod would have written
   * (lib/response-serializer.ts): on in the tests and the browser tests' server, off by default.
   */
  verifyResponses: boolean;
  logLevel: string;
  /** Where the built web app lives; served when present. */
  webDist: string;
  /**
   * Server processes (WEB_CONCURRENCY): 1 runs one process as before; more run that many node:cluster
   * workers on one port behind a primary that owns the database set-up (docs/decisions/0016).
   */
  webConcurrency: number;
  /** Database connections per server process (DATABASE_POOL_SIZE); null: from the cores (server.ts). */
  databasePoolSize: number | null;
};

/** Reads the configuration from an environment (process.env by default). */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const isDemo = e.IMPREST_DEMO;
  const dataDir = path.resolve(e.DATA_DIR ?? path.join(repoRoot, isDemo ? 'data/demo' : 'data'));
  const webConcurrency = parseWebConcurrency(e.WEB_CONCURRENCY);
  // Without Redis each worker's socket.io rooms are its own: events and ended sessions would reach
  // only the sockets that happen to sit on the worker that raised them (docs/decisions/0016).
  if (webConcurrency > 1 && !e.REDIS_URL) {
    throw new Error(
      `Invalid configuration: WEB_CONCURRENCY: ${webConcurrency} processes need REDIS_URL, so that real-time events and ended sessions reach every process; set REDIS_URL or leave WEB_CONCURRENCY unset for one process`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    appUrl: e.APP_URL ?? `http://localhost:${e.PORT}`,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : null,
    jwtSecret: e.JWT_SECRET,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    orgTimezone: e.ORG_TIMEZONE,
    isDemo,
    verifyResponses: e.VERIFY_RESPONSES,
    logLevel: e.LOG_LEVEL,
    webDist: path.join(repoRoot, 'apps/web/dist'),
    webConcurrency,
    databasePoolSize: parseDatabasePoolSize(e.DATABASE_POOL_SIZE),
  };
}

/**
 * The most server processes WEB_CONCURRENCY may ask for. Each holds a pool of database connections
 * (at most 20 by default, docs/decisions/0031) and 3 for jobs: 16 hold at most 128, within the
 * embedded PostgreSQL's 200 (docs/decisions/0016).
 */
export const maxWebConcurrency = 16;

/**
 * `WEB_CONCURRENCY`: unset or empty is one process; a whole number from 1 to 16 is that many;
 * `auto` is one per core this process may use (`os.availableParallelism()`), at most 16.
 */
export function parseWebConcurrency(
  value: string | undefined,
  cores: number = os.availableParallelism(),
): number {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return 1;
  if (text === 'auto') return Math.max(1, Math.min(cores, maxWebConcurrency));
  const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(count >= 1 && count <= maxWebConcurrency)) {
    throw new Error(
      `Invalid configuration: WEB_CONCURRENCY: "${value}" is neither a number of server processes from 1 to ${maxWebConcurrency} nor auto`,
    );
  }
  return count;
}

/** `DATABASE_POOL_SIZE`: unset or empty leaves it to the cores (null); else 1 to 100 connections. */
export function parseDatabasePoolSize(value: string | undefined): number | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  const size = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(size >= 1 && size <= 100)) {
    throw new Error(
      `Invalid configuration: DATABASE_POOL_SIZE: "${value}" is not a number of database connections from 1 to 100`,
    );
  }
  return size;
}

const proxyNames = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: unset or empty trusts no proxy; a whole number trusts that many hops; otherwise a
 * comma-separated list of addresses, subnets (`10.0.0.0/8`) or proxy-addr names. `true` (trust
 * anyone) is refused: it would let every client choose its own address.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '') return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const isAddress = isIP(address ?? '') !== 0;
    const isPrefix = prefix === undefined || /^\d{1,3}$/.test(prefix);
    if (!(proxyNames.has(entry) || (isAddress && isPrefix && rest.length === 0))) {
      throw new Error(
        `Invalid configuration: TRUST_PROXY: "${entry}" is neither a hop count, an address, a subnet nor one of ${[...proxyNames].join(', ')}`,
      );
    }
  }
  return entries;
}
