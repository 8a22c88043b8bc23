import type { Role } from '@imprest/domain/enums.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { users } from '../db/schema.ts';
import { AppError } from './errors.ts';

/**
 * The signed-in user a request acts as: the current user row but its password's hash, its
 * organisation's name and the session the token belongs to (docs/decisions/0012).
 */
export type Actor = Omit<typeof users.$inferSelect, 'password_hash'> & {
  organization_name: string;
  role: Role;
  session_id: string;
  session_expires_at: Date;
};

/**
 * Resolves a token to the current user, or null; the auth feature provides it
 * (`features/auth/session.ts`), so this shared floor does not reach up into the features.
 */
export type ActorResolver = (token: string | undefined) => Promise<Actor | null>;

declare module 'fastify' {
  // Module augmentation needs an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyRequest {
    actor: Actor | null;
  }
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface FastifyContextConfig {
    /** The route answers without a session (sign-in, set-up, password reset, signed file links). */
    isPublic?: boolean;
  }
}

export const sessionInvalidMessage =
  'Your session has expired or is invalid. Please sign in again.';

/** The token of a request: `Authorization: Bearer <jwt>` or a `token` header (decisions §2). */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || undefined;
  const token = request.headers.token;
  return typeof token === 'string' && token.trim() ? token.trim() : undefined;
}

/**
 * The API's onRequest hook: every route admits only signed-in users unless it is declared
 * `config: { isPublic: true }`. It runs before the body is parsed and validated, so a call without
 * a valid token answers 401 whatever its body or parameters (decisions §2), and a new route is
 * protected unless it says otherwise. The user row is read on every call, so a lock, a new
 * position or an ended session takes effect at the very next call.
 */
export function authenticateApi(resolveActor: ActorResolver) {
  return async function requireSession(request: FastifyRequest, _reply: FastifyReply) {
    if (request.routeOptions.config.isPublic) return;
    const actor = await resolveActor(tokenOf(request));
    if (!actor) throw new AppError('unauthorized', sessionInvalidMessage);
    request.actor = actor;
  };
}

/** The actor of an authenticated route. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized', 'Please sign in.');
  return request.actor;
}
