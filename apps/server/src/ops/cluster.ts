import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { prepareDatabase, type PreparedDatabase } from '../server.ts';
import { shutdownSignals } from './signals.ts';

/** How long the primary lets its workers stop before it kills them. */
const workerStopMs = 30_000;

/** A worker that dies sooner than this after it started counts towards a crash loop. */
const quickDeathMs = 10_000;

/** The longest wait before a worker is started again, when workers keep dying at once. */
const maxRestartDelayMs = 30_000;

/**
 * The primary of WEB_CONCURRENCY processes (docs/decisions/0016): it makes the database ready once
 * (the embedded PostgreSQL when DATABASE_URL is unset, the migrations, the demo seed), then forks
 * that many workers on the same port, each running the HTTP server, socket.io and the job runner on
 * that database. A worker that dies is replaced (after a growing pause if they keep dying at once);
 * one that dies before every first worker listens is a failed start: everything stops, exit code 1.
 * SIGTERM, SIGINT or SIGHUP stops the workers gracefully, then the database.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  const size = config.webConcurrency;
  let database: PreparedDatabase;
  try {
    database = await prepareDatabase(config, logger);
  } catch (error) {
    logger.fatal({ err: error }, 'Imprest could not start');
    process.exit(1);
  }
  // Workers read DATABASE_URL like any process; the embedded server's address reaches them here.
  const workerEnv = { DATABASE_URL: database.url };
  const startedAt = new Map<number, number>();
  const ready = new Set<number>();
  let hasServed = false;
  let isStopping = false;
  let quickDeaths = 0;
  const restarts = new Set<NodeJS.Timeout>();

  const fork = (): void => {
    const worker = cluster.fork(workerEnv);
    startedAt.set(worker.id, Date.now());
  };

  const stop = async (reason: string, exitCode: number): Promise<void> => {
    if (isStopping) return;
    isStopping = true;
    for (const timer of restarts) clearTimeout(timer);
    logger.info({ reason, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down');
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined,
    );
    const results = await Promise.all(workers.map((worker) => stopWorker(worker)));
    const isClean = results.every((result) => result === 0);
    logger.info({ shutdown: 'workers', isClean }, 'workers stopped');
    try {
      await database.stop();
    } catch (error) {
      logger.error({ err: error }, 'the database did not stop');
      process.exit(1);
    }
    logger.info({ shutdown: 'done' }, 'stopped');
    process.exit(isClean ? exitCode : 1);
  };

  cluster.on('listening', (worker, address) => {
    ready.add(worker.id);
    logger.info({ worker: worker.process.pid }, 'worker ready');
    if (!hasServed && ready.size === size) {
      const url = `http://localhost:${address.port}`;
      logger.info({ url, workers: size }, 'Imprest is running');
    }
    // Every first worker is up: from now on a dying worker is replaced rather than fatal.
    if (ready.size === size) hasServed = true;
  });

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    const wasReady = ready.delete(worker.id);
    if (isStopping) return;
    if (!hasServed && !wasReady) {
      logger.fatal({ worker: worker.process.pid, code, signal }, 'a worker could not start');
      void stop('a worker could not start', 1);
      return;
    }
    quickDeaths = lived < quickDeathMs ? quickDeaths + 1 : 0;
    const delay = quickDeaths === 0 ? 0 : Math.min(maxRestartDelayMs, 500 * 2 ** quickDeaths);
    logger.error(
      { worker: worker.process.pid, code, signal, restartInMs: delay },
      'worker died; starting another',
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      if (!isStopping) fork();
    }, delay);
    restarts.add(timer);
  });

  for (const signal of shutdownSignals) process.on(signal, () => void stop(signal, 0));

  logger.info({ workers: size }, 'starting workers');
  for (let index = 0; index < size; index += 1) fork();
}

/** Sends a worker SIGTERM and waits for it to exit; SIGKILL after 30 s. Answers its exit code. */
async function stopWorker(worker: Worker): Promise<number | null> {
  if (worker.isDead()) return worker.process.exitCode;
  return new Promise((resolve) => {
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), workerStopMs);
    worker.once('exit', (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      resolve(signal ? null : code);
    });
    worker.process.kill('SIGTERM');
  });
}
