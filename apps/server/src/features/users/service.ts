import { changesBetween, userAuditFields } from '@imprest/domain/audit.ts';
import {
  parseUserSettings,
  type UpdateUserRequest,
  type UserListParams,
  type UserListQuery,
  type UserResponse,
} from '@imprest/domain/api/users.ts';
import type { Role } from '@imprest/domain/enums.ts';
import { isAdmin, isFinance, systemRoleFor } from '@imprest/domain/permissions.ts';
import { newUsersProblems, newUsersSummary } from '@imprest/domain/users.ts';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { sqlState, sqlStateOf } from '../../lib/database-errors.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyAccountLock } from '../notifications/service.ts';
import { commonPasswords } from '../auth/common-passwords.ts';
import { hashPassword } from '../auth/passwords.ts';
import { endSessionsOf } from '../auth/session.ts';
import { endDelegationsOfUser } from '../delegations/service.ts';
import { inviteUsers } from './invitations.ts';
import { revokeLinkTokens } from '../auth/password-reset.ts';
import {
  canChangeSettings,
  canChangeUserField,
  canCreateUsers,
  canDeleteUser,
  canListUsers,
  canReadUser,
  canRestrictUser,
  canSeeLastLoggedIn,
  userFields,
  type UserField,
} from './policy.ts';
import { presentUser } from './presenter.ts';
import { userNotFound, visibleUser } from './visible.ts';
import {
  findUserById,
  insertUsers,
  listUsers as listUserRows,
  lockDirectors,
  lockUserById,
  takenEmails,
  setFinanceLock,
  updateUser as updateUserRow,
  type UserProfile,
  type UserWithOrganization,
} from './queries.ts';

const notFound = () => new AppError('not_found', userNotFound);

function present(actor: Actor, row: UserProfile): UserResponse {
  return presentUser(row, { showLastLoggedIn: canSeeLastLoggedIn(actor) });
}

/** Rows hashed at once while importing: argon2 runs on libuv's thread pool. */
const hashConcurrency = 4;

/**
 * `POST users` (spec §7, issue 9): one user or a batch, all or nothing. Every row is checked
 * first (the shared schema, e-mails unique inside the batch and against every existing user,
 * the director position only from the director, common passwords); any problem answers 400 naming
 * each row and nothing is written. Otherwise one transaction inserts the users in multi-row
 * INSERTs and, for those without a password, an invitation token and e-mail (docs/decisions/0010).
 */
export async function createUsers(
  context: AppContext,
  options: { actor: Actor; rows: unknown[] },
): Promise<{ users: UserResponse[] }> {
  const { actor } = options;
  if (!canCreateUsers(actor)) throw new AppError('forbidden', 'Only an admin can add users.');
  const emails = options.rows.flatMap((row) => {
    const email = (row as { email?: unknown } | null)?.email;
    return typeof email === 'string' ? [email.trim().toLowerCase()] : [];
  });
  const { users, problems } = newUsersProblems(options.rows, {
    actorRole: actor.role,
    takenEmails: await takenEmails(context.db, emails),
    commonPasswords: await commonPasswords(),
  });
  if (problems.length > 0)
    throw new AppError('bad_request', newUsersSummary(problems), { details: problems });

  const hashes: (string | null)[] = Array.from({ length: users.length }, () => null);
  for (let start = 0; start < users.length; start += hashConcurrency) {
    await Promise.all(
      users.slice(start, start + hashConcurrency).map(async (user, offset) => {
        if (user.password !== undefined) hashes[start + offset] = await hashPassword(user.password);
      }),
    );
  }
  try {
    return await context.db.transaction(async (tx) => {
      const created = [];
      // 9 parameters a row: 1,000 rows stay far below PostgreSQL's 65,535 bind parameters.
      for (let start = 0; start < users.length; start += 1000) {
        const chunk = await insertUsers(
          tx,
          users.slice(start, start + 1000).map((user, offset) => ({
            organization_id: actor.organization_id,
            fullname: user.fullname,
            email: user.email,
            department: user.department,
            role: user.role,
            system_role: user.system_role,
            phone_number: user.phone_number,
            password_hash: hashes[start + offset] ?? null,
          })),
        );
        created.push(...chunk);
        await recordAudit(
          tx,
          ...chunk.map((row) => ({
            organizationId: actor.organization_id,
            actor,
            action: 'user.created' as const,
            objectType: 'user' as const,
            objectId: row.id,
            changes: changesBetween(null, row, userAuditFields),
          })),
        );
        // Invitations and their sending jobs commit with the users (docs/decisions/0011).
        await inviteUsers(context, tx, {
          actor,
          users: chunk.filter((row) => row.password_hash === null),
        });
      }
      return {
        users: created.map((row) =>
          present(actor, { ...row, organization_name: actor.organization_name }),
        ),
      };
    });
  } catch (error) {
    // Another import took an address meanwhile.
    if (sqlStateOf(error) === sqlState.uniqueViolation)
      throw new AppError(
        'conflict',
        'One of these e-mail addresses was taken meanwhile; try again.',
      );
    throw error;
  }
}

