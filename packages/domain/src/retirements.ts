import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { isCalendarDayText } from './api/common.ts';
import { retirementDueDays, retirementEscalationDays, retirementGraceDays } from './constants.ts';
import type { RetirementStatus, Role } from './enums.ts';
import { isAdmin } from './permissions.ts';
import { firstPendingReview } from './requests.ts';

dayjs.extend(utc);

function checkedDay(name: string, value: string): string {
  if (!isCalendarDayText(value)) {
    throw new RangeError(`${name} must be a date as YYYY-MM-DD`);
  }
  return value;
}

/**
 * The due date of a retirement attached on `attachDate` to a request spent on `expenditureDate`
 * (decisions §4): the later of the two days plus retirementDueDays, as `YYYY-MM-DD`.
 */
export function retirementDueDate(expenditureDate: string, attachDate: string): string {
  const spent = checkedDay('expenditureDate', expenditureDate);
  const attached = checkedDay('attachDate', attachDate);
  // YYYY-MM-DD texts compare in calendar order.
  const later = spent > attached ? spent : attached;
  // Calendar arithmetic in UTC, so no daylight-saving shift can move the day.
  return dayjs.utc(later).add(retirementDueDays, 'day').format('YYYY-MM-DD');
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return dayjs.utc(checkedDay('to', to)).diff(dayjs.utc(checkedDay('from', from)), 'day');
}

/** The day `days` after `day` (`YYYY-MM-DD`), in calendar arithmetic. */
export function addDays(day: string, days: number): string {
  return dayjs.utc(checkedDay('day', day)).add(days, 'day').format('YYYY-MM-DD');
}

/** The retirement warnings of spec §8, verbatim (typos included). */
export const retirementWarningMessages = {
  pastGracePeriod:
    "You are retirement is past due the 30 days grace period. You're account might be blocked from making further requests. Please submit a retirement to avoid further penalties.",
  beforeBlocked:
    'No retirement data has been submitted for the current request. Please do so before your account is blocked from making requests',
  beforeGracePeriod:
    'No retirement data has been submitted for the current request. Please do so before the 30 day grace period',
} as const;

export type RetirementWarning = {
  /** `error` past the grace period, `warning` before it. */
  level: 'error' | 'warning';
  message: string;
};

/**
 * The warning a pending retirement shows (spec §8, §9): an error once the due date is more than
 * retirementGraceDays past; from retirementEscalationDays past until then, the warning that the
 * account may be blocked; before that (including before the due date), the reminder of the grace
 * period. Spec §8's "between 2 and 4 weeks" runs up to the end of the 30-day grace period here, so
 * no day falls back to the milder message (docs/decisions/0008).
 */
export function retirementWarning(dueDate: string, today: string): RetirementWarning {
  const daysPast = daysBetween(dueDate, today);
  if (daysPast > retirementGraceDays)
    return { level: 'error', message: retirementWarningMessages.pastGracePeriod };
  if (daysPast >= retirementEscalationDays)
    return { level: 'warning', message: retirementWarningMessages.beforeBlocked };
  return { level: 'warning', message: retirementWarningMessages.beforeGracePeriod };
}

/**
 * The days that matter to the owner of an outstanding retirement: when the warning escalates, and
 * the first day the midnight lock job may lock the account (decisions §4: more than 30 days past due).
 */
export function retirementMilestones(dueDate: string): { escalatesOn: string; locksOn: string } {
  return {
    escalatesOn: addDays(dueDate, retirementEscalationDays),
    locksOn: addDays(dueDate, retirementGraceDays + 1),
  };
}

/**
 * The lock job's line (decisions §4): a pending or rejected retirement is overdue on `asOf` when
 * its due date lies before the returned day, i.e. more than retirementGraceDays in the past.
 */
export function overdueBefore(asOf: string): string {
  return addDays(asOf, -retirementGraceDays);
}

/** Retirement statuses that still owe the owner's account of the money (the lock job's criterion). */
export const outstandingRetirementStatuses = [
  'pending',
  'rejected',
] as const satisfies readonly RetirementStatus[];

/** Whether a retirement still owes its owner's account of the money. */
export function isOutstandingRetirement(status: RetirementStatus): boolean {
  return (outstandingRetirementStatuses as readonly string[]).includes(status);
}

/** Retirement form modes (spec §2). */
export const retirementFormModes = ['admin', 'edit', 'preview'] as const;
export type RetirementFormMode = (typeof retirementFormModes)[number];

/**
 * The retirement form's mode (spec §2): `admin` for a viewer with admin permission who is not the
 * owner; otherwise `edit` while it is pending; otherwise the read-only `preview`.
 */
export function retirementFormMode(options: {
  role: Role;
  isOwner: boolean;
  status: RetirementStatus;
}): RetirementFormMode {
  if (isAdmin(options.role) && !options.isOwner) return 'admin';
  if (options.status === 'pending') return 'edit';
  return 'preview';
}

/**
 * The cash a reviewer may mark as returned (spec §2: shown only when amountReceived is greater than
 * amount_spent): the difference, or 0 when nothing is left over. An empty amount counts as 0 (spec §5).
 */
export function cashToReturn(amountReceived: number, amountSpent: number | null): number {
  const difference = Math.round((amountReceived - (amountSpent ?? 0)) * 100) / 100;
  return difference > 0 ? difference : 0;
}

/**
 * The retirement form's amount as typed (spec §5): commas removed, an empty amount counts as 0;
 * NaN for anything that is not a number after that.
 */
export function parseRetirementAmount(text: string): number {
  const cleaned = text.replace(/,/g, '').trim();
  if (cleaned === '') return 0;
  return /^\d+(\.\d{1,2})?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
}

type RoundReview = { round: number; step: number; status: string };

/** The reviews of a retirement's latest submission (spec §4: each submission is a round of its own). */
export function currentRetirementRound<T extends RoundReview>(reviews: readonly T[]): T[] {
  const round = Math.max(0, ...reviews.map((review) => review.round));
  return reviews.filter((review) => review.round === round);
}

/**
 * The step a retirement waits for: the first pending review of its latest round. An earlier,
 * rejected round keeps its unreached steps pending forever, so they never count.
 */
export function currentRetirementStep<T extends RoundReview>(reviews: readonly T[]): T | undefined {
  return firstPendingReview(currentRetirementRound(reviews));
}
