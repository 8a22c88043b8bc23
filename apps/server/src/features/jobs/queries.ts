import { outstandingRetirementStatuses } from '@imprest/domain/retirements.ts';
import { and, asc, eq, isNull, lt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { equalsConstant, inConstants } from '../../db/constants.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { requests, retirements, users } from '../../db/schema.ts';

/**
 * The advisory lock key of the lock job. The job takes it exclusively, so two processes running
 * it at the same moment take turns; a retirement submission takes it shared, so it never
 * interleaves with a run (see takeLockJobLock).
 */
const lockJobKey = 727004;

/**
 * Takes the lock job's advisory lock until the transaction ends: exclusive for a run of the job,
 * shared for a single user's release, so releases run side by side but never inside a run.
 */
export async function takeLockJobLock(tx: Executor, mode: 'exclusive' | 'shared'): Promise<void> {
  await tx.execute(
    mode === 'exclusive'
      ? sql`SELECT pg_advisory_xact_lock(${lockJobKey})`
      : sql`SELECT pg_advisory_xact_lock_shared(${lockJobKey})`,
  );
}

/** An overdue retirement: outstanding (pending or rejected) and due before `before`. */
function isOverdue(before: string | Placeholder): SQL {
  return and(
    inConstants(retirements.status, outstandingRetirementStatuses),
    lt(retirements.due_date, before),
  ) as SQL;
}

/** The overdue retirement a lock reason names: one per owner, the longest overdue. */
export type OverdueRetirement = {
  ownerId: string;
  purpose: string;
  approvalNumber: string | null;
  dueDate: string;
};

/**
 * The longest-overdue retirement of every active, unlocked owner with a retirement due before
 * `before` (in one organisation, or all); their owners are the ones the job locks.
 */
export async function findOverdueUnlockedOwners(
  tx: Executor,
  options: { before: string; organizationId?: string },
): Promise<OverdueRetirement[]> {
  const rows = await tx
    .selectDistinctOn([retirements.retirement_owner_id], {
      ownerId: retirements.retirement_owner_id,
      purpose: requests.purpose,
      approvalNumber: requests.approval_number,
      dueDate: retirements.due_date,
    })
    .from(retirements)
    .innerJoin(requests, eq(requests.id, retirements.request_id))
    .innerJoin(users, eq(users.id, retirements.retirement_owner_id))
    .where(
      and(
        isOverdue(options.before),
        eq(users.is_locked, false),
        isNull(users.deleted_at),
        options.organizationId ? eq(users.organization_id, options.organizationId) : undefined,
      ),
    )
    .orderBy(retirements.retirement_owner_id, asc(retirements.due_date), asc(retirements.id));
  return rows;
}

export type ChangedUser = { id: string; fullname: string; organization_id: string };

const changedColumns = {
  id: users.id,
  fullname: users.fullname,
  organization_id: users.organization_id,
};

/**
 * Locks the given users for the system with their reasons, skipping anyone locked meanwhile (by
 * finance or another run); answers those it locked.
 */
export async function lockUsersForSystem(
  tx: Executor,
  locks: { userId: string; reason: string }[],
): Promise<ChangedUser[]> {
  if (locks.length === 0) return [];
  const result = await tx.execute<ChangedUser>(sql`
    UPDATE ${users} AS u
    SET is_locked = true, locked_by = 'system', lock_reason = c.reason, locked_at = now(),
        modified_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(locks)}::jsonb) AS c("userId" uuid, reason text)
    WHERE u.id = c."userId" AND NOT u.is_locked AND u.deleted_at IS NULL
    RETURNING u.id, u.fullname, u.organization_id`);
  return result.rows;
}

/**
 * unlockClearedSystemLocks for one user of an organisation, prepared under a name (issue 13):
 * every submission of a retirement sends it, and PostgreSQL planned it afresh on each call
 * (0.23 ms, more than it took to run; decision 0026).
 */
export async function unlockClearedSystemLockOf(
  tx: Executor,
  options: { before: string; organizationId: string; userId: string },
): Promise<ChangedUser[]> {
  return unlockClearedUserQuery(tx).execute(options);
}

const unlockClearedUserQuery = preparedOnce((db: Executor) =>
  unlockClearedSystemLocks(db, {
    before: sql.placeholder('before'),
    organizationId: sql.placeholder('organizationId'),
    userId: sql.placeholder('userId'),
  }).prepare('unlock_cleared_user'),
);

/**
 * Lifts the system's locks of users (in one organisation, all, or just `userId`) none of whose
 * retirements is due before `before` any longer; a lock set by finance is never touched.
 * Answers (when awaited) the users it unlocked; its values may be placeholders, for the prepared
 * one above.
 */
export function unlockClearedSystemLocks(
  tx: Executor,
  options: {
    before: string | Placeholder;
    organizationId?: string | Placeholder;
    userId?: string | Placeholder;
  },
) {
  const overdue = tx
    .select({ one: sql`1` })
    .from(retirements)
    .where(and(eq(retirements.retirement_owner_id, users.id), isOverdue(options.before)));
  return (
    tx
      .update(users)
      // Constants in the text, so the prepared one is sent its placeholders only (db/constants.ts).
      .set({
        is_locked: sql`false`,
        locked_by: sql`null`,
        lock_reason: sql`null`,
        locked_at: sql`null`,
        modified_at: sql`now()`,
      })
      .where(
        and(
          sql`${users.is_locked}`,
          equalsConstant(users.locked_by, 'system'),
          isNull(users.deleted_at),
          options.organizationId ? eq(users.organization_id, options.organizationId) : undefined,
          options.userId ? eq(users.id, options.userId) : undefined,
          sql`NOT EXISTS ${overdue}`,
        ),
      )
      .returning(changedColumns)
  );
}
