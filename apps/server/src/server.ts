import os from 'node:os';
import path from 'node:path';
import { todayIn } from '@imprest/domain/requests.ts';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { connect, migrateDatabase } from './db/client.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { createLogger } from './lib/logger.ts';
import { mailFolder } from './lib/mailer.ts';
import { seedDemo } from './demo/seed.ts';
import { startJobRunner, type JobRunner } from './features/jobs/worker.ts';
import { loadJwtKey } from './lib/secrets.ts';
import { trackRequests } from './ops/in-flight.ts';
import { createEventBus } from './realtime/events.ts';
import { attachRealtime } from './realtime/socket.ts';

export type RunningServer = {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  /** The graceful shutdown of docs/decisions/0016; see `startServer`. */
  stop: () => Promise<void>;
};

/** A migrated database server processes can use; `stop` stops it when it is the embedded one. */
export type PreparedDatabase = { url: string; isEmbedded: boolean; stop: () => Promise<void> };

/** How long a shutdown waits for the requests being answered before it cuts them off. */
export const requestDrainMs = 10_000;

/**
 * Database connections per process (docs/decisions/0031): DATABASE_POOL_SIZE when set; otherwise
 * four for each core of this machine, at most 80, shared among its WEB_CONCURRENCY processes
 * (docs/decisions/0016), at least 2 and at most 20 each. More connections than the cores can
 * serve only make PostgreSQL's backends and the server take turns on them: on this 2-core machine
 * a pool of 8 served 7–42 % more writes a second than one of 20 (bench/results.md).
 */
export function databasePoolSize(
  processes: number,
  options: { cores?: number; configured?: number | null } = {},
): number {
  if (options.configured) return options.configured;
  const cores = options.cores ?? os.availableParallelism();
  const total = Math.min(80, 4 * cores);
  return Math.max(2, Math.min(20, Math.floor(total / processes)));
}

/**
 * Makes the database ready, once per deployment start: its own PostgreSQL when DATABASE_URL is
 * unset, the migrations, and the demo seed in demo mode. `startServer` calls it for a single
 * process; the primary of several processes calls it before forking them.
 */
export async function prepareDatabase(config: Config, logger: Logger): Promise<PreparedDatabase> {
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        clusterDir: path.join(config.dataDir, 'postgres'),
        database: 'imprest',
        logger,
      });
  const url = config.databaseUrl ?? embedded?.url;
  if (!url) throw new Error('no database');
  const stop = async (): Promise<void> => {
    if (!embedded) return;
    await embedded.stop();
    logger.info({ shutdown: 'database' }, 'embedded PostgreSQL stopped');
  };
  const db = connect(url, { max: 4 });
  try {
    await migrateDatabase(db);
    // Demo attachments go to the local store; with S3 the demo has none.
    const demoFiles = config.s3 ? {} : { dataDir: config.dataDir };
    const today = todayIn(config.orgTimezone);
    if (config.isDemo && (await seedDemo(db, { ...demoFiles, today })))
      logger.info('seeded the demo organisation');
  } catch (error) {
    await db.$client.end().catch(() => undefined);
    await stop().catch(() => undefined);
    throw error;
  }
  await db.$client.end();
  return { url, isEmbedded: embedded !== null, stop };
}

/**
 * Starts Imprest: the database (prepared here unless `database` names one the cluster's primary
 * prepared), the job runner (pg-boss), the HTTP server and socket.io. `stop` shuts down in the
 * order of docs/decisions/0016: stop accepting connections, let the requests being answered finish
 * (up to 10 s), disconnect the sockets, stop the job runner, close the pool, then stop the embedded
 * PostgreSQL when this process started it.
 */
