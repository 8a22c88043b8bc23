import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import pg from 'pg';
import PgBoss from 'pg-boss';
import * as tar from 'tar';
import { migrationLockKey, migrationsFolder } from '../db/client.ts';
import { installJobQueues } from '../features/jobs/worker.ts';
import { jobSchema } from '../lib/job-queue.ts';
import { emailQueue } from '../lib/mailer.ts';
import { backedUpSchemas, listSequences, listTables, migrationTags } from './backup.ts';
import { copyIn } from './backup-copy.ts';
import { checkDerivedFigures } from './restore-figures.ts';
import {
  BackupRefused,
  cancelOnAbort,
  copySettings,
  exists,
  filesFolder,
  listFiles,
  manifestName,
  parseManifest,
  qualifiedName,
  quoteIdentifier,
  silentLog,
  type BackupLog,
  type BackupManifest,
  type BackupTable,
} from './backup-format.ts';

/** The database a restore writes to, opened only once the archive has been checked. */
export type RestoreTarget = {
  url: string;
  /** Called once, with whether the restore succeeded (a cluster made for it is removed if not). */
  close: (isRestored: boolean) => Promise<void>;
};

export type RestoreSummary = {
  manifest: BackupManifest;
  rows: number;
  /** Outbox rows not yet sent, each given its send-email job again. */
  emailJobs: number;
  /** Derived figures that did not match their rows in the archive and were recomputed. */
  repaired: string[];
  seconds: number;
};

/** An entry's path without the `./` that `tar czf x.tar.gz ./…` puts in front. */
function normalEntryPath(entryPath: string): string {
  return entryPath.replace(/^(\.\/)+/, '');
}

/**
 * Reads the whole archive once without writing anything: it must decompress and parse cleanly,
 * hold a manifest of this format, every file the manifest lists with its checksum, nothing
 * unlisted, and no link or special file. Only then is anything unpacked.
 */
async function checkArchive(archive: string): Promise<BackupManifest> {
  let manifestText: string | undefined;
  const found = new Map<string, { sha256: string; size: number }>();
  const odd: string[] = [];
  try {
    await tar.list({
      file: archive,
      strict: true,
      onReadEntry: (entry) => {
        const entryPath = normalEntryPath(entry.path);
        if (entry.type === 'Directory') return;
        if (entry.type !== 'File' && entry.type !== 'OldFile') {
          odd.push(entryPath);
          return;
        }
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        entry.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          size += chunk.length;
          if (entryPath === manifestName) chunks.push(chunk);
        });
        entry.on('end', () => {
          if (entryPath === manifestName) manifestText = Buffer.concat(chunks).toString('utf8');
          else found.set(entryPath, { sha256: hash.digest('hex'), size });
        });
      },
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BackupRefused(
      `${archive} could not be read as a tar.gz archive (${reason}): it is damaged or not an Imprest backup.`,
    );
  }
  if (odd.length > 0)
    throw new BackupRefused(
      `${archive} is not an Imprest backup: ${odd[0]} is a link or a special file.`,
    );
  if (manifestText === undefined)
    throw new BackupRefused(`${archive} is not an Imprest backup: it has no ${manifestName}.`);
  const manifest = parseManifest(manifestText, archive);
  const listed = archivedFiles(manifest);
  for (const file of found.keys()) {
    if (!listed.has(file))
      throw new BackupRefused(
        `${archive} holds ${file}, which its manifest does not list: it is not an Imprest backup as written.`,
      );
  }
  for (const [file, expected] of listed) {
    const actual = found.get(file);
    if (!actual)
      throw new BackupRefused(
        `${archive} is incomplete: ${file}, listed in its manifest, is missing.`,
      );
    if (actual.sha256 !== expected.sha256 || actual.size !== expected.size)
      throw new BackupRefused(
        `${archive} is damaged: ${file} does not match its checksum in the manifest.`,
      );
  }
  return manifest;
}

/** The files of an archive besides its manifest, by path, with what the manifest says of them. */
function archivedFiles(manifest: BackupManifest): Map<string, { sha256: string; size: number }> {
  const listed = new Map<string, { sha256: string; size: number }>();
  for (const table of manifest.database.tables)
    listed.set(table.file, { sha256: table.sha256, size: table.bytes });
  for (const entry of manifest.files.entries) listed.set(`${filesFolder}/${entry.path}`, entry);
  return listed;
}

