import type { AuthResponse, SetupRequest } from '@imprest/domain/api/auth.ts';
import { changesBetween } from '@imprest/domain/audit.ts';
import { isSuperAdmin } from '@imprest/domain/permissions.ts';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { organizations, users } from '../../db/schema.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { presentUser } from '../users/presenter.ts';
import { userAuditFields } from '@imprest/domain/audit.ts';
import {
  findUserByEmail,
  findPasswordHash,
  findUserById,
  hasAnyUser,
  touchLastLoggedIn,
  type UserProfile,
} from '../users/queries.ts';
import { revokeLinkTokens } from './password-reset.ts';
import { assertPasswordAllowed } from './common-passwords.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { endSession, endSessionsOf, startSession } from './session.ts';
import { clearFailures, keepFailure, takeTry } from './throttle.ts';
import { signToken } from './tokens.ts';

/**
 * A signed token of a session and the presented user: the answer of sign-in, renewal and password
 * change. The token never outlives its session (docs/decisions/0012).
 */
export async function sessionFor(
  context: AppContext,
  user: UserProfile,
  session: { id: string; expiresAt: Date },
): Promise<AuthResponse> {
  const token = signToken(
    context.jwtKey,
    { sub: user.id, org: user.organization_id, sid: session.id },
    session.expiresAt,
  );
  return {
    token,
    user: presentUser(user, { showLastLoggedIn: isSuperAdmin(user.role as Actor['role']) }),
    time_zone: context.config.orgTimezone,
  };
}

/** Signs a user in by e-mail and password, throttling repeated failures; opens a session. */
export async function authenticateUser(
  context: AppContext,
  options: { email: string; password: string; address: string },
): Promise<AuthResponse> {
  const { db } = context;
  await takeTry(db, options.email, options.address);
  const user = await findUserByEmail(db, options.email);
  const isValid = await verifyPassword(user?.password_hash, options.password);
  if (!user || !isValid) {
    await db.transaction(async (tx) => {
      await keepFailure(tx);
      // Whoever tried is unknown: the trail names the e-mail and, when it exists, the account.
      await recordAudit(tx, {
        organizationId: user?.organization_id ?? null,
        actor: { id: null, fullname: options.email.slice(0, 254) },
        action: 'auth.sign_in_failed',
        objectType: 'user',
        objectId: user?.id ?? null,
      });
    });
    throw new AppError('unauthorized', 'Invalid credentials');
  }
  const session = await db.transaction(async (tx) => {
    await clearFailures(tx, options.email, options.address);
    await touchLastLoggedIn(tx, user.id);
    await recordAudit(tx, {
      organizationId: user.organization_id,
      actor: user,
      action: 'auth.signed_in',
      objectType: 'user',
      objectId: user.id,
    });
    return startSession(tx, user.id);
  });
  const fresh = (await findUserById(db, user.id)) ?? user;
  return sessionFor(context, fresh, session);
}

/**
 * A fresh token and the current user for a valid session: the same session, so renewing never
 * carries it past its absolute end (7 days from sign-in).
 */
export async function renewSession(
  context: AppContext,
  options: { actor: Actor },
): Promise<AuthResponse> {
  const { actor } = options;
  return sessionFor(context, actor, { id: actor.session_id, expiresAt: actor.session_expires_at });
}

/** `POST users/logout`: ends this session on the server; its token is refused from now on. */
export async function signOut(context: AppContext, options: { actor: Actor }): Promise<void> {
  const { actor } = options;
  await endSession(context.db, actor.session_id, 'sign_out');
  context.events.endSession(actor.id, actor.session_id);
}

/** Whether the first organisation still has to be created. */
export async function needsSetup(context: AppContext): Promise<boolean> {
  return !(await hasAnyUser(context.db));
}

/**
 * `POST setup` answers 409 once any user exists (decisions §1), whatever its body: the route calls
 * this before validating the body, and setupOrganization checks again under its lock. Also cheap:
 * once set up, a call never costs a password check or an argon2 hash.
 */