export async function startServer(
  config: Config,
  options: { logger?: Logger; database?: { url: string } } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const owned = options.database ? null : await prepareDatabase(config, logger);
  const databaseUrl = options.database?.url ?? owned?.url;
  if (!databaseUrl) throw new Error('no database');
  const db = connect(databaseUrl, {
    max: databasePoolSize(config.webConcurrency, { configured: config.databasePoolSize }),
  });
  let jobs: JobRunner | undefined;
  const stopJobsAndDatabase = async (): Promise<void> => {
    // The job runner goes first: a running job finishes before its database closes.
    if (jobs) {
      await jobs.stop().catch((error: unknown) => logger.error({ err: error }, 'job runner stop'));
      jobs = undefined;
      logger.info({ shutdown: 'jobs' }, 'job runner stopped');
    }
    await db.$client.end().catch(() => undefined);
    logger.info({ shutdown: 'pool' }, 'database connections closed');
    await owned?.stop();
  };
  let app: FastifyInstance | undefined;
  let closeRealtime: (() => Promise<void>) | undefined;
  try {
    const events = createEventBus();
    const context: AppContext = {
      config,
      db,
      jwtKey: await loadJwtKey(db, config.jwtSecret),
      events,
    };
    jobs = await startJobRunner(context, { databaseUrl, logger });
    app = await buildApp(context, { logger });
    const realtime = await attachRealtime(app, context);
    closeRealtime = realtime.close;
    if (config.webConcurrency > 1) {
      // node:cluster hands each connection to any worker, and a long-polling session's requests
      // would land on workers that never heard of it: with several processes, a socket is one
      // WebSocket connection, which stays on one worker (docs/decisions/0016).
      realtime.io.engine.opts.transports = ['websocket'];
    }
    const requests = trackRequests(app.server, { ignorePrefix: '/socket.io/' });
    const runner = jobs;
    context.readiness = {
      jobs: async () => runner.isRunning(),
      ...(realtime.pingRedis ? { redis: realtime.pingRedis } : {}),
    };
    events.attach(realtime.publish);
    events.attachSessionEnd(realtime.endSessions);
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      throw new Error(
        `Port ${config.port} is taken: another program (perhaps another Imprest) listens on it. Stop it, or set PORT to a free port.`,
      );
    });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://localhost:${port}`;
    logger.info(
      {
        url,
        docs: `${url}/api/docs`,
        database: owned
          ? owned.isEmbedded
            ? 'embedded'
            : 'DATABASE_URL'
          : 'prepared by the primary',
        // Without SMTP nothing is sent: invitations and resets are written here (decision 0037).
        mail: config.smtpUrl ? 'SMTP_URL' : mailFolder(config.dataDir),
      },
      'Imprest is running',
    );
    const server = app;
    let stopping: Promise<void> | undefined;
    const stop = async (): Promise<void> => {
      // 1. No new connection; a request on a kept-alive one gets 503 and `Connection: close`.
      const closed = server.close();
      while (server.server.listening) await new Promise((resolve) => setImmediate(resolve));
      logger.info({ shutdown: 'listening' }, 'stopped accepting connections');
      // 2. The requests being answered finish with their normal answers.
      const unfinished = await requests.drained(requestDrainMs);
      if (unfinished > 0) {
        logger.warn({ shutdown: 'requests', unfinished }, 'cut off requests still running');
        server.server.closeAllConnections();
      } else {
        logger.info({ shutdown: 'requests' }, 'in-flight requests finished');
      }
      // 3. Sockets: clients see the transport close and reconnect to another process. Kept-alive
      // and long-polling connections are closed as they fall idle, so the HTTP server can close.
      const sweep = setInterval(() => server.server.closeIdleConnections(), 50);
      server.server.closeIdleConnections();
      try {
        await realtime.close();
        await closed;
      } finally {
        clearInterval(sweep);
      }
      logger.info({ shutdown: 'sockets' }, 'socket.io clients disconnected');
      // 4. Jobs, 5. the database.
      await stopJobsAndDatabase();
    };
    return {
      app,
      context,
      url,
      stop: () => {
        stopping ??= stop();
        return stopping;
      },
    };
  } catch (error) {
    await closeRealtime?.().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await stopJobsAndDatabase();
    throw error;
  }
}