/** Unpacks a checked archive into `staging` and makes sure every listed file arrived whole. */
async function unpackArchive(
  archive: string,
  staging: string,
  manifest: BackupManifest,
): Promise<void> {
  const listed = archivedFiles(manifest);
  await tar.extract({
    file: archive,
    cwd: staging,
    strict: true,
    preserveOwner: false,
    filter: (entryPath) => listed.has(normalEntryPath(entryPath)),
  });
  for (const [file, expected] of listed) {
    const stat = await fs.stat(path.join(staging, file)).catch(() => null);
    if (stat?.size !== expected.size)
      throw new Error(`${file} did not unpack whole from ${archive}; was the archive replaced?`);
  }
}

/** The committed migrations to replay: exactly those the archive's data was at, or a refusal. */
async function migrationsToReplay(
  manifest: BackupManifest,
  archive: string,
): Promise<MigrationMeta[]> {
  const local = readMigrationFiles({ migrationsFolder });
  const archived = manifest.database.migrations;
  const known = archived.every(
    (migration, index) => local[index]?.folderMillis === migration.created_at,
  );
  if (!known) {
    const tags = await migrationTags();
    const newest = local.at(-1);
    throw new BackupRefused(
      `${archive} was made at migration ${manifest.database.migration_level} by Imprest ${manifest.app_version}; this version of Imprest does not have that migration (its newest is ${newest ? tags.get(newest.folderMillis) : 'none'}). Restore it with the version that made it, or a newer one.`,
    );
  }
  return local.slice(0, archived.length);
}

/** Refuses a database that holds any table, view or sequence of its own (extensions' aside). */
async function refuseNonEmptyDatabase(client: pg.ClientBase, url: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema')
       AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d
                       WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
     ORDER BY n.nspname <> 'public', 1 LIMIT 4`,
  );
  if (rows.length === 0) return;
  const where = new URL(url);
  where.password = '';
  const names = rows.slice(0, 3).map((row) => row.name);
  if (rows.length > 3) names.push('…');
  throw new BackupRefused(
    `The target database ${where.host}${where.pathname} is not empty (it holds ${names.join(', ')}). Restore only into an empty database or an empty DATA_DIR; nothing was changed.`,
  );
}

/** Tables in an order where every table comes after the tables its foreign keys point to. */
async function foreignKeyOrder(
  client: pg.ClientBase,
  tables: BackupTable[],
): Promise<BackupTable[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT cn.nspname || '.' || cl.relname AS child, pn.nspname || '.' || pl.relname AS parent
     FROM pg_constraint k
     JOIN pg_class cl ON cl.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = cl.relnamespace
     JOIN pg_class pl ON pl.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = pl.relnamespace
     WHERE k.contype = 'f' AND cn.nspname = ANY($1::text[])`,
    [backedUpSchemas],
  );
  const key = (table: BackupTable) => `${table.schema}.${table.name}`;
  const parents = new Map(tables.map((table) => [key(table), new Set<string>()]));
  for (const row of rows)
    if (row.child !== row.parent && parents.has(row.parent))
      parents.get(row.child)?.add(row.parent);
  const ordered: BackupTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (table) =>
        !placed.has(key(table)) &&
        [...(parents.get(key(table)) ?? [])].every((parent) => placed.has(parent)),
    );
    if (ready.length === 0) throw new Error('the foreign keys of the restored tables form a cycle');
    for (const table of ready) {
      ordered.push(table);
      placed.add(key(table));
    }
  }
  return ordered;
}

/**
 * pg-boss's jobs are not in the archive (docs/decisions/0017): queues and schedules are made by
 * every server start, and the only jobs that matter, one per unsent e-mail, are made again here
 * from the outbox, with the outbox row's id as before (lib/mailer.ts).
 */
