import { createHash, randomBytes } from 'node:crypto';
import { invitationDays } from '@imprest/domain/constants.ts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { passwordResetTokens, users } from '../../db/schema.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { queueEmail } from '../../lib/mailer.ts';
import { assertWithinLimit, rateLimits } from '../../lib/rate-limit.ts';
import { findUserByEmail } from '../users/queries.ts';
import { assertPasswordAllowed } from './common-passwords.ts';
import { hashPassword } from './passwords.ts';
import { endSessionsOf } from './session.ts';

export const resetTokenLifetimeMinutes = 60;
export const invitationLifetimeMinutes = invitationDays * 24 * 60;

export type TokenPurpose = 'reset' | 'invitation';

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A new single-use token: 32 random bytes for the link, its SHA-256 for the table. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: digest(token) };
}

/**
 * The link of a reset or invitation e-mail: the web's reset landing route (spec §2). An
 * invitation's carries `welcome=1`, so the page greets a newcomer rather than offer a reset.
 */
export function passwordLink(
  context: AppContext,
  token: string,
  email: string,
  purpose: TokenPurpose = 'reset',
): string {
  const link = new URL('/reset-link', context.config.appUrl);
  link.searchParams.set('token', token);
  link.searchParams.set('email', email);
  if (purpose === 'invitation') link.searchParams.set('welcome', '1');
  return link.toString();
}

/** SQL of a token's expiry, `minutes` from now. */
export function expiresIn(minutes: number) {
  return sql`now() + make_interval(mins => ${minutes})`;
}

/**
 * Sends a reset link for an existing account (spec §2: an unknown address is 'Invalid Email
 * address'). Returns the id of the queued e-mail, to deliver after commit.
 */
export async function requestPasswordReset(
  context: AppContext,
  options: { email: string },
): Promise<string> {
  const user = await findUserByEmail(context.db, options.email);
  if (!user) throw new AppError('not_found', 'Invalid Email address');
  // Every call sends an e-mail: a few per account, whatever the addresses asking.
  await assertWithinLimit(
    context.db,
    `forgot-password:${user.id}`,
    rateLimits.forgotPasswordPerAccount,
  );
  const { token, hash } = newLinkToken();
  return context.db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      user_id: user.id,
      purpose: 'reset',
      token_hash: hash,
      expires_at: expiresIn(resetTokenLifetimeMinutes),
    });
    return queueEmail(tx, {
      organizationId: user.organization_id,
      to: user.email,
      kind: 'password_reset',
      // One e-mail per token, however often this transaction's work is retried.
      idempotencyKey: `password_reset.${hash}`,
      subject: 'Reset your Imprest password',
      body: `Hello ${user.fullname},\n\nUse this link within ${resetTokenLifetimeMinutes} minutes to set a new password:\n${passwordLink(context, token, user.email)}\n\nIf you did not ask for it, ignore this e-mail.`,
    });
  });
}

/**
 * Sets a new password with a valid, unused, unexpired reset or invitation token for that e-mail;
 * the token is spent, the user's other links expire, and every session of the user ends
 * (docs/decisions/0010).
 */
export async function resetPassword(
  context: AppContext,
  options: { token: string; email: string; password: string },
): Promise<void> {
  await assertPasswordAllowed(options.password);
  const user = await findUserByEmail(context.db, options.email);
  // Cheap checks first: an unknown address or a dead token never costs an argon2 hash.
  if (!user || !(await isLiveToken(context.db, { userId: user.id, token: options.token })))
    throw invalidLink();
  const passwordHash = await hashPassword(options.password);
  const isDone = await context.db.transaction(async (tx) => {
    const purpose = await spendToken(tx, { userId: user.id, token: options.token });
    if (!purpose) return false;
    // The user's other links (an older reset, the invitation) set a password they no longer
    // need: left live, whoever holds one could set another (docs/decisions/0010).
    await revokeLinkTokens(tx, user.id);
    await tx
      .update(users)
      .set({ password_hash: passwordHash, modified_at: sql`now()` })
      .where(eq(users.id, user.id));
    await endSessionsOf(tx, user.id, 'password');
    await recordAudit(tx, {
      organizationId: user.organization_id,
      actor: user,
      // Accepting an invitation sets a first password; it resets none.
      action: purpose === 'invitation' ? 'auth.password_set' : 'auth.password_reset',
      objectType: 'user',
      objectId: user.id,
    });
    return true;
  });
  if (!isDone) throw invalidLink();
  context.events.endSessions(user.id);
}

/**
 * Revokes every unspent reset and invitation link of a user, in the caller's transaction: a link
 * sent to an address the user no longer has must not set their password, even by someone who
 * guesses the new address (docs/decisions/0010).
 */
export async function revokeLinkTokens(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ expires_at: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.user_id, userId),
        isNull(passwordResetTokens.used_at),
        gt(passwordResetTokens.expires_at, sql`now()`),
      ),
    );
}

function invalidLink(): AppError {
  return new AppError(
    'bad_request',
    'This reset link is invalid or has expired. Ask for a new one.',
  );
}

function liveToken(options: { userId: string; token: string }) {
  return and(
    eq(passwordResetTokens.token_hash, digest(options.token)),
    eq(passwordResetTokens.user_id, options.userId),
    isNull(passwordResetTokens.used_at),
    gt(passwordResetTokens.expires_at, sql`now()`),
  );
}

/** Whether the token is unused and unexpired for this user (read only; spending comes later). */
async function isLiveToken(
  db: Executor,
  options: { userId: string; token: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(liveToken(options));
  return row !== undefined;
}

/** Spends a live token; answers its purpose, or undefined when it was not live. */
async function spendToken(
  tx: Executor,
  options: { userId: string; token: string },
): Promise<TokenPurpose | undefined> {
  const [spent] = await tx
    .update(passwordResetTokens)
    .set({ used_at: sql`now()` })
    .where(liveToken(options))
    .returning({ purpose: passwordResetTokens.purpose });
  return spent?.purpose as TokenPurpose | undefined;
}
