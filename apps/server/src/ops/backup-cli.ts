import fs from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { readConfig } from '../config.ts';
import { createLogger } from '../lib/logger.ts';
import { createBackup, defaultBackupName } from './backup.ts';
import { openBackupSource } from './backup-database.ts';
import { BackupRefused } from './backup-format.ts';
import { abortOnSignals, consoleLog as log, describeError } from './cli-output.ts';

/**
 * `npm run backup [file]` (scripts/backup.mjs): one tar.gz of the database and DATA_DIR/files,
 * docs/decisions/0017. Exit codes: 0 written, 2 refused (the reason is printed), 1 failed.
 */
const usage = `Usage: npm run backup [file]

Writes one .tar.gz of the database and the local files (DATA_DIR/files). Without a file (or with
a folder), the archive is imprest-backup-<UTC date>-<time>.tar.gz in the current folder. Uses
DATABASE_URL when set, otherwise the embedded PostgreSQL of DATA_DIR (through the running server's
PostgreSQL if it runs). The archive holds password hashes and the JWT key: keep it safe.`;

function kilobytes(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KiB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function outputPath(args: string[]): Promise<string> {
  const directoryFlag = args.indexOf('--directory');
  const directory = directoryFlag >= 0 ? args[directoryFlag + 1] : undefined;
  const [file] = args.filter(
    (arg, index) => !arg.startsWith('-') && (directoryFlag < 0 || index !== directoryFlag + 1),
  );
  const base = path.resolve(directory ?? process.cwd());
  if (!file) return path.join(base, defaultBackupName());
  const target = path.resolve(base, file);
  const isDirectory = await fs
    .stat(target)
    .then((stat) => stat.isDirectory())
    .catch(() => false);
  return isDirectory ? path.join(target, defaultBackupName()) : target;
}

const interruption = abortOnSignals();

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    return 0;
  }
  const config = readConfig();
  // The embedded PostgreSQL's own log lines only when something goes wrong, on stderr.
  const logger = createLogger('warn', pino.destination(2));
  const output = await outputPath(args);
  const source = await openBackupSource(config, logger);
  try {
    console.log(`Backing up ${source.description}:`);
    const summary = await createBackup({
      databaseUrl: source.url,
      filesDir: config.s3 ? null : path.join(config.dataDir, 'files'),
      output,
      log,
      signal: interruption.signal,
    });
    console.log(
      `Wrote ${summary.file} (${kilobytes(summary.bytes)}) in ${summary.seconds.toFixed(1)} s.`,
    );
    console.log(
      'It holds password hashes and the JWT signing key: keep it where only you can read it.',
    );
    return 0;
  } finally {
    await source.close();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  if (interruption.received()) {
    console.error('Backup interrupted: no archive was written, and nothing of it is left behind.');
    process.exitCode = interruption.exitCode();
  } else if (error instanceof BackupRefused) {
    console.error(`Backup refused: ${error.message}`);
    process.exitCode = 2;
  } else {
    console.error(`Backup failed: ${describeError(error)}`);
    process.exitCode = 1;
  }
}
