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
import { seedDemo } from './demo/seed.ts';
import { startJobRunner, type JobRunner } from './features/jobs/worker.ts';
import { loadJwtKey } from './lib/secrets.ts';
import { createEventBus, organizationRoom } from './realtime/events.ts';
import { attachRealtime } from './realtime/socket.ts';

export type RunningServer = {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  stop: () => Promise<void>;
};

/**
 * Starts Imprest: the database (its own PostgreSQL when DATABASE_URL is unset), migrations, the
 * demo seed in demo mode, the job runner (pg-boss), the HTTP server and socket.io. `stop` shuts
 * them down in reverse order.
 */
export async function startServer(
  config: Config,
  options: { logger?: Logger } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres({
        clusterDir: path.join(config.dataDir, 'postgres'),
        database: 'imprest',
        logger,
      });
  const databaseUrl = config.databaseUrl ?? embedded?.url;
  if (!databaseUrl) throw new Error('no database');
  const db = connect(databaseUrl);
  let jobs: JobRunner | undefined;
  const stopDatabase = async (): Promise<void> => {
    // The job runner goes first: a running job finishes before its database closes.
    await jobs?.stop().catch((error: unknown) => logger.error({ err: error }, 'job runner stop'));
    jobs = undefined;
    await db.$client.end().catch(() => undefined);
    await embedded?.stop();
  };
  try {
    await migrateDatabase(db);
    // Demo attachments go to the local store; with S3 the demo has none.
    const demoFiles = config.s3 ? {} : { dataDir: config.dataDir };
    const today = todayIn(config.orgTimezone);
    if (config.isDemo && (await seedDemo(db, { ...demoFiles, today })))
      logger.info('seeded the demo organisation');
    const events = createEventBus();
    const context: AppContext = {
      config,
      db,
      jwtKey: await loadJwtKey(db, config.jwtSecret),
      events,
    };
    jobs = await startJobRunner(context, { databaseUrl, logger });
    const app = await buildApp(context, { logger });
    const realtime = await attachRealtime(app, context);
    const runner = jobs;
    context.readiness = {
      jobs: async () => runner.isRunning(),
      ...(realtime.pingRedis ? { redis: realtime.pingRedis } : {}),
    };
    events.attach((organizationId, event, payload) => {
      realtime.io.to(organizationRoom(organizationId)).emit(event, payload);
    });
    events.attachSessionEnd(realtime.endSessions);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://localhost:${port}`;
    logger.info(
      { url, docs: `${url}/api/docs`, database: embedded ? 'embedded' : 'DATABASE_URL' },
      'Imprest is running',
    );
    return {
      app,
      context,
      url,
      stop: async () => {
        await realtime.close();
        await app.close();
        await stopDatabase();
      },
    };
  } catch (error) {
    await stopDatabase();
    throw error;
  }
}