/** `GET users/department/{department}/{role}`: a page of the organisation's active users. */
export async function listUsers(
  context: AppContext,
  options: { actor: Actor; params: UserListParams; query: UserListQuery },
): Promise<{ users: UserResponse[]; total: number; per_page: number; page: number }> {
  const { actor, params, query } = options;
  if (!canListUsers(actor)) throw new AppError('forbidden', 'Only an admin can list users.');
  const { rows, total } = await listUserRows(context.db, {
    organizationId: actor.organization_id,
    department: params.department === 'all' ? null : params.department,
    role: params.role === 'all' ? null : params.role,
    search: query.search || undefined,
    page: query.page,
    perPage: query.per_page,
  });
  return {
    users: rows.map((row) => present(actor, row)),
    total,
    per_page: query.per_page,
    page: query.page,
  };
}

/** `GET users/{id}`: an admin reads any user of the organisation, everyone their own. */
export async function readUser(
  context: AppContext,
  options: { actor: Actor; userId: string },
): Promise<UserResponse> {
  const target = await visibleUser(context.db, options.actor, options.userId);
  if (!canReadUser(options.actor, target))
    throw new AppError('forbidden', 'Only an admin can view other users.');
  return present(options.actor, target);
}

const fieldLabels: Record<UserField, string> = {
  fullname: 'full name',
  email: 'e-mail',
  department: 'department',
  role: 'position (role)',
  system_role: 'system role',
  phone_number: 'phone number',
};

/** The fields of a `PUT users` body whose value differs from the stored one. */
function changedFields(target: UserWithOrganization, body: UpdateUserRequest) {
  const changes: Partial<Record<UserField, string | null>> = {};
  for (const field of userFields) {
    const value = body[field];
    if (value === undefined) continue;
    const current = field === 'email' ? target.email.toLowerCase() : target[field];
    if (value !== current) changes[field] = value;
  }
  return changes;
}

/**
 * `PUT users` (decisions §9): fields left out or unchanged pass; each changed field must be the
 * actor's to change, else 403 naming it. `system_role` follows `role` (decisions §3). A new
 * position ends the user's sessions and live delegations (docs/decisions/0019); the last director
 * keeps the position (409).
 */
