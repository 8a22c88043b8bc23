import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseUrl } from '../../test/global-setup.ts';
import { buildApp } from '../app.ts';
import { readConfig } from '../config.ts';
import { connect, migrationLockKey, type Database } from '../db/client.ts';
import { demoPassword, seedDemo } from '../demo/seed.ts';
import { queueEmail } from '../lib/mailer.ts';
import { loadJwtKey } from '../lib/secrets.ts';
import { repoRoot } from '../paths.ts';
import { createEventBus } from '../realtime/events.ts';
import { createBackup } from './backup.ts';
import { copyIn, copyOut } from './backup-copy.ts';
import {
  BackupRefused,
  exists,
  hashFile,
  listFiles,
  manifestName,
  parseManifest,
  type BackupManifest,
} from './backup-format.ts';
import { restoreBackup, type RestoreTarget } from './restore.ts';

// Real PostgreSQL throughout: the embedded server of the first CI pass, DATABASE_URL's in the second.
const adminUrl = inject('adminUrl');
const run = `${inject('templateDatabase').split('_').pop()}_${randomBytes(4).toString('hex')}`;
const root = path.resolve(import.meta.dirname, '../../../../.tmp/test-data', `backup-${run}`);
const databases: string[] = [];

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withClient(adminUrl, work);
}

/** A database named for this run (global-setup drops leftovers): a template clone, or empty. */
async function createDatabase(options: { isEmpty: boolean }): Promise<string> {
  const name = `imprest_test_${run}_${databases.length}`;
  databases.push(name);
  await admin(async (client) => {
    if (options.isEmpty) {
      await client.query(`CREATE DATABASE "${name}"`);
      return;
    }
    // Other test files clone the template at the same time; PostgreSQL refuses concurrent clones.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDatabase')}"`);
        return;
      } catch (error) {
        if (attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  return databaseUrl(adminUrl, name);
}

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  return withClient(url, async (client) => (await client.query<R>(text)).rows);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Every table of the application and of drizzle's migration record (read from
 * information_schema, not from the code under test) as its row count and the md5 of its rows'
 * text in order, and every sequence's position.
 */
async function fingerprint(url: string): Promise<Record<string, string>> {
  return withClient(url, async (client) => {
    const tables = await client.query<{ name: string }>(
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
       WHERE table_schema IN ('public', 'drizzle') AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const sequences = await client.query<{ name: string }>(
      `SELECT format('%I.%I', sequence_schema, sequence_name) AS name
       FROM information_schema.sequences WHERE sequence_schema IN ('public', 'drizzle') ORDER BY 1`,
    );
    const result: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ rows: number; md5: string }>(
        `SELECT count(*)::int AS rows,
                md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS md5
         FROM ${name} t`,
      );
      result[name] = `${rows[0]?.rows} rows, md5 ${rows[0]?.md5}`;
    }
    for (const { name } of sequences.rows) {
      const { rows } = await client.query<{ state: string }>(
        `SELECT last_value || ' ' || is_called AS state FROM ${name}`,
      );
      result[name] = `sequence ${rows[0]?.state}`;
    }
    return result;
  });
}

/** The relations a database holds outside the system schemas (extensions' aside). */
async function relations(url: string): Promise<string[]> {
  const rows = await query<{ name: string }>(
    url,
    `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                       AND d.objid = c.oid AND d.deptype = 'e')`,
  );
  return rows.map((row) => row.name);
}

/** Each stored file's SHA-256 by its path below `folder`. */
async function fileDigests(folder: string): Promise<Record<string, string>> {
  const digests: Record<string, string> = {};
  for (const file of await listFiles(folder))
    digests[file] = (await hashFile(path.join(folder, file))).sha256;
  return digests;
}

function target(url: string): () => Promise<RestoreTarget> {
  return async () => ({ url, close: async () => undefined });
}

/** `npm run backup|restore` as npm runs it (scripts/*.mjs), with only the environment given. */
function cli(script: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(repoRoot, `scripts/${script}.mjs`), ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), INIT_CWD: root, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { exited, output: () => output, kill: (signal: NodeJS.Signals) => child.kill(signal) };
}

