import type { Role } from '@imprest/domain/enums.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { verifyToken } from '../features/auth/tokens.ts';
import { findUserById, type UserWithOrganization } from '../features/users/queries.ts';
import { AppError } from './errors.ts';

/** The signed-in user a request acts as. */
export type Actor = UserWithOrganization & { role: Role };

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

/** The token of a request: `Authorization: Bearer <jwt>` or a `token` header (decisions §2). */
export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || undefined;
  const token = request.headers.token;
  return typeof token === 'string' && token.trim() ? token.trim() : undefined;
}

/** Resolves a token to the current user row, or null. */
export async function actorFromToken(
  context: AppContext,
  token: string | undefined,
): Promise<Actor | null> {
  if (!token) return null;
  const claims = await verifyToken(context.jwtKey, token);
  if (!claims) return null;
  const user = await findUserById(context.db, claims.sub);
  if (!user || user.organization_id !== claims.org) return null;
  return user as Actor;
}

/**
 * The API's onRequest hook: every route admits only signed-in users unless it is declared
 * `config: { isPublic: true }`. It runs before the body is parsed and validated, so a call without
 * a valid token answers 401 whatever its body or parameters (decisions §2), and a new route is
 * protected unless it says otherwise.
 */
export function authenticateApi(context: AppContext) {
  const admit = authenticate(context);
  return async function requireSession(request: FastifyRequest, reply: FastifyReply) {
    if (request.routeOptions.config.isPublic) return;
    await admit(request, reply);
  };
}

/** A hook that admits only signed-in users and sets `request.actor`. */
export function authenticate(context: AppContext) {
  return async function requireActor(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const actor = await actorFromToken(context, tokenOf(request));
    if (!actor)
      throw new AppError(
        'unauthorized',
        'Your session has expired or is invalid. Please sign in again.',
      );
    request.actor = actor;
  };
}

/** The actor of an authenticated route. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthorized', 'Please sign in.');
  return request.actor;
}