export async function assertNotSetUp(context: AppContext): Promise<void> {
  if (await hasAnyUser(context.db)) throw alreadySetUp();
}

/**
 * Creates the first organisation and its director, signed in; refused once any user exists
 * (decisions §1). The audit trail records the account's creation and the sign-in.
 */
export async function setupOrganization(
  context: AppContext,
  input: SetupRequest,
): Promise<AuthResponse> {
  await assertPasswordAllowed(input.password);
  const passwordHash = await hashPassword(input.password);
  const created = await context.db.transaction(async (tx) => {
    // One set-up at a time, so two racing first-run forms cannot both succeed.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727002)`);
    if (await hasAnyUser(tx)) throw alreadySetUp();
    const [organization] = await tx
      .insert(organizations)
      .values({ name: input.organization_name })
      .returning();
    if (!organization) throw new Error('organisation insert returned nothing');
    const [user] = await tx
      .insert(users)
      .values({
        organization_id: organization.id,
        fullname: input.fullname,
        email: input.email,
        department: 'administration',
        role: 'director',
        system_role: 'director',
        password_hash: passwordHash,
        last_logged_in: sql`now()`,
      })
      .returning();
    if (!user) throw new Error('user insert returned nothing');
    // The director creates their own account and is signed in by it: both as any other path
    // records them (docs/decisions/0019).
    await recordAudit(
      tx,
      {
        organizationId: organization.id,
        actor: user,
        action: 'user.created',
        objectType: 'user',
        objectId: user.id,
        changes: changesBetween(null, user, userAuditFields),
      },
      {
        organizationId: organization.id,
        actor: user,
        action: 'auth.signed_in',
        objectType: 'user',
        objectId: user.id,
      },
    );
    return { userId: user.id, session: await startSession(tx, user.id) };
  });
  const user = await findUserById(context.db, created.userId);
  if (!user) throw new Error('new director not found');
  return sessionFor(context, user, created.session);
}

function alreadySetUp(): AppError {
  return new AppError('conflict', 'Imprest is already set up. Sign in instead.');
}

/**
 * `PUT users/password`: the signed-in user changes their own password (decisions §9), proving the
 * current one (throttled like sign-in). Every other session ends; the answer carries a fresh token
 * for this one (docs/decisions/0010).
 */
export async function changeOwnPassword(
  context: AppContext,
  options: { actor: Actor; currentPassword: string; newPassword: string; address: string },
): Promise<AuthResponse> {
  const { db } = context;
  const { actor } = options;
  await takeTry(db, actor.email, options.address);
  const currentHash = await findPasswordHash(db, actor.id);
  if (!(await verifyPassword(currentHash, options.currentPassword))) {
    await keepFailure(db);
    throw new AppError('bad_request', 'Your current password is not correct.', {
      details: [{ path: 'current_password', message: 'is not correct' }],
    });
  }
  await clearFailures(db, actor.email, options.address);
  await assertPasswordAllowed(options.newPassword, 'new_password');
  const passwordHash = await hashPassword(options.newPassword);
  const session = await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ password_hash: passwordHash, modified_at: sql`now()` })
      .where(eq(users.id, actor.id));
    await endSessionsOf(tx, actor.id, 'password');
    // A reset link asked for earlier would undo this change (docs/decisions/0010).
    await revokeLinkTokens(tx, actor.id);
    await recordAudit(tx, {
      organizationId: actor.organization_id,
      actor,
      action: 'auth.password_changed',
      objectType: 'user',
      objectId: actor.id,
    });
    return startSession(tx, actor.id);
  });
  context.events.endSessions(actor.id);
  const fresh = await findUserById(db, actor.id);
  if (!fresh) throw new AppError('unauthorized', 'Please sign in.');
  return sessionFor(context, fresh, session);
}
