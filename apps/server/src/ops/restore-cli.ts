import path from 'node:path';
import pino from 'pino';
import { readConfig } from '../config.ts';
import { createLogger } from '../lib/logger.ts';
import { openRestoreTarget, refuseRunningServer } from './backup-database.ts';
import { BackupRefused } from './backup-format.ts';
import { abortOnSignals, consoleLog as log, describeError } from './cli-output.ts';
import { restoreBackup } from './restore.ts';

/**
 * `npm run restore <archive>` (scripts/restore.mjs): brings an archive of `npm run backup` back
 * into an empty DATA_DIR or an empty DATABASE_URL database, docs/decisions/0017. Exit codes: 0
 * restored, 2 refused (the reason is printed; nothing was changed), 1 failed.
 */
const usage = `Usage: npm run restore <archive>

Restores an archive of \`npm run backup\` into an empty target: the database of DATABASE_URL when
set (it must hold no tables), otherwise a new embedded PostgreSQL in DATA_DIR; the files into
DATA_DIR/files (which must hold none). Refuses anything else, and changes nothing then.`;

const interruption = abortOnSignals();

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    return 0;
  }
  const [archive] = args;
  if (!archive) {
    console.error(usage);
    return 2;
  }
  const config = readConfig();
  const logger = createLogger('warn', pino.destination(2));
  await refuseRunningServer(config);
  const target = config.databaseUrl
    ? 'the database of DATABASE_URL'
    : `the embedded PostgreSQL of ${config.dataDir} (made if there is none)`;
  console.log(`Restoring ${path.resolve(archive)} into ${target}:`);
  const summary = await restoreBackup({
    archive,
    dataDir: config.dataDir,
    openDatabase: () => openRestoreTarget(config, logger),
    log,
    signal: interruption.signal,
  });
  const { database, files } = summary.manifest;
  console.log(`  database: ${database.tables.length} tables, ${summary.rows} rows`);
  console.log(`  files: ${files.count} into ${path.join(config.dataDir, 'files')}`);
  if (summary.emailJobs > 0) console.log(`  e-mails: ${summary.emailJobs} unsent, queued again`);
  if (config.s3 && files.count > 0)
    console.warn(
      `  warning: S3_BUCKET is set, so the server reads files from the bucket, not from ${path.join(config.dataDir, 'files')}; copy them there with \`aws s3 sync\` (the folder's paths are the object keys).`,
    );
  console.log(
    `Restored in ${summary.seconds.toFixed(1)} s. Start the server on this DATA_DIR; it applies any newer migrations.`,
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (interruption.received()) {
    console.error('Restore interrupted, and rolled back: the target is as it was.');
    process.exitCode = interruption.exitCode();
  } else if (error instanceof BackupRefused) {
    console.error(`Restore refused: ${error.message}`);
    process.exitCode = 2;
  } else {
    console.error(`Restore failed, and was rolled back: ${describeError(error)}`);
    process.exitCode = 1;
  }
}