export async function updateUser(
  context: AppContext,
  options: { actor: Actor; body: UpdateUserRequest },
): Promise<UserResponse> {
  const { actor, body } = options;
  const found = await visibleUser(context.db, actor, body.user_id);
  if (!canChangeSettings(actor, found))
    throw new AppError('forbidden', 'Only an admin or the account holder can change this user.');
  let isNewPosition = false;
  try {
    isNewPosition = await context.db.transaction(async (tx) => {
      // A director's position may change: the directors are locked first, in one order, so two
      // directors demoting each other at once queue instead of deadlocking.
      const directors =
        body.role !== undefined && found.role === 'director'
          ? await lockDirectors(tx, actor.organization_id)
          : null;
      // The user's row as it is now, held until commit: the changes, their permissions and the
      // audit event's "from" are judged on it, not on a copy read before another save landed.
      const target = await lockUserById(tx, found.id);
      if (!target) throw notFound();
      const changes = changedFields(target, body);
      // The account type follows the position (decisions §3): a system_role sent with a new role
      // is no change of its own, and whatever the director sends, the stored one is derived.
      const role = (changes.role ?? target.role) as Role;
      if (changes.role !== undefined) delete changes.system_role;
      for (const field of Object.keys(changes) as UserField[]) {
        if (!canChangeUserField(actor, target, field)) {
          if (field === 'email' && isAdmin(actor.role)) {
            throw new AppError(
              'forbidden',
              'Only someone holding every permission of this user can change their e-mail.',
              { details: [{ path: field, message: 'the user holds a permission you lack' }] },
            );
          }
          const who = field === 'phone_number' || field === 'email' ? 'an admin' : 'the director';
          throw new AppError(
            'forbidden',
            `Only ${who} can change the ${fieldLabels[field]} of a user.`,
            {
              details: [{ path: field, message: `only ${who} can change it` }],
            },
          );
        }
      }
      const isPositionChanged = changes.role !== undefined;
      if (isPositionChanged && target.role === 'director') {
        const holders = directors ?? (await lockDirectors(tx, actor.organization_id));
        if (holders.length <= 1)
          throw new AppError(
            'conflict',
            'The organisation needs a director; give the director position to someone else first.',
          );
      }
      const applied = {
        ...(changes.fullname ? { fullname: changes.fullname } : {}),
        ...(changes.email ? { email: changes.email } : {}),
        ...(changes.department ? { department: changes.department } : {}),
        ...(changes.phone_number !== undefined ? { phone_number: changes.phone_number } : {}),
        ...(isPositionChanged ? { role, system_role: systemRoleFor(role) } : {}),
      };
      await updateUserRow(tx, target.id, applied);
      if (isPositionChanged) await endSessionsOf(tx, target.id, 'position');
      // A new e-mail revokes the links sent to the old one; someone still invited gets a fresh
      // invitation at the new address (an admin correcting a mistyped address, docs/decisions/0010).
      if (changes.email) {
        await revokeLinkTokens(tx, target.id);
        if (target.password_hash === null)
          await inviteUsers(context, tx, { actor, users: [{ ...target, ...applied }] });
      }
      const edited = changesBetween(target, { ...target, ...applied }, userAuditFields);
      if (edited) {
        await recordAudit(tx, {
          organizationId: target.organization_id,
          actor,
          action: 'user.updated',
          objectType: 'user',
          objectId: target.id,
          changes: edited,
        });
      }
      // A delegation hands over the steps of the position held when it was named: a new position
      // ends it, as delegator and as delegate, so a promotion never widens a delegate's power.
      if (isPositionChanged)
        await endDelegationsOfUser(context, tx, {
          actor,
          organizationId: target.organization_id,
          userId: target.id,
        });
      return isPositionChanged;
    });
  } catch (error) {
    if (sqlStateOf(error) === sqlState.uniqueViolation)
      throw new AppError('conflict', `The e-mail ${body.email ?? ''} is already taken.`, {
        details: [{ path: 'email', message: 'is already taken' }],
      });
    throw error;
  }
  const target = found;
  if (isNewPosition) context.events.endSessions(target.id);
  context.events.publish(target.organization_id, 'update_user', { user_id: target.id });
  const updated = await findUserById(context.db, target.id);
  if (!updated) throw notFound();
  return present(actor, updated);
}

/**
 * `DELETE users/{userId}` (decisions §9, director): the user is deactivated, never erased, so
 * their requests, reviews and retirements stay whole (docs/decisions/0010); they can no longer sign
 * in, their sessions and live delegations end and they leave every list. Not oneself (400), not the last director (409).
 */
