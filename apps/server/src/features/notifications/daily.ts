/**
 * The daily e-mail runs (features/jobs/worker.ts): the retirement warnings to owners and the
 * review reminders to reviewers, each at most once a milestone or a day, however many processes
 * run them.
 */
import {
  isReviewLate,
  notificationKey,
  retirementMilestoneOn,
  workingDaysBetween,
} from '@imprest/domain/notifications.ts';
import { retirementEscalationDays, retirementGraceDays } from '@imprest/domain/constants.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import type { AppContext } from '../../context.ts';
import { factsOf, loadRetirement, ownerNotice, queueNotices, type Notice } from './notices.ts';
import {
  findOrganizationNames,
  findPendingRetirementsDue,
  findReviewersOf,
  findWaitingSteps,
} from './queries.ts';
import { retirementWarningEmail, reviewReminderEmail, type DigestItem } from './templates.ts';

/**
 * The daily warning run (07:00 ORG_TIMEZONE): the owner of every pending retirement whose spec §8
 * warning escalates or passes the grace period today (or up to warningCatchUpDays ago, for a
 * missed run) gets it by e-mail, once per retirement and milestone. Answers how many were queued.
 */
export async function sendRetirementWarnings(
  context: AppContext,
  options: { today: string },
): Promise<number> {
  const { today } = options;
  // Due dates whose escalation or lock day lies in the last few days.
  const candidates = await findPendingRetirementsDue(context.db, {
    from: addDays(today, -(retirementGraceDays + 1) - 3),
    to: addDays(today, -retirementEscalationDays),
  });
  let queued = 0;
  for (const candidate of candidates) {
    const milestone = retirementMilestoneOn(candidate.dueDate, today);
    if (!milestone) continue;
    queued += await context.db.transaction(async (tx) => {
      const notice = await loadRetirement(tx, candidate.id);
      if (notice.retirementStatus !== 'pending') return 0;
      return queueNotices(
        tx,
        ownerNotice(notice.owner, () => ({
          kind: 'retirement_warning',
          key: notificationKey('retirement', notice.retirementId, 'warning', milestone),
          email: retirementWarningEmail({
            appUrl: context.config.appUrl,
            facts: factsOf(notice),
            dueDate: notice.dueDate,
            milestone,
          }),
        })),
      );
    });
  }
  return queued;
}

/**
 * The daily reminder run: every reviewer with a step waiting more than 3 working days gets one
 * digest of all the steps waiting for them (never their own requests, nor a request or retirement
 * round with a step they already answered), once per reviewer and day
 * however many processes run it (the key is reviewer + day). Answers how many were queued.
 */
export async function sendReviewReminders(
  context: AppContext,
  options: { today: string },
): Promise<number> {
  const { today } = options;
  const steps = await findWaitingSteps(context.db, context.config.orgTimezone);
  if (steps.length === 0) return 0;
  const organizationIds = [...new Set(steps.map((step) => step.organizationId))];
  const reviewers = await findReviewersOf(context.db, {
    organizationIds,
    roles: [...new Set(steps.map((step) => step.role))],
  });
  const names = await findOrganizationNames(context.db, organizationIds);
  const notices: Notice[] = [];
  for (const reviewer of reviewers) {
    const mine = steps.filter(
      (step) =>
        step.organizationId === reviewer.organization_id &&
        step.role === reviewer.role &&
        step.ownerId !== reviewer.id &&
        // One person answers one step of a request or retirement round (docs/decisions/0019).
        !step.answeredBy.includes(reviewer.id),
    );
    if (!mine.some((step) => isReviewLate(step.since, today))) continue;
    const items: DigestItem[] = mine.map((step) => ({
      kind: step.kind,
      requestId: step.requestId,
      ownerName: step.ownerName,
      purpose: step.purpose,
      amount: step.amount,
      currency: step.currency,
      workingDays: workingDaysBetween(step.since, today),
    }));
    notices.push({
      recipient: reviewer,
      kind: 'review_reminder',
      key: notificationKey('digest', reviewer.id, today),
      email: reviewReminderEmail({
        appUrl: context.config.appUrl,
        organizationName: names.get(reviewer.organization_id) ?? '',
        recipientName: reviewer.fullname,
        items,
      }),
    });
  }
  return context.db.transaction((tx) => queueNotices(tx, notices));
}
