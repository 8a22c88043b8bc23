import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import type { AppContext } from '../context.ts';
import { actorFromToken } from '../features/auth/session.ts';
import { socketTransports, type SocketWelcome } from '@imprest/domain/realtime.ts';
import {
  organizationRoom,
  sessionRoom,
  userRoom,
  type EventBus,
  type SessionEndSink,
} from './events.ts';
import { memoryLastEvents, redisLastEvents, type LastEvents } from './last-events.ts';

function tokenOfHandshake(auth: unknown): string | undefined {
  const token = (auth as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}

/**
 * Attaches socket.io to the HTTP server: clients authenticate with `auth: {token}` and join their
 * organisation's room (decisions §7) and their own (`user:<id>`), through which an ended session
 * disconnects them (docs/decisions/0010, 0012). With REDIS_URL, rooms are shared by every server process.
 * Once joined, a socket is sent a `welcome` saying when its organisation's last event was raised
 * (docs/decisions/0030), which the events `publish` records before sending them.
 */
export async function attachRealtime(
  app: FastifyInstance,
  context: AppContext,
): Promise<{
  close: () => Promise<void>;
  io: Server;
  /** Sends an event to an organisation's room, once its time is recorded for `welcome`. */
  publish: EventBus['publish'];
  endSessions: SessionEndSink;
  /** Whether Redis answers; undefined without REDIS_URL (readiness). */
  pingRedis?: () => Promise<boolean>;
}> {
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    transports: [...socketTransports],
  });
  // engine.io answers its polling requests itself, outside Fastify and its security headers.
  io.engine.on('headers', (headers: Record<string, string>) => {
    headers['X-Content-Type-Options'] = 'nosniff';
  });
  let closeRedis = async (): Promise<void> => undefined;
  let pingRedis: (() => Promise<boolean>) | undefined;
  let lastEvents: LastEvents = memoryLastEvents();
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
    lastEvents = redisLastEvents(publisher);
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
        socket.data.organizationId = actor.organization_id;
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
    // Joined (the middleware above): an event raised from now on reaches this socket, and one
    // raised before is recorded already. Unknown when Redis cannot say: the page then catches up.
    const organizationId = socket.data.organizationId as string;
    void lastEvents
      .lastOf(organizationId)
      .catch((error: unknown) => {
        app.log.warn({ err: error }, 'the last event time could not be read');
        return null;
      })
      .then((lastEventAt) => {
        const welcome: SocketWelcome = { now: Date.now(), last_event_at: lastEventAt };
        socket.emit('welcome', welcome);
      });
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
    publish: (organizationId, event, payload) => {
      void lastEvents
        .record(organizationId)
        // Sent all the same: the sockets in the room hear it; only a late joiner's welcome may
        // be stale, as when Redis itself is failing and the rooms with it.
        .catch((error: unknown) => app.log.warn({ err: error }, 'an event time was not recorded'))
        .then(() => io.to(organizationRoom(organizationId)).emit(event, payload));
    },
    ...(pingRedis ? { pingRedis } : {}),
    endSessions: (userId, sessionId) => {
      io.in(sessionId ? sessionRoom(sessionId) : userRoom(userId)).disconnectSockets(true);
    },
  };
}
