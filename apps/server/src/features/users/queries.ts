import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { organizations, users } from '../../db/schema.ts';
import { containsPattern } from '../../db/like.ts';

export type UserRow = typeof users.$inferSelect;
export type UserWithOrganization = UserRow & { organization_name: string };
/** A user as the app shows them and acts for them: every column but the password's hash. */
export type UserProfile = Omit<UserWithOrganization, 'password_hash'>;

const columns = { ...getTableColumns(users), organization_name: organizations.name };

const { password_hash, ...profileColumnsOfUser } = getTableColumns(users);
/**
 * Every column of a user but the password's hash, which stays in the database but where it is
 * needed (sign-in, a password change, whether an invitation is open): the caller read on every
 * call and the users list read these, so the hash never rides along into a log or an answer.
 */
export const userProfileColumns = profileColumnsOfUser;

/** The query of an active (not deleted) user by id, with the organisation's name. */
function userByIdQuery(db: Executor, id: string) {
  return db
    .select(columns)
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organization_id))
    .where(and(eq(users.id, id), isNull(users.deleted_at)));
}

/** An active (not deleted) user by id, with the organisation's name. */
export async function findUserById(
  db: Executor,
  id: string,
): Promise<UserWithOrganization | undefined> {
  const [row] = await userByIdQuery(db, id);
  return row;
}

/** A user's password hash, read where a password is checked (null: the invitation is open). */
export async function findPasswordHash(db: Executor, id: string): Promise<string | null> {
  const [row] = await db
    .select({ hash: users.password_hash })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deleted_at)));
  return row?.hash ?? null;
}

/** The same user, its row locked for this transaction (the organisation's row is not). */
export async function lockUserById(
  db: Executor,
  id: string,
): Promise<UserWithOrganization | undefined> {
  const [row] = await userByIdQuery(db, id).for('update', { of: users });
  return row;
}

/** An active user by e-mail address, compared without case. */
export async function findUserByEmail(
  db: Executor,
  email: string,
): Promise<UserWithOrganization | undefined> {
  const [row] = await db
    .select(columns)
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organization_id))
    .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deleted_at)));
  return row;
}

/** Whether any user exists at all (first-run setup). */
export async function hasAnyUser(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

/** Records a successful sign-in. */
export async function touchLastLoggedIn(db: Executor, id: string): Promise<void> {
  await db
    .update(users)
    .set({ last_logged_in: sql`now()` })
    .where(eq(users.id, id));
}

/** The e-mails among `emails` (lower case) that any user already holds, deactivated ones too. */
export async function takenEmails(db: Executor, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db
    .select({ email: sql<string>`lower(${users.email})` })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, emails));
  return new Set(rows.map((row) => row.email));
}

/** Inserts users with one multi-row INSERT; returns the new rows in input order. */
export async function insertUsers(
  db: Executor,
  rows: (typeof users.$inferInsert)[],
): Promise<UserRow[]> {
  if (rows.length === 0) return [];
  return db.insert(users).values(rows).returning();
}

export type UserListFilter = {
  organizationId: string;
  department: string | null;
  role: string | null;
  search: string | undefined;
};

function listConditions(filter: UserListFilter) {
  return and(
    eq(users.organization_id, filter.organizationId),
    isNull(users.deleted_at),
    filter.department ? eq(users.department, filter.department) : undefined,
    filter.role ? eq(users.role, filter.role) : undefined,
    // The expression of users_search_idx (migration 0009).
    filter.search
      ? sql`lower(${users.fullname} || ' ' || ${users.email}) LIKE ${containsPattern(filter.search)}`
      : undefined,
  );
}

/** One page of an organisation's active users by name, and how many match. */
export async function listUsers(
  db: Executor,
  filter: UserListFilter & { page: number; perPage: number },
): Promise<{ rows: UserProfile[]; total: number }> {
  const where = listConditions(filter);
  const [rows, total] = await pipelined(db, [
    (on) =>
      on
        .select({ ...userProfileColumns, organization_name: organizations.name })
        .from(users)
        .innerJoin(organizations, eq(organizations.id, users.organization_id))
        .where(where)
        .orderBy(asc(sql`lower(${users.fullname})`), asc(users.id))
        .limit(filter.perPage)
        .offset((filter.page - 1) * filter.perPage),
    (on) => on.$count(users, where),
  ]);
  return { rows, total };
}

/**
 * Locks the organisation's active directors' rows and counts them, so two directors cannot
 * remove each other at once and leave none.
 */
export async function lockDirectors(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.organization_id, organizationId),
        eq(users.role, 'director'),
        isNull(users.deleted_at),
      ),
    )
    .for('update');
  return rows.map((row) => row.id);
}

/** Sets fields of a user and its modification time. */
export async function updateUser(
  db: Executor,
  id: string,
  values: { [K in keyof typeof users.$inferInsert]?: (typeof users.$inferInsert)[K] | SQL },
): Promise<void> {
  await db
    .update(users)
    .set({ ...values, modified_at: sql`now()` })
    .where(eq(users.id, id));
}

/**
 * Restricts or unrestricts a user as finance does (decisions §9), only where that changes the
 * row: a user finance already restricted, or one not locked at all, is left alone. A lock the
 * midnight job set becomes finance's (it no longer lifts when the retirements are in). Answers
 * whether it changed, decided under the row's lock, so two answers at once change it once.
 */
export async function setFinanceLock(
  db: Executor,
  options: { id: string; isLocked: boolean; reason: string },
): Promise<boolean> {
  const changed = await db
    .update(users)
    .set(
      options.isLocked
        ? {
            is_locked: true,
            locked_by: 'finance',
            lock_reason: options.reason,
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
    .where(
      and(
        eq(users.id, options.id),
        options.isLocked
          ? sql`(NOT ${users.is_locked} OR ${users.locked_by} IS DISTINCT FROM 'finance')`
          : eq(users.is_locked, true),
      ),
    )
    .returning({ id: users.id });
  return changed.length > 0;
}
