import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { passwordResetTokens, users } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { queueEmail } from '../../lib/mailer.ts';
import { findUserByEmail } from '../users/queries.ts';
import { hashPassword } from './passwords.ts';

export const resetTokenLifetimeMinutes = 60;

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
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
  const token = randomBytes(32).toString('base64url');
  return context.db.transaction(async (tx) => {
    await tx.insert(passwordResetTokens).values({
      user_id: user.id,
      token_hash: digest(token),
      expires_at: sql`now() + make_interval(mins => ${resetTokenLifetimeMinutes})`,
    });
    const link = new URL('/reset-link', context.config.appUrl);
    link.searchParams.set('token', token);
    link.searchParams.set('email', user.email);
    return queueEmail(tx, {
      organizationId: user.organization_id,
      to: user.email,
      subject: 'Reset your Imprest password',
      body: `Hello ${user.fullname},\n\nUse this link within ${resetTokenLifetimeMinutes} minutes to set a new password:\n${link.toString()}\n\nIf you did not ask for it, ignore this e-mail.`,
    });
  });
}

/** Sets a new password with a valid, unused, unexpired token for that e-mail; the token is spent. */
export async function resetPassword(
  context: AppContext,
  options: { token: string; email: string; password: string },
): Promise<void> {
  const user = await findUserByEmail(context.db, options.email);
  const passwordHash = await hashPassword(options.password);
  const isDone = await context.db.transaction(async (tx) => {
    if (!user) return false;
    const [spent] = await tx
      .update(passwordResetTokens)
      .set({ used_at: sql`now()` })
      .where(
        and(
          eq(passwordResetTokens.token_hash, digest(options.token)),
          eq(passwordResetTokens.user_id, user.id),
          isNull(passwordResetTokens.used_at),
          gt(passwordResetTokens.expires_at, sql`now()`),
        ),
      )
      .returning({ id: passwordResetTokens.id });
    if (!spent) return false;
    await tx
      .update(users)
      .set({ password_hash: passwordHash, modified_at: sql`now()` })
      .where(eq(users.id, user.id));
    return true;
  });
  if (!isDone)
    throw new AppError(
      'bad_request',
      'This reset link is invalid or has expired. Ask for a new one.',
    );
}
