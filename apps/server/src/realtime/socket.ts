import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { AppContext } from '../context.ts';
import { actorFromToken } from '../features/auth/session.ts';
import { organizationRoom, sessionRoom, userRoom, type SessionEndSink } from './events.ts';

function tokenOfHandshake(auth: unknown): string | undefined {
  const token = (auth as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

/**
 * Attaches socket.io to the HTTP server: clients authenticate with `auth: {token}` and join their
 * organisation's room (decisions §7) and their own (`user:<id>`), through which an ended session
 * disconnects them (docs/decisions/0010, 0012). With REDIS_URL, rooms are shared by every server process.
 */
export async function attachRealtime(
  app: FastifyInstance,
  context: AppContext,
): Promise<{
  close: () => Promise<void>;
  io: Server;
  endSessions: SessionEndSink;
  /** Whether Redis answers; undefined without REDIS_URL (readiness). */
  pingRedis?: () => Promise<boolean>;
}> {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  // engine.io answers its polling requests itself, outside Fastify and its security headers.
  io.engine.on('headers', (headers: Record<string, string>) => {
    headers['X-Content-Type-Options'] = 'nosniff';
  });
  let closeRedis = async (): Promise<void> => undefined;
  let pingRedis: (() => Promise<boolean>) | undefined;
  if (context.config.redisUrl) {
    // Loaded only when configured: a single process does without their memory (issue 13).
    const [{ createClient }, { createAdapter }] = await Promise.all([
      import('redis'),
      import('@socket.io/redis-adapter'),
    ]);
    const publisher = createClient({ url: context.config.redisUrl });
    const subscriber = publisher.duplicate();
    publisher.on('error', (error) => app.log.error({ err: error }, 'redis publisher error'));
    subscriber.on('error', (error) => app.log.error({ err: error }, 'redis subscriber error'));
    await Promise.all([publisher.connect(), subscriber.connect()]);
    io.adapter(createAdapter(publisher, subscriber));
    pingRedis = async () => (await publisher.ping()) === 'PONG';
    closeRedis = async () => {
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    };
    app.log.info('socket.io uses the Redis adapter');
  }
  // Every connection and reconnection checks the token: an ended session is refused here.
  io.use((socket, next) => {
    actorFromToken(context, tokenOfHandshake(socket.handshake.auth))
      .then((actor) => {
        if (!actor) return next(new Error('unauthorized'));
        socket.data.userId = actor.id;
        void socket.join([
          organizationRoom(actor.organization_id),
          userRoom(actor.id),
          sessionRoom(actor.session_id),
        ]);
        // A quiet socket is closed when its session reaches its absolute end, too.
        const remaining = actor.session_expires_at.getTime() - Date.now();
        const timer = setTimeout(() => socket.disconnect(true), Math.min(remaining, 2 ** 31 - 1));
        socket.on('disconnect', () => clearTimeout(timer));
        return next();
      })
      .catch((error: unknown) => next(error instanceof Error ? error : new Error('unauthorized')));
  });
  io.on('connection', (socket) => {
    // A message from a socket whose session has ended since the handshake closes it.
    socket.use((_packet, next) => {
      actorFromToken(context, tokenOfHandshake(socket.handshake.auth))
        .then((actor) => {
          if (actor) return next();
          socket.disconnect(true);
          return next(new Error('unauthorized'));
        })
        .catch((error: unknown) =>
          next(error instanceof Error ? error : new Error('unauthorized')),
        );
    });
  });
  return {
    close: async () => {
      await io.close();
      await closeRedis();
    },
    io,
    ...(pingRedis ? { pingRedis } : {}),
    endSessions: (userId, sessionId) => {
      io.in(sessionId ? sessionRoom(sessionId) : userRoom(userId)).disconnectSockets(true);
    },
  };
}
