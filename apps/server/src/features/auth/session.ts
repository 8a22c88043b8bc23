import { isUuid } from '@imprest/domain/api/common.ts';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { organizations, sessions, users } from '../../db/schema.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { userProfileColumns } from '../users/queries.ts';
import { verifyToken } from './tokens.ts';

/** A session ends at the latest this long after sign-in, however often its token is renewed. */
export const sessionLifetimeDays = 7;

/** Why a session ended before its time (`sessions.revoked_reason`). */
export type SessionEndReason = 'sign_out' | 'password' | 'deactivated' | 'position' | 'locked';

/** The one query every API call makes to know its caller, built for one pool. */
function prepareActorQuery(db: Database) {
  return db
    .select({
      ...userProfileColumns,
      organization_name: organizations.name,
      session_id: sessions.id,
      session_expires_at: sessions.expires_at,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .innerJoin(organizations, eq(organizations.id, users.organization_id))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sid')),
        eq(sessions.user_id, sql.placeholder('sub')),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, sql`now()`),
        isNull(users.deleted_at),
        eq(users.organization_id, sql.placeholder('org')),
      ),
    )
    .prepare('actor_from_token');
}

/** The caller's query of each pool, prepared once (issue 13). */
const actorQuery = preparedOnce(prepareActorQuery);

/**
 * Resolves a token to the current user row and its session, or null: a forged or expired token,
 * a session that was revoked or outlived its absolute lifetime, a deactivated user or another
 * organisation (docs/decisions/0012). One query, joined by primary keys, prepared once.
 */
export async function actorFromToken(
  context: AppContext,
  token: string | undefined,
): Promise<Actor | null> {
  if (!token) return null;
  const claims = verifyToken(context.jwtKey, token);
  if (!claims || !isUuid(claims.sid) || !isUuid(claims.sub) || !isUuid(claims.org)) return null;
  const [row] = await actorQuery(context.db).execute({
    sid: claims.sid,
    sub: claims.sub,
    org: claims.org,
  });
  return (row as Actor | undefined) ?? null;
}

/**
 * Opens a session at sign-in (or set-up, or a password change) and forgets the user's sessions
 * that ended more than a day ago, so the table holds about one row per live session.
 */
export async function startSession(
  db: Executor,
  userId: string,
): Promise<{ id: string; expiresAt: Date }> {
  await db
    .delete(sessions)
    .where(
      and(
        eq(sessions.user_id, userId),
        or(
          lt(sessions.expires_at, sql`now() - interval '1 day'`),
          lt(sessions.revoked_at, sql`now() - interval '1 day'`),
        ),
      ),
    );
  const [row] = await db
    .insert(sessions)
    .values({
      user_id: userId,
      expires_at: sql`now() + make_interval(days => ${sessionLifetimeDays})`,
    })
    .returning({ id: sessions.id, expiresAt: sessions.expires_at });
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

/**
 * Ends every live session of a user inside the caller's transaction: their tokens stop working at
 * the next call. After commit, `context.events.endSessions(userId)` disconnects their sockets.
 */
export async function endSessionsOf(
  db: Executor,
  userId: string,
  reason: SessionEndReason,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revoked_at: sql`now()`, revoked_reason: reason })
    .where(and(eq(sessions.user_id, userId), isNull(sessions.revoked_at)));
}

/** Ends one session (sign-out); its sockets are disconnected by `events.endSession`. */
export async function endSession(
  db: Executor,
  sessionId: string,
  reason: SessionEndReason,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revoked_at: sql`now()`, revoked_reason: reason })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revoked_at)));
}
