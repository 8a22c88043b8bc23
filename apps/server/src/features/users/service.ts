import { parseUserSettings, type UserResponse } from '@imprest/domain/api/users.ts';
import { isFinance, isSuperAdmin } from '@imprest/domain/permissions.ts';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { canChangeSettings, canRestrictUser } from './policy.ts';
import { presentUser } from './presenter.ts';
import { findUserById } from './queries.ts';

/** Stores a user's notification settings (normalised JSON text) and tells their sessions. */
export async function updateUserSettings(
  context: AppContext,
  options: { actor: Actor; userId: string; settings: string },
): Promise<UserResponse> {
  const target = await findUserById(context.db, options.userId);
  // Another organisation's user is never revealed (decisions §2).
  if (!target || target.organization_id !== options.actor.organization_id) {
    throw new AppError('not_found', 'User not found.');
  }
  if (!canChangeSettings(options.actor, target)) {
    throw new AppError(
      'forbidden',
      "Only an admin or the account holder can change this user's settings.",
    );
  }
  const settings = JSON.stringify(parseUserSettings(options.settings));
  await context.db
    .update(users)
    .set({ settings, modified_at: sql`now()` })
    .where(eq(users.id, target.id));
  const updated = await findUserById(context.db, target.id);
  if (!updated) throw new AppError('not_found', 'User not found.');
  context.events.publish(updated.organization_id, 'update_user', { user_id: updated.id });
  return presentUser(updated, { showLastLoggedIn: isSuperAdmin(options.actor.role) });
}

/**
 * `POST users/restrict` (decisions §8, §9): finance locks (`isLocked` true) a user of its
 * organisation, recording who did it, or lifts any lock, the system's too (the midnight job locks
 * again if a retirement is still overdue). A finance lock stays until finance lifts it (decisions §4).
 */
export async function restrictUser(
  context: AppContext,
  options: { actor: Actor; userId: string; isLocked: boolean },
): Promise<UserResponse> {
  const { actor } = options;
  if (!isFinance(actor.role))
    throw new AppError('forbidden', 'Only finance can restrict or unrestrict users.');
  const target = await findUserById(context.db, options.userId);
  // Another organisation's user is never revealed (decisions §2).
  if (!target || target.organization_id !== actor.organization_id) {
    throw new AppError('not_found', 'User not found.');
  }
  if (!canRestrictUser(actor, target)) {
    throw new AppError('bad_request', 'You cannot restrict or unrestrict your own account.', {
      details: [{ path: 'user_id', message: 'is your own account' }],
    });
  }
  await context.db
    .update(users)
    .set(
      options.isLocked
        ? {
            is_locked: true,
            locked_by: 'finance',
            lock_reason: `Restricted by ${actor.fullname}.`,
            locked_at: sql`now()`,
            modified_at: sql`now()`,
          }
        : {
            is_locked: false,
            locked_by: null,
            lock_reason: null,
            locked_at: null,
            modified_at: sql`now()`,
          },
    )
    .where(eq(users.id, target.id));
  const updated = await findUserById(context.db, target.id);
  if (!updated) throw new AppError('not_found', 'User not found.');
  context.events.publish(updated.organization_id, 'update_user', { user_id: updated.id });
  return presentUser(updated, { showLastLoggedIn: isSuperAdmin(actor.role) });
}
