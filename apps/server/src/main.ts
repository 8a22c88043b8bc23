import { readConfig } from './config.ts';
import { createLogger } from './lib/logger.ts';
import { startServer } from './server.ts';

const config = readConfig();
const logger = createLogger(config.logLevel);

try {
  const server = await startServer(config, { logger });
  let isStopping = false;
  const shutdown = (signal: string): void => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    server
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
} catch (error) {
  logger.fatal({ err: error }, 'Imprest could not start');
  process.exit(1);
}
