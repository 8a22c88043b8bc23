import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { parseUserSettings } from './api/users.ts';
import { retirementMilestones } from './retirements.ts';

dayjs.extend(utc);

/** Every e-mail Imprest sends, by what it announces (docs/decisions/0011). */
export const notificationKinds = [
  'invitation',
  'password_reset',
  'review_requested',
  'review_upcoming',
  'request_approved',
  'request_rejected',
  'request_returned',
  'retirement_attached',
  'retirement_approved',
  'retirement_rejected',
  'retirement_warning',
  'account_locked',
  'account_unlocked',
  'review_reminder',
  'delegation_named',
  'delegation_ended',
] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** Kinds that mute_notification never silences (issue 10: invitations, resets and locks). */
export const unmutableKinds = [
  'invitation',
  'password_reset',
  'account_locked',
  'account_unlocked',
] as const satisfies readonly NotificationKind[];

/** Whether a user with these settings (the `settings` JSON text, spec §3) receives this kind. */
export function receivesNotification(settings: string | null, kind: NotificationKind): boolean {
  if ((unmutableKinds as readonly string[]).includes(kind)) return true;
  return !parseUserSettings(settings).mute_notification;
}

/** A reviewer's step counts as late after this many working days (issue 10: reminders). */
export const reminderWorkingDays = 3;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function checkedDay(name: string, value: string): dayjs.Dayjs {
  const day = dayjs.utc(value);
  if (!dayPattern.test(value) || day.format('YYYY-MM-DD') !== value)
    throw new RangeError(`${name} must be a date as YYYY-MM-DD`);
  return day;
}

/**
 * Working days (Monday to Friday) after `from` up to and including `to`, both `YYYY-MM-DD`:
 * a step that started on a Friday has waited 1 working day on Monday. 0 when `to` is not later.
 */
export function workingDaysBetween(from: string, to: string): number {
  const start = checkedDay('from', from);
  const end = checkedDay('to', to);
  const days = end.diff(start, 'day');
  if (days <= 0) return 0;
  const weeks = Math.floor(days / 7);
  let count = weeks * 5;
  for (let offset = weeks * 7 + 1; offset <= days; offset += 1) {
    const weekday = start.add(offset, 'day').day();
    if (weekday !== 0 && weekday !== 6) count += 1;
  }
  return count;
}

/** Whether a step waiting since `since` is late on `today` (more than 3 working days). */
export function isReviewLate(since: string, today: string): boolean {
  return workingDaysBetween(since, today) > reminderWorkingDays;
}

/** The spec §8 warnings that begin after the retirement is attached. */
export type RetirementMilestone = 'escalation' | 'grace';

/**
 * A day without a running server skips the daily warning run; the next run still sends a warning
 * that began at most this many days ago (each once: its key is per retirement and milestone).
 */
export const warningCatchUpDays = 3;

/**
 * The spec §8 warning that begins for a pending retirement due on `dueDate` and is to be e-mailed
 * on `today`: `escalation` ("before your account is blocked") from the escalation day, `grace`
 * (past the 30 days) from the first lock day, each within warningCatchUpDays of its start; the
 * first warning goes out with the attach e-mail.
 */
export function retirementMilestoneOn(dueDate: string, today: string): RetirementMilestone | null {
  const { escalatesOn, locksOn } = retirementMilestones(dueDate);
  const ago = (day: string) => dayjs.utc(today).diff(dayjs.utc(day), 'day');
  checkedDay('today', today);
  const sinceLock = ago(locksOn);
  if (sinceLock >= 0) return sinceLock < warningCatchUpDays ? 'grace' : null;
  const sinceEscalation = ago(escalatesOn);
  if (sinceEscalation >= 0 && sinceEscalation < warningCatchUpDays) return 'escalation';
  return null;
}

/**
 * Which steps of a reviewer chain (1-based) hear that an item reached `step`: that step's
 * reviewers, and with the matrix row's cascading_notification, at submission (step 1), every
 * later step's too, told in advance.
 */
export function stepsToNotify(options: {
  step: number;
  stepCount: number;
  isCascading: boolean;
}): { step: number; kind: 'review_requested' | 'review_upcoming' }[] {
  const { step, stepCount, isCascading } = options;
  const steps: { step: number; kind: 'review_requested' | 'review_upcoming' }[] = [
    { step, kind: 'review_requested' },
  ];
  if (isCascading && step === 1) {
    for (let later = 2; later <= stepCount; later += 1)
      steps.push({ step: later, kind: 'review_upcoming' });
  }
  return steps;
}

/** The owner's e-mail after a review of their request, or none while more steps remain. */
export function requestDecisionKind(
  status: string,
): 'request_approved' | 'request_rejected' | 'request_returned' | null {
  if (status === 'approved') return 'request_approved';
  if (status === 'rejected') return 'request_rejected';
  if (status === 'request_edit') return 'request_returned';
  return null;
}

/** The owner's e-mail after a review of their retirement, or none while more steps remain. */
export function retirementDecisionKind(
  status: string,
): 'retirement_approved' | 'retirement_rejected' | null {
  if (status === 'approved') return 'retirement_approved';
  if (status === 'rejected') return 'retirement_rejected';
  return null;
}

/**
 * The idempotency key of one e-mail: the event's parts joined by dots (`request.<id>.step.1.<user>`),
 * so the same event queued twice is one e-mail. Only letters, digits, `-` and `_` survive in a
 * part, which keeps the key usable as a Message-ID's left side.
 */
export function notificationKey(...parts: (string | number)[]): string {
  return parts.map((part) => String(part).replace(/[^A-Za-z0-9_-]/g, '-')).join('.');
}
