import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { z } from 'zod';
import { repoRoot } from '../paths.ts';

/**
 * The archive `npm run backup` writes (docs/decisions/0017), a tar.gz of:
 *
 *   manifest.json                      this file's `BackupManifest`, first in the archive
 *   database/<schema>.<table>.copy     each table in PostgreSQL's COPY text format
 *   files/<organization id>/<name>     the local file store (DATA_DIR/files), byte for byte
 */
export const backupFormat = 'imprest-backup';
/** Raised when the layout changes; a restore refuses archives of a newer format. */
export const backupFormatVersion = 1;
export const manifestName = 'manifest.json';
export const databaseFolder = 'database';
export const filesFolder = 'files';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** A relative path with forward slashes that stays inside the folder it names. */
const archivePath = z
  .string()
  .min(1)
  .refine(
    (value) =>
      !value.startsWith('/') &&
      !value.includes('\\') &&
      !value.includes('\0') &&
      value.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    'an archive path must be relative, with no empty, "." or ".." part',
  );
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_$]*$/, 'an unquoted SQL identifier');

const manifestSchema = z.object({
  format: z.literal(backupFormat),
  format_version: z.number().int().positive(),
  app_version: z.string(),
  created_at: z.string(),
  database: z.object({
    server_version: z.string(),
    /** The rows of drizzle.__drizzle_migrations: the migration level of the data. */
    migrations: z.array(
      z.object({ id: z.number().int(), hash: z.string(), created_at: z.number().int() }),
    ),
    /** The tag of the newest migration (`0012_exchange_rate_changes`), for people. */
    migration_level: z.string(),
    tables: z.array(
      z.object({
        schema: identifier,
        name: identifier,
        columns: z.array(identifier).min(1),
        file: archivePath,
        rows: z.number().int().nonnegative(),
        bytes: z.number().int().nonnegative(),
        sha256: sha256Hex,
      }),
    ),
    sequences: z.array(
      z.object({
        schema: identifier,
        name: identifier,
        /** bigint as text. */
        last_value: z.string().regex(/^-?\d+$/),
        is_called: z.boolean(),
      }),
    ),
  }),
  files: z.object({
    /** `s3`: the files were in a bucket and are not in the archive. */
    store: z.enum(['local', 's3']),
    count: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    entries: z.array(
      z.object({
        /** Below `files/`, i.e. the store key `<organization id>/<name>`. */
        path: archivePath,
        size: z.number().int().nonnegative(),
        sha256: sha256Hex,
      }),
    ),
  }),
});

export type BackupManifest = z.infer<typeof manifestSchema>;
export type BackupTable = BackupManifest['database']['tables'][number];

/** Why a backup or restore would not run: said to the operator as is (exit code 2). */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

/** Progress and warnings for the operator; the CLI prints them, tests collect them. */
export type BackupLog = { info: (message: string) => void; warn: (message: string) => void };

export const silentLog: BackupLog = { info: () => undefined, warn: () => undefined };

/** Reads and checks a manifest; refuses what is not an Imprest backup this version can read. */
export function parseManifest(text: string, archive: string): BackupManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupRefused(`${archive} is not an Imprest backup: its manifest.json is not JSON.`);
  }
  const format = (json as { format?: unknown; format_version?: unknown } | null) ?? {};
  if (format.format !== backupFormat)
    throw new BackupRefused(
      `${archive} is not an Imprest backup: its manifest.json does not say "format": "${backupFormat}".`,
    );
  if (typeof format.format_version === 'number' && format.format_version > backupFormatVersion)
    throw new BackupRefused(
      `${archive} has backup format ${format.format_version}; this version of Imprest reads format ${backupFormatVersion} and older. Restore it with the version that made it or a newer one.`,
    );
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new BackupRefused(`${archive} has an invalid manifest.json (${problems.join('; ')}).`);
  }
  return parsed.data;
}

/** The SHA-256 (hex) and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * Every regular file below `root` as a path relative to it (forward slashes), sorted; folders
 * named in `skip` (relative paths) are left out. Anything else (a link, a socket) is reported.
 */
export async function listFiles(
  root: string,
  options: { skip?: string[]; onOther?: (relative: string) => void } = {},
): Promise<string[]> {
  const skip = new Set(options.skip ?? []);
  const found: string[] = [];
  async function walk(relative: string): Promise<void> {
    const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (skip.has(child)) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
      else options.onOther?.(child);
    }
  }
  const isDirectory = await fs
    .stat(root)
    .then((stat) => stat.isDirectory())
    .catch(() => false);
  if (isDirectory) await walk('');
  return found.sort();
}

/** Whether a path exists. */
export async function exists(target: string): Promise<boolean> {
  return fs
    .stat(target)
    .then(() => true)
    .catch(() => false);
}

/** A quoted SQL name `"schema"."name"`. */
export function qualifiedName(table: { schema: string; name: string }): string {
  return `${quoteIdentifier(table.schema)}.${quoteIdentifier(table.name)}`;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Session settings of both ends of a COPY, so dates, times and numbers are written and read in one
 * unambiguous form whatever the server's defaults are.
 */
export const copySettings = [
  "SET LOCAL DateStyle TO 'ISO, YMD'",
  "SET LOCAL IntervalStyle TO 'postgres'",
  "SET LOCAL TimeZone TO 'UTC'",
  'SET LOCAL extra_float_digits TO 3',
];

/** The application's version, from the root package.json. */
export async function appVersion(): Promise<string> {
  const file = path.join(repoRoot, 'package.json');
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as { version?: string };
  return json.version ?? 'unknown';
}

/** The server process of a connected client (pg keeps it from the start-up's BackendKeyData). */
function backendPid(client: pg.Client): number | null {
  return (client as pg.Client & { processID?: number | null }).processID ?? null;
}

/**
 * Cancels the statement `client` runs when `signal` aborts (`pg_cancel_backend` through a
 * connection of its own), so a long COPY or a wait for a lock ends at once and the transaction
 * rolls back as on any failure. Answers a function that stops listening.
 */
export function cancelOnAbort(
  client: pg.Client,
  url: string,
  signal: AbortSignal | undefined,
): () => void {
  if (!signal) return () => undefined;
  const onAbort = () => {
    const canceller = new pg.Client({ connectionString: url });
    void canceller
      .connect()
      .then(() => canceller.query('SELECT pg_cancel_backend($1)', [backendPid(client)]))
      .catch(() => undefined)
      .finally(() => void canceller.end().catch(() => undefined));
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
