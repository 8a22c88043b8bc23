import { invitationDays } from '@imprest/domain/constants.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import { passwordResetTokens } from '../../db/schema.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { queueEmails } from '../../lib/mailer.ts';
import {
  expiresIn,
  invitationLifetimeMinutes,
  newLinkToken,
  passwordLink,
} from '../auth/password-reset.ts';
import type { UserRow } from './queries.ts';

/**
 * Invites users created without a password (decisions §8, docs/decisions/0010): a single-use
 * token of the reset mechanism, valid 7 days and stored hashed, and an e-mail with the reset link,
 * both in the caller's transaction. Returns the queued e-mails' ids, to deliver after commit.
 */
export async function inviteUsers(
  context: AppContext,
  tx: Executor,
  options: { actor: Actor; users: UserRow[] },
): Promise<string[]> {
  if (options.users.length === 0) return [];
  const organization = options.actor.organization_name;
  const invitations = options.users.map((user) => ({ user, ...newLinkToken() }));
  await tx.insert(passwordResetTokens).values(
    invitations.map(({ user, hash }) => ({
      user_id: user.id,
      purpose: 'invitation',
      token_hash: hash,
      expires_at: expiresIn(invitationLifetimeMinutes),
    })),
  );
  return queueEmails(
    tx,
    invitations.map(({ user, token, hash }) => ({
      organizationId: user.organization_id,
      to: user.email,
      kind: 'invitation' as const,
      idempotencyKey: `invitation.${hash}`,
      subject: `You are invited to ${organization} on Imprest`,
      body: `Hello ${user.fullname},\n\n${options.actor.fullname} invited you to ${organization} on Imprest, where you raise and retire imprest requests.\n\nChoose your password within ${invitationDays} days with this link:\n${passwordLink(context, token, user.email, 'invitation')}\n\nYour e-mail address signs you in: ${user.email}`,
    })),
  );
}
