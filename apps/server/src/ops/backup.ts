import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import * as tar from 'tar';
import { migrationLockKey, migrationsFolder } from '../db/client.ts';
import { copyOut } from './backup-copy.ts';
import {
  appVersion,
  backupFormat,
  backupFormatVersion,
  BackupRefused,
  cancelOnAbort,
  copySettings,
  databaseFolder,
  exists,
  filesFolder,
  hashFile,
  listFiles,
  manifestName,
  qualifiedName,
  quoteIdentifier,
  silentLog,
  type BackupLog,
  type BackupManifest,
  type BackupTable,
} from './backup-format.ts';

/** The schemas whose tables a backup holds: the application's and drizzle's migration record. */
export const backedUpSchemas = ['public', 'drizzle'];

/** Where the local store keeps uploads in flight (features/files/routes.ts): never backed up. */
const incomingFolder = '.incoming';

/** node-tar's record of the files it has packed by inode, kept empty: no entry is a hard link. */
const neverLinked = {
  get: () => undefined,
  set: () => neverLinked,
} as unknown as Map<`${number}:${number}`, string>;

/** Whether `file` is `folder` or lies below it, links resolved where they exist. */
async function isInside(file: string, folder: string): Promise<boolean> {
  const real = async (target: string): Promise<string> => {
    const resolved = path.resolve(target);
    const parent = path.dirname(resolved);
    const found = await fs.realpath(resolved).catch(() => null);
    if (found) return found;
    return parent === resolved ? resolved : path.join(await real(parent), path.basename(resolved));
  };
  const relative = path.relative(await real(folder), await real(file));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export type BackupSummary = {
  file: string;
  /** Size of the archive. */
  bytes: number;
  manifest: BackupManifest;
  seconds: number;
};

/** The tables of the backed-up schemas with their columns in order (generated ones left out). */
export async function listTables(
  client: pg.ClientBase,
): Promise<{ schema: string; name: string; columns: string[] }[]> {
  const result = await client.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                        AND a.attgenerated = ''
     WHERE c.relkind = 'r' AND NOT c.relispartition AND n.nspname = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_depend d
                       WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
     GROUP BY n.nspname, c.relname
     ORDER BY n.nspname, c.relname`,
    [backedUpSchemas],
  );
  return result.rows;
}

/** The sequences of the backed-up schemas. */
export async function listSequences(
  client: pg.ClientBase,
): Promise<{ schema: string; name: string }[]> {
  const result = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname AS schema, c.relname AS name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'S' AND n.nspname = ANY($1::text[])
     ORDER BY n.nspname, c.relname`,
    [backedUpSchemas],
  );
  return result.rows;
}

/** The tags of the committed migrations by their `when` (drizzle's created_at). */
export async function migrationTags(): Promise<Map<number, string>> {
  const journal = JSON.parse(
    await fs.readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
  ) as { entries: { when: number; tag: string }[] };
  return new Map(journal.entries.map((entry) => [entry.when, entry.tag]));
}

/** A write stream that also counts and hashes what goes through it. */
function hashingSink(): {
  sink: Transform;
  result: () => { sha256: string; bytes: number };
} {
  const hash = createHash('sha256');
  let bytes = 0;
  const sink = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  return { sink, result: () => ({ sha256: hash.digest('hex'), bytes }) };
}

/**
 * Copies every table of the backed-up schemas into `folder` in one REPEATABLE READ snapshot, so a
 * running server may go on writing: the archive is the database as of one instant.
 */
