import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { findUserById } from '../users/queries.ts';
import { verifyToken } from './tokens.ts';

/**
 * Resolves a token to the current user row, or null: a forged or expired token, a deactivated
 * user, another organisation, or a token older than the user's last ended session (`ver` below
 * `token_version`, docs/decisions/0010).
 */
export async function actorFromToken(
  context: AppContext,
  token: string | undefined,
): Promise<Actor | null> {
  if (!token) return null;
  const claims = await verifyToken(context.jwtKey, token);
  if (!claims) return null;
  const user = await findUserById(context.db, claims.sub);
  if (!user || user.organization_id !== claims.org) return null;
  if (user.token_version !== claims.ver) return null;
  return user as Actor;
}

/**
 * Ends every session of a user inside the caller's transaction: their tokens stop working at
 * the next call. After commit, `context.events.endSessions(userId)` disconnects their sockets.
 */
export async function endSessionsOf(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ token_version: sql`${users.token_version} + 1` })
    .where(eq(users.id, userId));
}
