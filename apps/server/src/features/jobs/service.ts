import type { LockOverdueResponse } from '@imprest/domain/api/jobs.ts';
import { retirementGraceDays } from '@imprest/domain/constants.ts';
import { requestCategoryLabels, type RequestCategory } from '@imprest/domain/enums.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import { overdueBefore } from '@imprest/domain/retirements.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit, type AuditEvent } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { notifyAccountLock } from '../notifications/service.ts';
import { canRunLockJob } from './policy.ts';
import { presentLockRun } from './presenter.ts';
import {
  findOverdueUnlockedOwners,
  lockUsersForSystem,
  takeLockJobLock,
  unlockClearedSystemLockOf,
  unlockClearedSystemLocks,
  type ChangedUser,
  type OverdueRetirement,
} from './queries.ts';

export type LockRun = { asOf: string; locked: ChangedUser[]; unlocked: ChangedUser[] };

/** `YYYY-MM-DD` as people read dates here (spec §9: en-GB). */
function britishDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** The reason a system lock records (decisions §4: each lock records its reason), in words. */
export function systemLockReason(retirement: OverdueRetirement): string {
  const label = requestCategoryLabels[retirement.purpose as RequestCategory] ?? retirement.purpose;
  const number = retirement.approvalNumber ? ` (${retirement.approvalNumber})` : '';
  return `Retirement of ${label}${number} is more than ${retirementGraceDays} days past its due date of ${britishDay(retirement.dueDate)}.`;
}

/**
 * The lock job's changes inside the caller's transaction (decisions §4): locks every active,
 * unlocked owner of a pending or rejected retirement more than 30 days past due, and lifts the
 * system's locks of those with none left. Finance's locks are never touched. Takes the job's
 * advisory lock first, so concurrent runs take turns and each user is locked once; publishes nothing.
 */
export async function applyLockRules(
  tx: Executor,
  options: { asOf: string; organizationId?: string },
): Promise<LockRun> {
  await takeLockJobLock(tx, 'exclusive');
  const before = overdueBefore(options.asOf);
  const scope = options.organizationId ? { organizationId: options.organizationId } : {};
  const unlocked = await unlockClearedSystemLocks(tx, { before, ...scope });
  const overdue = await findOverdueUnlockedOwners(tx, { before, ...scope });
  const locked = await lockUsersForSystem(
    tx,
    overdue.map((retirement) => ({
      userId: retirement.ownerId,
      reason: systemLockReason(retirement),
    })),
  );
  return { asOf: options.asOf, locked, unlocked };
}

/**
 * Runs the lock job as of a day (`YYYY-MM-DD`) in one transaction, for one organisation or, without
 * `organizationId`, for all (the midnight run), and tells each changed user's sessions after commit.
 */
export async function lockOverdueUsers(
  context: AppContext,
  options: {
    asOf: string;
    organizationId?: string;
    /** The director who ran it now; the midnight run is the system's. */
    actor?: { id: string; fullname: string };
  },
): Promise<LockOverdueResponse> {
  const run = await context.db.transaction(async (tx) => {
    const changes = await applyLockRules(tx, options);
    // Each changed user hears of it by e-mail, muted or not (issue 10).
    await notifyAccountLock(context, tx, {
      userIds: changes.locked.map((user) => user.id),
      isLocked: true,
    });
    await notifyAccountLock(context, tx, {
      userIds: changes.unlocked.map((user) => user.id),
      isLocked: false,
    });
    const lockChange = (user: ChangedUser, isLocked: boolean): AuditEvent => ({
      organizationId: user.organization_id,
      actor: options.actor ?? null,
      action: isLocked ? 'user.locked' : 'user.unlocked',
      objectType: 'user',
      objectId: user.id,
      changes: { is_locked: { from: !isLocked, to: isLocked } },
    });
    await recordAudit(
      tx,
      ...changes.locked.map((user) => lockChange(user, true)),
      ...changes.unlocked.map((user) => lockChange(user, false)),
    );
    return changes;
  });
  for (const user of [...run.locked, ...run.unlocked]) {
    context.events.publish(user.organization_id, 'update_user', { user_id: user.id });
  }
  return presentLockRun(run);
}

/** `POST jobs/lock-overdue` (decisions §5): a director runs the job now for their organisation. */
export async function runLockJobNow(
  context: AppContext,
  options: { actor: Actor; asOf: string | undefined },
): Promise<LockOverdueResponse> {
  const { actor, asOf } = options;
  if (!canRunLockJob(actor))
    throw new AppError('forbidden', 'Only a director can run the lock job.');
  // Judging by another day is for demonstrations only (decisions §1, §5).
  if (asOf !== undefined && !context.config.isDemo)
    throw new AppError('bad_request', 'as_of is accepted only in demo mode.', {
      details: [{ path: 'as_of', message: 'accepted only in demo mode' }],
    });
  return lockOverdueUsers(context, {
    asOf: asOf ?? todayIn(context.config.orgTimezone),
    organizationId: actor.organization_id,
    actor,
  });
}

/**
 * For the retirements service, inside its submit (or resubmit) transaction and after the
 * retirement's new status is written: lifts the owner's system lock at once when no retirement of
 * theirs is overdue any more. Takes the job's advisory lock shared, so it waits for a running job
 * (which may just have locked the owner) instead of racing it. A finance lock stays. Answers
 * whether it unlocked; the caller publishes `update_user` after commit when it did.
 */
export async function releaseSystemLockIfClear(
  tx: Executor,
  options: { organizationId: string; userId: string; asOf: string },
): Promise<boolean> {
  await takeLockJobLock(tx, 'shared');
  const unlocked = await unlockClearedSystemLockOf(tx, {
    before: overdueBefore(options.asOf),
    organizationId: options.organizationId,
    userId: options.userId,
  });
  return unlocked.length > 0;
}
