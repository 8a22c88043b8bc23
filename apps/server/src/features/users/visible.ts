import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { findUserById, type UserProfile, type UserWithOrganization } from './queries.ts';

export const userNotFound = 'User not found.';

/**
 * An active user of the caller's organisation, read now, or a 404: another organisation's user is
 * never revealed, not even that it exists.
 */
export async function visibleUser(
  db: Executor,
  actor: Actor,
  userId: string,
): Promise<UserWithOrganization> {
  const user = await findUserById(db, userId);
  if (!user || user.organization_id !== actor.organization_id)
    throw new AppError('not_found', userNotFound);
  return user;
}

/** As visibleUser, but the caller themself as this call loaded them, without reading them again. */
export function userOfOrganization(
  db: Executor,
  actor: Actor,
  userId: string,
): Promise<UserProfile> {
  return userId === actor.id ? Promise.resolve(actor) : visibleUser(db, actor, userId);
}