async function queueUnsentEmails(client: pg.ClientBase): Promise<number> {
  const outbox = await client.query<{ found: string | null }>(
    `SELECT to_regclass('public.email_outbox')::text AS found`,
  );
  if (!outbox.rows[0]?.found) return 0;
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM email_outbox WHERE status IN ('queued', 'sending') ORDER BY created_at, id`,
  );
  const db: PgBoss.Db = {
    executeSql: async (text, values) => ({ rows: (await client.query(text, values)).rows }),
  };
  const writer = new PgBoss({ schema: jobSchema, db });
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    await writer.insert(
      chunk.map((row) => ({ id: row.id, name: emailQueue, data: { id: row.id } })),
      { db },
    );
  }
  return rows.length;
}

/**
 * In one transaction: the migrations up to the archive's level, every table by COPY with user
 * triggers off (the rows already hold what the ledger and count triggers would add again), the
 * sequences, the count and ledger checks, the e-mail jobs, and the files moved into place just
 * before COMMIT (moved back if it fails).
 */
async function loadDatabase(options: {
  client: pg.ClientBase;
  manifest: BackupManifest;
  replay: MigrationMeta[];
  staging: string;
  filesDir: string;
  log: BackupLog;
  signal: AbortSignal | undefined;
}): Promise<{ rows: number; emailJobs: number; repaired: string[] }> {
  const { client, manifest, staging, filesDir, log } = options;
  const stagedFiles = path.join(staging, filesFolder);
  /** The staged files' top-level entries moved into the files folder so far. */
  const moved: string[] = [];
  await client.query('BEGIN');
  try {
    // A server starting meanwhile waits for the restore before it migrates.
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    for (const statement of copySettings) await client.query(statement);
    if ((await listTables(client)).length > 0)
      throw new BackupRefused('The target database was written to meanwhile; nothing was changed.');
    // What drizzle's migrator creates and fills (drizzle-orm pg-core dialect `migrate`).
    await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
    await client.query(
      'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
    );
    for (const migration of options.replay)
      for (const statement of migration.sql) if (statement.trim()) await client.query(statement);

    const made = await listTables(client);
    const describe = (table: { schema: string; name: string }) => `${table.schema}.${table.name}`;
    const archived = new Map(manifest.database.tables.map((table) => [describe(table), table]));
    for (const table of made) {
      const kept = archived.get(describe(table));
      if (!kept)
        throw new BackupRefused(
          `The archive has no data for ${describe(table)}, which migration ${manifest.database.migration_level} creates: it is not a complete Imprest backup.`,
        );
      if ([...kept.columns].sort().join() !== [...table.columns].sort().join())
        throw new BackupRefused(
          `The archive's columns of ${describe(table)} differ from those of migration ${manifest.database.migration_level}.`,
        );
      archived.delete(describe(table));
    }
    const [extra] = archived.keys();
    if (extra)
      throw new BackupRefused(
        `The archive holds ${extra}, which migration ${manifest.database.migration_level} does not create.`,
      );

    const tables = await foreignKeyOrder(client, manifest.database.tables);
    const names = tables.map(qualifiedName);
    for (const name of names) await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    // A migration that seeds rows would seed what the archive holds too: the archive's rows win.
    const seeded: string[] = [];
    for (const name of names) {
      const { rows } = await client.query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${name}) AS found`,
      );
      if (rows[0]?.found) seeded.push(name);
    }
    if (seeded.length > 0) await client.query(`TRUNCATE ${seeded.join(', ')}`);
    let rows = 0;
    for (const table of tables) {
      options.signal?.throwIfAborted();
      const columns = table.columns.map(quoteIdentifier).join(', ');
      const copied = await copyIn(
        client,
        `COPY ${qualifiedName(table)} (${columns}) FROM STDIN`,
        createReadStream(path.join(staging, table.file)),
      );
      if (copied !== table.rows)
        throw new BackupRefused(
          `${table.file} gave ${copied} rows where the manifest says ${table.rows}.`,
        );
      rows += copied;
    }
    for (const name of names) await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);

    const sequences = new Set((await listSequences(client)).map(describe));
    for (const sequence of manifest.database.sequences) {
      if (!sequences.has(describe(sequence)))
        throw new BackupRefused(
          `The archive's sequence ${describe(sequence)} does not exist here.`,
        );
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        qualifiedName(sequence),
        sequence.last_value,
        sequence.is_called,
      ]);
    }
    // Counted again as stored, whatever COPY reported.
    for (const table of tables) {
      const { rows: counted } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${qualifiedName(table)}`,
      );
      if (counted[0]?.n !== table.rows)
        throw new Error(`${describe(table)} holds ${counted[0]?.n} rows, not ${table.rows}`);
    }
    const repaired = await checkDerivedFigures(client);
    for (const figure of repaired)
      log.warn(`${figure} did not match the rows in the archive and were recomputed.`);
    const emailJobs = await queueUnsentEmails(client);

    options.signal?.throwIfAborted();
    if (await exists(stagedFiles)) {
      // Into the folder that is there, which may be a link to another disk or a mount point (a
      // container's volume): the folder itself stays. Only empty folders can be in it (checked
      // first), and each gives way to the staged tree of the same name.
      await fs.mkdir(filesDir, { recursive: true });
      for (const name of await fs.readdir(stagedFiles)) {
        await fs.rm(path.join(filesDir, name), { recursive: true, force: true });
        await moveTree(path.join(stagedFiles, name), path.join(filesDir, name));
        moved.push(name);
      }
    }
    await client.query('COMMIT');
    return { rows, emailJobs, repaired };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    for (const name of moved)
      await moveTree(path.join(filesDir, name), path.join(stagedFiles, name)).catch(
        () => undefined,
      );
    throw error;
  }
}

/** Moves a file tree, copying it where it crosses to another file system (rename's EXDEV). */
async function moveTree(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await fs.cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await fs.rm(from, { recursive: true, force: true });
  }
}

/**
 * Restores an archive of `createBackup` into an empty target: the files into `dataDir/files`
 * (absent or without files), the database into `openDatabase()`'s (without tables). The archive
 * is read and checked whole before anything is written, then unpacked into `dataDir` before the
 * database is opened; every refusal and every failure leaves the target as it was.
 */
export async function restoreBackup(options: {
  archive: string;
  dataDir: string;
  openDatabase: () => Promise<RestoreTarget>;
  log?: BackupLog;
  /** Aborted (Ctrl-C, SIGTERM): the restore stops where it is and leaves the target as it was. */
  signal?: AbortSignal;
}): Promise<RestoreSummary> {
  const { signal } = options;
  const log = options.log ?? silentLog;
  const started = performance.now();
  const archive = path.resolve(options.archive);
  const dataDir = path.resolve(options.dataDir);
  const filesDir = path.join(dataDir, filesFolder);
  if (!(await exists(archive))) throw new BackupRefused(`${archive} does not exist.`);
  const present = await listFiles(filesDir);
  if (present.length > 0)
    throw new BackupRefused(
      `${filesDir} is not empty (${present.length} file(s), e.g. ${present[0]}). Restore only into an empty DATA_DIR; nothing was changed.`,
    );
  const manifest = await checkArchive(archive);
  const replay = await migrationsToReplay(manifest, archive);
  log.info(
    `archive: Imprest ${manifest.app_version}, made ${manifest.created_at}, migration ${manifest.database.migration_level}`,
  );
  if (manifest.files.store === 's3')
    log.warn(
      'The archive holds no files: they were in S3 when it was made. The bucket must be restored on its own.',
    );
  const hadDataDir = await exists(dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  const staging = await fs.mkdtemp(path.join(dataDir, '.imprest-restore-'));
  let target: RestoreTarget | undefined;
  let isRestored = false;
  try {
    await unpackArchive(archive, staging, manifest);
    signal?.throwIfAborted();
    target = await options.openDatabase();
    signal?.throwIfAborted();
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    const stopCancelling = cancelOnAbort(client, target.url, signal);
    let hadJobSchema = true;
    try {
      await refuseNonEmptyDatabase(client, target.url);
      const schema = await client.query<{ found: string | null }>(
        `SELECT to_regnamespace($1)::text AS found`,
        [jobSchema],
      );
      hadJobSchema = Boolean(schema.rows[0]?.found);
      await installJobQueues(target.url);
      signal?.throwIfAborted();
      const loaded = await loadDatabase({
        client,
        manifest,
        replay,
        staging,
        filesDir,
        log,
        signal,
      });
      isRestored = true;
      // Fresh statistics for the planner, rather than waiting for autovacuum to notice the load.
      await client.query('ANALYZE').catch(() => undefined);
      return {
        manifest,
        ...loaded,
        seconds: (performance.now() - started) / 1000,
      };
    } finally {
      stopCancelling();
      if (!isRestored && !hadJobSchema)
        await client
          .query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(jobSchema)} CASCADE`)
          .catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  } finally {
    await target?.close(isRestored);
    // Retried: a failed unpack may still be closing its last files.
    await fs.rm(staging, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    if (!isRestored && !hadDataDir) await fs.rmdir(dataDir).catch(() => undefined);
  }
}