/** Waits until a session of `client`'s database waits for a lock `lockWhere` describes. */
async function untilSomeoneWaits(client: pg.Client, lockWhere: string, parameter: unknown) {
  await expect
    .poll(
      async () =>
        (
          await client.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND ${lockWhere}`,
            [parameter],
          )
        ).rows[0]?.waiting,
      { timeout: 30_000, interval: 100 },
    )
    .toBe(1);
}

async function appOn(db: Database, dataDir: string) {
  const config = {
    ...readConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
    webDist: '/nonexistent',
  };
  // As startServer does: the JWT key is the one kept in the database (JWT_SECRET unset).
  const jwtKey = await loadJwtKey(db, config.jwtSecret);
  const app = await buildApp({ config, db, jwtKey, events: createEventBus() }, { logger: false });
  await app.ready();
  return { app, jwtKey };
}

async function signIn(app: Awaited<ReturnType<typeof appOn>>['app'], email: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/users/authenticate',
    payload: { email, password: demoPassword },
    remoteAddress: `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as { token: string }).token;
}

/** Unpacks an archive, lets `edit` change its folder, and packs it again as another archive. */
async function repack(
  archive: string,
  name: string,
  edit: (folder: string, manifest: BackupManifest) => Promise<BackupManifest | void>,
): Promise<string> {
  const folder = path.join(root, `repack-${name}`);
  await fs.mkdir(folder, { recursive: true });
  await tar.extract({ file: archive, cwd: folder });
  const manifestFile = path.join(folder, manifestName);
  const manifest = parseManifest(await fs.readFile(manifestFile, 'utf8'), archive);
  const edited = await edit(folder, manifest);
  if (edited) await fs.writeFile(manifestFile, JSON.stringify(edited));
  const output = path.join(root, `${name}.tar.gz`);
  const entries = (await listFiles(folder)).filter((file) => file !== manifestName);
  await tar.create({ file: output, cwd: folder, gzip: true }, [manifestName, ...entries]);
  return output;
}

let sourceUrl: string;
let dataDir: string;
let archive: string;
let manifest: BackupManifest;
let before: Record<string, string>;
let filesBefore: Record<string, string>;
let jwtKeyBefore: Uint8Array;
let tokenBefore: string;
let queuedEmailId: string;

beforeAll(async () => {
  sourceUrl = await createDatabase({ isEmpty: false });
  dataDir = path.join(root, 'data');
  const db = connect(sourceUrl, { max: 4 });
  try {
    expect(await seedDemo(db, { dataDir })).toBe(true);
    // Not yet sent when the backup is made: the restore must queue it again.
    queuedEmailId = await queueEmail(db, {
      organizationId: null,
      to: 'someone@example.com',
      subject: 'Queued before the backup',
      body: 'Still to be sent.',
    });
    const { app, jwtKey } = await appOn(db, dataDir);
    jwtKeyBefore = jwtKey;
    tokenBefore = await signIn(app, 'director@example.com');
    await app.close();
  } finally {
    await db.$client.end();
  }
  before = await fingerprint(sourceUrl);
  filesBefore = await fileDigests(path.join(dataDir, 'files'));
  archive = path.join(root, 'demo.tar.gz');
  const backup = await createBackup({
    databaseUrl: sourceUrl,
    filesDir: path.join(dataDir, 'files'),
    output: archive,
  });
  manifest = backup.manifest;
});

afterAll(async () => {
  await admin(async (client) => {
    for (const name of databases)
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
  await fs.rm(root, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('writes one archive whose manifest counts every table and file', async () => {
    const { mode } = await fs.stat(archive);
    expect(mode & 0o777).toBe(0o600);
    const listed = new Map<string, number>();
    await tar.list({ file: archive, onReadEntry: (entry) => listed.set(entry.path, entry.size) });
    expect([...listed.keys()][0]).toBe(manifestName);
    expect(manifest.format_version).toBe(1);
    expect(manifest.database.migration_level).toMatch(/^\d{4}_/);
    for (const table of manifest.database.tables) {
      expect(before[`${table.schema}.${table.name}`]).toMatch(new RegExp(`^${table.rows} rows`));
      expect(listed.get(table.file)).toBe(table.bytes);
    }
    const tablesBefore = Object.keys(before).filter(
      (name) => !before[name]?.startsWith('sequence'),
    );
    expect(manifest.database.tables.map((table) => `${table.schema}.${table.name}`)).toEqual(
      tablesBefore,
    );
    expect(before['public.requests']).not.toMatch(/^0 rows/);
    expect(before['public.retirements']).not.toMatch(/^0 rows/);
    expect(Object.keys(filesBefore).length).toBeGreaterThan(0);
    expect(manifest.files.entries.map((entry) => entry.path)).toEqual(Object.keys(filesBefore));
    for (const entry of manifest.files.entries)
      expect(listed.get(`files/${entry.path}`)).toBe(entry.size);
  });

  it('waits for migrations running meanwhile, so its tables and migrations agree', async () => {
    await withClient(sourceUrl, async (migrating) => {
      // A server starting on this database holds the migration lock while it migrates.
      await migrating.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
      let isDone = false;
      const backup = createBackup({
        databaseUrl: sourceUrl,
        filesDir: null,
        output: path.join(root, 'during-migrations.tar.gz'),
      }).finally(() => {
        isDone = true;
      });
      // The backup's connection queues behind the lock: PostgreSQL shows it waiting for it.
      await expect
        .poll(
          async () =>
            (
              await migrating.query<{ waiting: number }>(
                `SELECT count(*)::int AS waiting FROM pg_locks
                 WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
                [migrationLockKey],
              )
            ).rows[0]?.waiting,
          { timeout: 10_000 },
        )
        .toBe(1);
      expect(isDone).toBe(false);
      await migrating.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
      const summary = await backup;
      expect(summary.manifest.database.migrations).toEqual(manifest.database.migrations);
    });
  });

  it('brings back a wiped database and files folder row for row and byte for byte, and the app works', async () => {
    const name = new URL(sourceUrl).pathname.slice(1);
    await admin(async (client) => {
      await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name}"`);
    });
    await fs.rm(path.join(dataDir, 'files'), { recursive: true });
    expect(await relations(sourceUrl)).toEqual([]);

    const summary = await restoreBackup({ archive, dataDir, openDatabase: target(sourceUrl) });

    expect(summary.repaired).toEqual([]);
    expect(await fingerprint(sourceUrl)).toEqual(before);
    expect(await fileDigests(path.join(dataDir, 'files'))).toEqual(filesBefore);
    expect((await fs.readdir(dataDir)).sort()).toEqual(['files']);
    // The ledger kept by triggers agrees with its rows, and is not trivially zero.
    const [ledger] = await query<{ budgets: number; committed: string; mismatched: number }>(
      sourceUrl,
      `SELECT count(*)::int AS budgets, sum(committed)::text AS committed,
              count(*) FILTER (WHERE committed <> budget_committed_recomputed(id))::int AS mismatched
       FROM budgets`,
    );
    expect(ledger?.mismatched).toBe(0);
    expect(Number(ledger?.committed)).toBeGreaterThan(0);
    // The unsent e-mail has its send-email job again (pg-boss is not in the archive).
    const jobs = await query<{ id: string }>(
      sourceUrl,
      `SELECT id::text FROM pgboss.job WHERE name = 'send-email' AND state = 'created'`,
    );
    expect(jobs.map((job) => job.id)).toContain(queuedEmailId);
    expect(summary.emailJobs).toBe(jobs.length);

    const db = connect(sourceUrl, { max: 4 });
    try {
      const { app, jwtKey } = await appOn(db, dataDir);
      try {
        // The signing key came back from app_secrets, so a token issued before the backup works.
        expect(Buffer.from(jwtKey).equals(Buffer.from(jwtKeyBefore))).toBe(true);
        const renewed = await app.inject({
          method: 'GET',
          url: '/api/v1/users/validate-token',
          headers: { authorization: `Bearer ${tokenBefore}` },
        });
        expect(renewed.statusCode).toBe(200);
        // Signing in anew, then reading an attachment through the local store's signed link.
        const [file] = await query<{ name: string; email: string }>(
          sourceUrl,
          `SELECT f.name, u.email FROM files f JOIN users u ON u.id = f.uploaded_by
           WHERE NOT u.is_locked AND u.email = 'staff@example.com' ORDER BY f.name LIMIT 1`,
        );
        expect(file).toBeDefined();
        const token = await signIn(app, file?.email ?? '');
        const link = await app.inject({
          method: 'GET',
          url: `/api/v1/files/presigned-get-url?file_name=${encodeURIComponent(file?.name ?? '')}`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(link.statusCode).toBe(200);
        const object = await app.inject({ method: 'GET', url: link.json<{ url: string }>().url });
        expect(object.statusCode).toBe(200);
        const [organization] = await query<{ id: string }>(
          sourceUrl,
          'SELECT id FROM organizations',
        );
        const original = await fs.readFile(
          path.join(dataDir, 'files', organization?.id ?? '', file?.name ?? ''),
        );
        expect(object.rawPayload.equals(original)).toBe(true);
        await signIn(app, 'director@example.com');
      } finally {
        await app.close();
      }
    } finally {
      await db.$client.end();
    }
  });

  it('refuses a database or a files folder that is not empty, and changes nothing', async () => {
    // A database the server has migrated once holds tables, though no organisation yet.
    const migrated = await createDatabase({ isEmpty: false });
    const migratedBefore = await fingerprint(migrated);
    const emptyDataDir = path.join(root, 'refused-data');
    await expect(
      restoreBackup({ archive, dataDir: emptyDataDir, openDatabase: target(migrated) }),
    ).rejects.toThrow(
      /The target database .* is not empty \(it holds public\.\w+, public\.\w+, public\.\w+, …\)\. Restore only into an empty database/,
    );
    expect(await fingerprint(migrated)).toEqual(migratedBefore);
    await expect(fs.stat(emptyDataDir)).rejects.toThrow();

    const empty = await createDatabase({ isEmpty: true });
    const usedDataDir = path.join(root, 'used-data');
    await fs.mkdir(path.join(usedDataDir, 'files', 'org'), { recursive: true });
    await fs.writeFile(path.join(usedDataDir, 'files', 'org', 'kept.pdf'), 'kept');
    await expect(
      restoreBackup({ archive, dataDir: usedDataDir, openDatabase: target(empty) }),
    ).rejects.toThrow(BackupRefused);
    await expect(
      restoreBackup({ archive, dataDir: usedDataDir, openDatabase: target(empty) }),
    ).rejects.toThrow(/files is not empty \(1 file\(s\), e\.g\. org\/kept\.pdf\)/);
    expect(await relations(empty)).toEqual([]);
    expect(await fileDigests(usedDataDir)).toEqual({
      'files/org/kept.pdf': (await hashFile(path.join(usedDataDir, 'files/org/kept.pdf'))).sha256,
    });
  });

  it('refuses a damaged, foreign, tampered or too new archive, and changes nothing', async () => {
    const empty = await createDatabase({ isEmpty: true });
    const bytes = await fs.readFile(archive);
    const flipped = Buffer.from(bytes);
    for (let index = Math.floor(bytes.length / 3); index < bytes.length / 3 + 64; index += 1)
      flipped[index] = (flipped[index] ?? 0) ^ 0xff;
    const damaged = path.join(root, 'damaged.tar.gz');
    await fs.writeFile(damaged, flipped);
    const truncated = path.join(root, 'truncated.tar.gz');
    await fs.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));

    const foreignFolder = path.join(root, 'foreign');
    await fs.mkdir(foreignFolder, { recursive: true });
    await fs.writeFile(path.join(foreignFolder, 'notes.txt'), 'not a backup');
    const foreign = path.join(root, 'foreign.tar.gz');
    await tar.create({ file: foreign, cwd: foreignFolder, gzip: true }, ['notes.txt']);
    const notGzip = path.join(root, 'notes.txt');
    await fs.writeFile(notGzip, 'plain text, not an archive at all\n'.repeat(40));

    const tampered = await repack(archive, 'tampered', async (folder) => {
      const file = path.join(folder, 'database/public.users.copy');
      const text = await fs.readFile(file, 'utf8');
      await fs.writeFile(file, text.replace('Eshe Director', 'Eshe Directer'));
    });
    const tooNew = await repack(archive, 'too-new', async (_folder, kept) => ({
      ...kept,
      database: {
        ...kept.database,
        migrations: [
          ...kept.database.migrations,
          { id: 999, hash: 'f'.repeat(64), created_at: 4_102_444_800_000 },
        ],
        migration_level: '9999_from_the_future',
      },
    }));
    const newerFormat = await repack(archive, 'newer-format', async (_folder, kept) => ({
      ...kept,
      format_version: 2,
    }));

    const dataDirOf = (name: string) => path.join(root, `target-${name}`);
    const cases: [string, string, RegExp][] = [
      [
        'damaged',
        damaged,
        /could not be read as a tar\.gz archive .*damaged or not an Imprest backup/,
      ],
      ['truncated', truncated, /could not be read as a tar\.gz archive/],
      ['foreign', foreign, /is not an Imprest backup: it has no manifest\.json/],
      ['not-gzip', notGzip, /could not be read as a tar\.gz archive/],
      [
        'tampered',
        tampered,
        /is damaged: database\/public\.users\.copy does not match its checksum/,
      ],
      ['too-new', tooNew, /9999_from_the_future .*does not have that migration/],
      ['newer-format', newerFormat, /has backup format 2; this version of Imprest reads format 1/],
      ['missing', path.join(root, 'nowhere.tar.gz'), /nowhere\.tar\.gz does not exist/],
    ];
    for (const [name, file, message] of cases) {
      let opened = false;
      const attempt = restoreBackup({
        archive: file,
        dataDir: dataDirOf(name),
        openDatabase: async () => {
          opened = true;
          return { url: empty, close: async () => undefined };
        },
      });
      await expect(attempt, name).rejects.toThrow(BackupRefused);
      await expect(attempt, name).rejects.toThrow(message);
      // Refused from the archive alone: the database was not even opened.
      expect(opened, name).toBe(false);
      await expect(fs.stat(dataDirOf(name)), name).rejects.toThrow();
    }
    expect(await relations(empty)).toEqual([]);
  });

  it('copies a table out and in again intact through a slow disk', async () => {
    const url = await createDatabase({ isEmpty: true });
    await withClient(url, async (client) => {
      await client.query('CREATE TABLE big (id int PRIMARY KEY, body text NOT NULL)');
      await client.query('CREATE TABLE copied (LIKE big)');
      await client.query(
        `INSERT INTO big SELECT n, repeat(md5(n::text), 1 + n % 7) || E'\\ttab\\nline'
         FROM generate_series(1, 20000) AS n`,
      );
      // A sink that takes its time, so rows wait in memory while more arrive from the socket.
      const received: Buffer[] = [];
      const sink = new Writable({
        highWaterMark: 4096,
        write(chunk: Buffer, _encoding, callback) {
          received.push(chunk);
          setImmediate(callback);
        },
      });
      expect(await copyOut(client, 'COPY big TO STDOUT', sink)).toBe(20000);
      expect(await copyIn(client, 'COPY copied FROM STDIN', Readable.from(received))).toBe(20000);
      const { rows } = await client.query<{ differing: number }>(
        `SELECT count(*)::int AS differing FROM
           ((TABLE big EXCEPT TABLE copied) UNION ALL (TABLE copied EXCEPT TABLE big)) AS d`,
      );
      expect(rows[0]?.differing).toBe(0);
      // A COPY the server refuses while rows are still being sent fails, and the connection stays
      // usable (the rest of the rows are not sent).
      const refused = Readable.from([Buffer.from('1\tdup\n'), ...received]);
      await expect(copyIn(client, 'COPY big FROM STDIN', refused)).rejects.toThrow(
        /duplicate key value/,
      );
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    });
  });

  it('packs stored files that are hard links of one another as files, and restores them', async () => {
    // A files folder deduplicated by an operator's tool (rdfind, hardlink): two keys, one inode.
    const linkedDir = path.join(root, 'hard-links-data', 'files');
    const folder = path.join(linkedDir, randomUUID());
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'AbCdEfGreceipt.pdf'), '%PDF-1.4 one receipt\n');
    await fs.link(path.join(folder, 'AbCdEfGreceipt.pdf'), path.join(folder, 'HiJkLmNreceipt.pdf'));
    const linkedArchive = path.join(root, 'hard-links.tar.gz');
    await createBackup({ databaseUrl: sourceUrl, filesDir: linkedDir, output: linkedArchive });
    const types: string[] = [];
    await tar.list({ file: linkedArchive, onReadEntry: (entry) => types.push(entry.type) });
    expect(new Set(types)).toEqual(new Set(['File']));

    const restoredDir = path.join(root, 'hard-links-restored');
    const empty = await createDatabase({ isEmpty: true });
    await restoreBackup({
      archive: linkedArchive,
      dataDir: restoredDir,
      openDatabase: target(empty),
    });
    expect(await fileDigests(path.join(restoredDir, 'files'))).toEqual(
      await fileDigests(linkedDir),
    );
  });

  it('refuses to write the archive inside the files folder it packs, and leaves nothing there', async () => {
    const filesDir = path.join(dataDir, 'files');
    const listedBefore = await fs.readdir(filesDir);
    for (const output of [
      path.join(filesDir, 'nightly.tar.gz'),
      path.join(filesDir, 'a/b.tar.gz'),
    ]) {
      await expect(createBackup({ databaseUrl: sourceUrl, filesDir, output })).rejects.toThrow(
        new BackupRefused(
          `${output} is inside the files folder (${filesDir}), which the archive packs: write it somewhere else.`,
        ),
      );
    }
    expect(await fs.readdir(filesDir)).toEqual(listedBefore);
  });

  it('restores the files into a DATA_DIR/files that links to another disk, keeping the link', async () => {
    // /dev/shm is another file system here, so the files cross devices (rename's EXDEV).
    const otherDisk = await fs.mkdtemp(
      path.join((await exists('/dev/shm')) ? '/dev/shm' : root, `imprest-files-${run}-`),
    );
    try {
      const linkedData = path.join(root, 'linked-files-data');
      await fs.mkdir(linkedData, { recursive: true });
      await fs.symlink(otherDisk, path.join(linkedData, 'files'));
      const empty = await createDatabase({ isEmpty: true });
      await restoreBackup({ archive, dataDir: linkedData, openDatabase: target(empty) });
      expect((await fs.lstat(path.join(linkedData, 'files'))).isSymbolicLink()).toBe(true);
      expect(await fileDigests(otherDisk)).toEqual(filesBefore);
      expect((await fs.readdir(linkedData)).sort()).toEqual(['files']);
    } finally {
      await fs.rm(otherDisk, { recursive: true, force: true });
    }
  });

  it('an interrupted backup (SIGTERM) stops at once and leaves nothing behind', async () => {
    const outputDir = path.join(root, 'interrupted-backup');
    await fs.mkdir(outputDir, { recursive: true });
    await withClient(sourceUrl, async (holder) => {
      // A slow table: the backup's copy waits for it, halfway through the database.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      const backup = cli('backup', [path.join(outputDir, 'nightly.tar.gz')], {
        DATABASE_URL: sourceUrl,
      });
      await untilSomeoneWaits(holder, `relation = $1::regclass`, 'users');
      const interrupted = Date.now();
      backup.kill('SIGTERM');
      expect(await backup.exited).toBe(143);
      expect(Date.now() - interrupted).toBeLessThan(10_000);
      expect(backup.output()).toMatch(
        'Backup interrupted: no archive was written, and nothing of it is left behind.',
      );
      await holder.query('ROLLBACK');
    });
    // The staging folder held the JWT key and the sessions.
    expect(await fs.readdir(outputDir)).toEqual([]);
  }, 60_000);

  it('an interrupted restore (Ctrl-C) rolls back and leaves the target as it was', async () => {
    const empty = await createDatabase({ isEmpty: true });
    const restoreDir = path.join(root, 'interrupted-restore');
    const restoreEnv = { DATABASE_URL: empty, DATA_DIR: restoreDir };
    await fs.mkdir(restoreDir, { recursive: true });
    await withClient(empty, async (holder) => {
      // A server starting on the target meanwhile: the restore's transaction waits for it, after
      // pg-boss's schema has been installed.
      await holder.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
      const restore = cli('restore', [archive], restoreEnv);
      await untilSomeoneWaits(holder, `locktype = 'advisory' AND objid = $1`, migrationLockKey);
      restore.kill('SIGINT');
      expect(await restore.exited).toBe(130);
      expect(restore.output()).toMatch(
        'Restore interrupted, and rolled back: the target is as it was.',
      );
      await holder.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
    });
    expect(await relations(empty)).toEqual([]);
    expect(await fs.readdir(restoreDir)).toEqual([]);
    // And it can simply be run again.
    const again = cli('restore', [archive], restoreEnv);
    expect(await again.exited).toBe(0);
    expect(await fingerprint(empty)).toEqual(before);
  }, 120_000);

  it('rolls everything back when the data itself fails inside the database', async () => {
    const empty = await createDatabase({ isEmpty: true });
    // Checksums and counts agree, but one organisation is there twice: its primary key refuses it.
    const duplicated = await repack(archive, 'duplicated', async (folder, kept) => {
      const file = path.join(folder, 'database/public.organizations.copy');
      const text = await fs.readFile(file, 'utf8');
      await fs.writeFile(file, text + text);
      const { sha256, size } = await hashFile(file);
      return {
        ...kept,
        database: {
          ...kept.database,
          tables: kept.database.tables.map((table) =>
            table.name === 'organizations'
              ? { ...table, rows: table.rows * 2, bytes: size, sha256 }
              : table,
          ),
        },
      };
    });
    const failedDataDir = path.join(root, 'failed-data');
    let closedWith: boolean | undefined;
    await expect(
      restoreBackup({
        archive: duplicated,
        dataDir: failedDataDir,
        openDatabase: async () => ({
          url: empty,
          close: async (isRestored) => {
            closedWith = isRestored;
          },
        }),
      }),
    ).rejects.toThrow(/duplicate key value violates unique constraint "organizations_pkey"/);
    expect(closedWith).toBe(false);
    // pg-boss's schema, installed before the data, went too.
    expect(await relations(empty)).toEqual([]);
    await expect(fs.stat(failedDataDir)).rejects.toThrow();
  });
});
