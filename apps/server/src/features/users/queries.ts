import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { organizations, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type UserWithOrganization = UserRow & { organization_name: string };

const columns = { ...getTableColumns(users), organization_name: organizations.name };

/** An active (not deleted) user by id, with the organisation's name. */
export async function findUserById(
  db: Executor,
  id: string,
): Promise<UserWithOrganization | undefined> {
  const [row] = await db
    .select(columns)
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organization_id))
    .where(and(eq(users.id, id), isNull(users.deleted_at)));
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
