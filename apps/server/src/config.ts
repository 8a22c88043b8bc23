import path from 'node:path';
import { z } from 'zod';

/** Environment of decisions §1, read and validated once; `process.env` appears nowhere else. */
const environment = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
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
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ORG_TIMEZONE: z.string().default('Africa/Dar_es_Salaam'),
  IMPREST_DEMO: z.enum(['1', 'true', '0', 'false', '']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
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
  orgTimezone: string;
  isDemo: boolean;
  logLevel: string;
  /** Where the built web app lives; served when present. */
  webDist: string;
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
  const isDemo = e.IMPREST_DEMO === '1' || e.IMPREST_DEMO === 'true';
  const repoRoot = path.resolve(import.meta.dirname, '../../..');
  const dataDir = path.resolve(e.DATA_DIR ?? path.join(repoRoot, isDemo ? 'data/demo' : 'data'));
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
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
        }
      : null,
    jwtSecret: e.JWT_SECRET,
    orgTimezone: e.ORG_TIMEZONE,
    isDemo,
    logLevel: e.LOG_LEVEL,
    webDist: path.join(repoRoot, 'apps/web/dist'),
  };
}