export async function deleteUser(
  context: AppContext,
  options: { actor: Actor; userId: string },
): Promise<{ user_id: string; deactivated: boolean }> {
  const { actor } = options;
  if (actor.role !== 'director')
    throw new AppError('forbidden', 'Only the director can delete users.');
  const target = await visibleUser(context.db, actor, options.userId);
  if (!canDeleteUser(actor, target))
    throw new AppError('bad_request', 'You cannot delete your own account.', {
      details: [{ path: 'userId', message: 'is your own account' }],
    });
  await context.db.transaction(async (tx) => {
    if (target.role === 'director') {
      const directors = await lockDirectors(tx, actor.organization_id);
      if (directors.length <= 1)
        throw new AppError('conflict', 'The organisation needs at least one director.');
    }
    await updateUserRow(tx, target.id, { deleted_at: sql`now()` });
    await endSessionsOf(tx, target.id, 'deactivated');
    await recordAudit(tx, {
      organizationId: target.organization_id,
      actor,
      action: 'user.deleted',
      objectType: 'user',
      objectId: target.id,
      changes: changesBetween(target, null, userAuditFields),
    });
    // Answers already ignore a deactivated person's delegations; ending them says so in the
    // delegation lists and the trail, the same way as a new position does.
    await endDelegationsOfUser(context, tx, {
      actor,
      organizationId: target.organization_id,
      userId: target.id,
    });
  });
  context.events.endSessions(target.id);
  context.events.publish(target.organization_id, 'update_user', { user_id: target.id });
  return { user_id: target.id, deactivated: true };
}

/** Stores a user's notification settings (normalised JSON text) and tells their sessions. */
export async function updateUserSettings(
  context: AppContext,
  options: { actor: Actor; userId: string; settings: string },
): Promise<UserResponse> {
  const target = await visibleUser(context.db, options.actor, options.userId);
  if (!canChangeSettings(options.actor, target)) {
    throw new AppError(
      'forbidden',
      "Only an admin or the account holder can change this user's settings.",
    );
  }
  await updateUserRow(context.db, target.id, {
    settings: JSON.stringify(parseUserSettings(options.settings)),
  });
  const updated = await findUserById(context.db, target.id);
  if (!updated) throw notFound();
  context.events.publish(updated.organization_id, 'update_user', { user_id: updated.id });
  return present(options.actor, updated);
}

/**
 * `POST users/restrict` (decisions §8, §9): finance locks (`isLocked` true) a user of its
 * organisation, recording who did it, or lifts any lock, the system's too (the midnight job locks
 * again if a retirement is still overdue). A finance lock stays until finance lifts it (decisions §4).
 * A lock ends the user's sessions (the security issue, docs/decisions/0012): they may sign in
 * again (a locked user still reads and retires), and the new session shows them locked.
 */
export async function restrictUser(
  context: AppContext,
  options: { actor: Actor; userId: string; isLocked: boolean },
): Promise<UserResponse> {
  const { actor } = options;
  if (!isFinance(actor.role))
    throw new AppError('forbidden', 'Only finance can restrict or unrestrict users.');
  const target = await visibleUser(context.db, actor, options.userId);
  if (!canRestrictUser(actor, target)) {
    throw new AppError('bad_request', 'You cannot restrict or unrestrict your own account.', {
      details: [{ path: 'user_id', message: 'is your own account' }],
    });
  }
  // The change and the e-mail that announces it commit together (the notifications issue: locks
  // and unlocks are told to the user even when they muted notifications). A call that changes
  // nothing (restricting a user finance already restricted, unrestricting one not locked) writes,
  // tells and ends nothing: docs/decisions/0019, "an edit that changes nothing writes nothing".
  const reason = `Restricted by ${actor.fullname}.`;
  const isChanged = await context.db.transaction(async (tx) => {
    const changed = await setFinanceLock(tx, {
      id: target.id,
      isLocked: options.isLocked,
      reason,
    });
    if (!changed) return false;
    await notifyAccountLock(context, tx, { userIds: [target.id], isLocked: options.isLocked });
    if (options.isLocked) await endSessionsOf(tx, target.id, 'locked');
    await recordAudit(tx, {
      organizationId: target.organization_id,
      actor,
      action: options.isLocked ? 'user.restricted' : 'user.unlocked',
      objectType: 'user',
      objectId: target.id,
      changes: changesBetween(
        { is_locked: target.is_locked, lock_reason: target.lock_reason },
        options.isLocked
          ? { is_locked: true, lock_reason: reason }
          : { is_locked: false, lock_reason: null },
        ['is_locked', 'lock_reason'],
      ),
    });
    return true;
  });
  if (isChanged && options.isLocked) context.events.endSessions(target.id);
  const updated = await findUserById(context.db, target.id);
  if (!updated) throw notFound();
  if (isChanged)
    context.events.publish(updated.organization_id, 'update_user', { user_id: updated.id });
  return present(actor, updated);
}