async function dumpDatabase(
  client: pg.ClientBase,
  folder: string,
  log: BackupLog,
  signal: AbortSignal | undefined,
): Promise<BackupManifest['database']> {
  // Migrations hold this lock while they run (db/client.ts): a server starting meanwhile waits
  // for the copy, and the copy for its migrations, so the tables listed (from the live catalog)
  // and the migrations recorded (from the snapshot) always agree. Taken before BEGIN, so the
  // snapshot is not older than the lock.
  await client.query('SELECT pg_advisory_lock_shared($1)', [migrationLockKey]);
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    for (const statement of copySettings) await client.query(statement);
    const migrationsTable = await client.query<{ found: string | null }>(
      `SELECT to_regclass('drizzle.__drizzle_migrations')::text AS found`,
    );
    if (!migrationsTable.rows[0]?.found)
      throw new BackupRefused(
        'The database holds no Imprest data (no drizzle.__drizzle_migrations table): nothing to back up.',
      );
    const migrations = (
      await client.query<{ id: number; hash: string; created_at: string }>(
        'SELECT id, hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY id',
      )
    ).rows.map((row) => ({ id: row.id, hash: row.hash, created_at: Number(row.created_at) }));
    const tags = await migrationTags();
    const newest = migrations.at(-1);
    const level = newest ? (tags.get(newest.created_at) ?? `unknown (${newest.created_at})`) : '';
    if (newest && !tags.has(newest.created_at))
      log.warn(
        `The database is at a migration this version of Imprest does not know (${newest.created_at}); restore this archive with a version that does.`,
      );
    const tables: BackupTable[] = [];
    await fs.mkdir(path.join(folder, databaseFolder), { recursive: true });
    for (const table of await listTables(client)) {
      signal?.throwIfAborted();
      const file = `${databaseFolder}/${table.schema}.${table.name}.copy`;
      const { sink, result } = hashingSink();
      const writing = pipeline(sink, createWriteStream(path.join(folder, file), { mode: 0o600 }));
      const columns = table.columns.map(quoteIdentifier).join(', ');
      const [rows] = await Promise.all([
        copyOut(client, `COPY ${qualifiedName(table)} (${columns}) TO STDOUT`, sink),
        writing,
      ]);
      tables.push({ ...table, file, rows, ...result() });
    }
    const sequences: BackupManifest['database']['sequences'] = [];
    for (const sequence of await listSequences(client)) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value::text AS last_value, is_called FROM ${qualifiedName(sequence)}`,
      );
      const [state] = rows;
      if (state) sequences.push({ ...sequence, ...state });
    }
    const version = await client.query<{ server_version: string }>('SHOW server_version');
    await client.query('COMMIT');
    return {
      server_version: version.rows[0]?.server_version ?? 'unknown',
      migrations,
      migration_level: level,
      tables,
      sequences,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client
      .query('SELECT pg_advisory_unlock_shared($1)', [migrationLockKey])
      .catch(() => undefined);
  }
}

/** The default archive name, e.g. `imprest-backup-20260315-221500.tar.gz` (UTC). */
export function defaultBackupName(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replaceAll('-', '')
    .replaceAll(':', '')
    .replace('T', '-');
  return `imprest-backup-${stamp}.tar.gz`;
}

/**
 * Writes one tar.gz with the database (every table of the application and the migration level, as
 * COPY text, in one snapshot) and the local files (`filesDir`, i.e. DATA_DIR/files; null when the
 * files live in S3, which the archive then leaves to the bucket's own backups). The archive holds
 * the JWT key and password hashes, so it is written readable by its owner only (0600), and
 * atomically: a failed backup leaves no file behind.
 */
export async function createBackup(options: {
  databaseUrl: string;
  filesDir: string | null;
  output: string;
  log?: BackupLog;
  /** Aborted (Ctrl-C, SIGTERM): the backup stops where it is and leaves nothing behind. */
  signal?: AbortSignal;
}): Promise<BackupSummary> {
  const { signal } = options;
  const log = options.log ?? silentLog;
  const started = performance.now();
  const output = path.resolve(options.output);
  if (await exists(output))
    throw new BackupRefused(`${output} already exists; name another file or move it away.`);
  if (options.filesDir && (await isInside(output, options.filesDir)))
    throw new BackupRefused(
      `${output} is inside the files folder (${path.resolve(options.filesDir)}), which the archive packs: write it somewhere else.`,
    );
  await fs.mkdir(path.dirname(output), { recursive: true });
  const partial = `${output}.partial`;
  const staging = await fs.mkdtemp(path.join(path.dirname(output), '.imprest-backup-'));
  const client = new pg.Client({ connectionString: options.databaseUrl });
  let stopCancelling = () => undefined as void;
  try {
    await client.connect();
    stopCancelling = cancelOnAbort(client, options.databaseUrl, signal);
    const database = await dumpDatabase(client, staging, log, signal);
    signal?.throwIfAborted();
    const rows = database.tables.reduce((sum, table) => sum + table.rows, 0);
    log.info(
      `database: ${database.tables.length} tables, ${rows} rows (${database.migration_level})`,
    );

    // Files after the database: every file a row of the snapshot names was complete before it.
    const entries: BackupManifest['files']['entries'] = [];
    if (options.filesDir) {
      const filesDir = options.filesDir;
      const found = await listFiles(filesDir, {
        skip: [incomingFolder],
        onOther: (relative) => log.warn(`skipped ${relative} in ${filesDir}: not a regular file`),
      });
      for (const relative of found)
        entries.push({ path: relative, ...(await hashFile(path.join(filesDir, relative))) });
      // node-tar archives paths relative to one folder: the staging folder, where files/ is a
      // link to the store that `follow` packs as the files it points to.
      if (entries.length > 0)
        await fs.symlink(path.resolve(filesDir), path.join(staging, filesFolder), 'junction');
    } else {
      log.warn(
        'Files are in S3 (S3_BUCKET) and are not in this archive: back the bucket up with its own tools (versioning, replication or `aws s3 sync`).',
      );
    }
    const fileBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
    log.info(`files: ${entries.length} (${fileBytes} bytes)`);

    const manifest: BackupManifest = {
      format: backupFormat,
      format_version: backupFormatVersion,
      app_version: await appVersion(),
      created_at: new Date().toISOString(),
      database,
      files: {
        store: options.filesDir ? 'local' : 's3',
        count: entries.length,
        bytes: fileBytes,
        entries,
      },
    };
    await fs.writeFile(path.join(staging, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    signal?.throwIfAborted();
    await pipeline(
      tar.create(
        {
          cwd: staging,
          gzip: true,
          portable: true,
          follow: true,
          strict: true,
          // Every file as a file of its own: a store whose duplicates were hard-linked (rdfind,
          // hardlink) would otherwise be packed as tar links, which a restore refuses.
          linkCache: neverLinked,
        },
        [
          manifestName,
          ...database.tables.map((table) => table.file),
          ...entries.map((entry) => `${filesFolder}/${entry.path}`),
        ],
      ),
      createWriteStream(partial, { mode: 0o600 }),
      { signal },
    );
    await fs.rename(partial, output);
    const { size } = await fs.stat(output);
    return {
      file: output,
      bytes: size,
      manifest,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    stopCancelling();
    await client.end().catch(() => undefined);
    await fs.rm(staging, { recursive: true, force: true });
  }
}
