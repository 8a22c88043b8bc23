import cluster from 'node:cluster';
import pino from 'pino';
import { readConfig, type Config } from './config.ts';
import { createLogger } from './lib/logger.ts';
import { shutdownSignals } from './ops/signals.ts';
import { mapBundleStackTraces } from './ops/stack-traces.ts';

// First, so that a stack trace of any step below names the TypeScript's lines (docs/decisions/0046).
mapBundleStackTraces(import.meta.url);

/** After this long a shutdown gives up and the process exits 1 (10 s of requests, 10 s of jobs). */
const shutdownLimitMs = 25_000;

function readConfigOrExit(): Config {
  try {
    return readConfig();
  } catch (error) {
    // Before any logger exists: one plain line saying what to fix.
    console.error(`Imprest could not start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}

// The configuration is checked before the application is loaded, so a mistake is reported at once.
const config = readConfigOrExit();
// Written as it is logged: a line cannot be lost at exit or overtake an earlier one, and the
// shutdown's lines come out in the order of its steps (docs/decisions/0016).
const logger = createLogger(config.logLevel, pino.destination({ dest: 1, sync: true }));

if (cluster.isPrimary && config.webConcurrency > 1) {
  const { runPrimary } = await import('./ops/cluster.ts');
  await runPrimary(config, logger);
} else {
  try {
    const { startServer } = await import('./server.ts');
    // One process, or a worker of the primary above, which prepared the database it passes on.
    if (cluster.isWorker && !config.databaseUrl) throw new Error('a worker needs DATABASE_URL');
    const database = cluster.isWorker && config.databaseUrl ? { url: config.databaseUrl } : null;
    const server = await startServer(config, { logger, ...(database ? { database } : {}) });
    let isStopping = false;
    const shutdown = (reason: string): void => {
      if (isStopping) return;
      isStopping = true;
      logger.info({ reason }, 'shutting down');
      const timer = setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        process.exit(1);
      }, shutdownLimitMs);
      timer.unref();
      server
        .stop()
        .then(() => {
          logger.info({ shutdown: 'done' }, 'stopped');
          process.exit(0);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    };
    for (const signal of shutdownSignals) process.on(signal, () => shutdown(signal));
    // A worker whose primary is gone (killed, say) has nobody to hand it connections: it stops.
    if (cluster.isWorker) process.on('disconnect', () => shutdown('primary gone'));
  } catch (error) {
    logger.fatal({ err: error }, 'Imprest could not start');
    process.exit(1);
  }
}
