import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { AppContext } from '../context.ts';
import { actorFromToken } from '../lib/authenticate.ts';
import { organizationRoom } from './events.ts';

/**
 * Attaches socket.io to the HTTP server: clients authenticate with `auth: {token}` and join their
 * organisation's room (decisions §7). With REDIS_URL, rooms are shared by every server process.
 */
export async function attachRealtime(
  app: FastifyInstance,
  context: AppContext,
): Promise<{ close: () => Promise<void>; io: Server }> {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  let closeRedis = async (): Promise<void> => undefined;
  if (context.config.redisUrl) {
    const publisher = createClient({ url: context.config.redisUrl });
    const subscriber = publisher.duplicate();
    publisher.on('error', (error) => app.log.error({ err: error }, 'redis publisher error'));
    subscriber.on('error', (error) => app.log.error({ err: error }, 'redis subscriber error'));
    await Promise.all([publisher.connect(), subscriber.connect()]);
    io.adapter(createAdapter(publisher, subscriber));
    closeRedis = async () => {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    };
    app.log.info('socket.io uses the Redis adapter');
  }
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    actorFromToken(context, typeof token === 'string' ? token : undefined)
      .then((actor) => {
        if (!actor) return next(new Error('unauthorized'));
        socket.data.userId = actor.id;
        void socket.join(organizationRoom(actor.organization_id));
        return next();
      })
      .catch((error: unknown) => next(error instanceof Error ? error : new Error('unauthorized')));
  });
  return {
    close: async () => {
      await io.close();
      await closeRedis();
    },
    io,
  };
}
