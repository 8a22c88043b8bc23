import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { isCalendarDayText } from './api/common.ts';
import { fileNamePrefixLength, retirementDueDays } from './constants.ts';
import { todayIn } from './days.ts';
import {
  attachmentType,
  requestCategoryLabels,
  requestCategoryNames,
  type AttachmentType,
  type RequestCategory,
  type RequestStatus,
  type Role,
} from './enums.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The fixed reviewer hierarchy, lowest rank first (spec §4). */
export const reviewerHierarchy = [
  'petty_cash_custodian',
  'finance_officer',
  'executive_secretary',
  'director',
  'board_chairman',
] as const;
export type ReviewerRole = (typeof reviewerHierarchy)[number];

/** Whether a role can be a step of a reviewer chain. */
export function isReviewerRole(role: string): role is ReviewerRole {
  return (reviewerHierarchy as readonly string[]).includes(role);
}

/** Rank of a role in the reviewer hierarchy (0 = petty cash custodian), or -1 for non-reviewers. */
export function reviewerRank(role: Role): number {
  return (reviewerHierarchy as readonly string[]).indexOf(role);
}

/** Up to four reviewers per request (spec §9). */
export const maxReviewers = 4;

/** What a reviewer may answer (spec §4). */
export const reviewDecisions = ['approved', 'rejected', 'request_edit'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];

export const reviewStatuses = ['pending', ...reviewDecisions] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];

const reviewerTitles = [
  'First Reviewer',
  'Second Reviewer',
  'Third Reviewer',
  'Fourth Reviewer',
] as const;

/** The label of a reviewer card by its step, 1-based: 'First Reviewer' … 'Fourth Reviewer' (spec §3). */
export function reviewerTitle(step: number): string {
  const title = reviewerTitles[step - 1];
  if (!title) throw new RangeError(`step must be 1–${maxReviewers}`);
  return title;
}

type ReviewStep = { step: number; status: string };

/** The review that acts next: the pending one with the lowest step (spec §4: reviews act in order). */
export function firstPendingReview<T extends ReviewStep>(reviews: readonly T[]): T | undefined {
  let first: T | undefined;
  for (const review of reviews) {
    if (review.status === 'pending' && (!first || review.step < first.step)) first = review;
  }
  return first;
}

/** Request statuses that still wait for a reviewer. */
export const reviewableStatuses = [
  'pending',
  'on_progress',
] as const satisfies readonly RequestStatus[];

/** Whether a request still waits for a reviewer. */
export function isAwaitingReview(status: string): boolean {
  return (reviewableStatuses as readonly string[]).includes(status);
}

/**
 * The role a request waits for (requests.next_reviewer_role): the first pending review's while the
 * request awaits review, null once approved, rejected or returned for edits.
 */
export function nextReviewerRole(
  status: string,
  reviews: readonly (ReviewStep & { reviewer_role: string })[],
): string | null {
  if (!isAwaitingReview(status)) return null;
  return firstPendingReview(reviews)?.reviewer_role ?? null;
}

/**
 * The request status once the first pending review is answered (decisions §3): any reject →
 * rejected, a return → request_edit, an approval → approved when it was the last pending step,
 * otherwise on_progress. `isComplete` says the chain has finished (spec §4).
 */
export function statusAfterReview(
  reviews: readonly ReviewStep[],
  decision: ReviewDecision,
): { status: RequestStatus; isComplete: boolean } {
  const current = firstPendingReview(reviews);
  if (!current) throw new Error('no pending review to answer');
  if (decision === 'rejected') return { status: 'rejected', isComplete: true };
  if (decision === 'request_edit') return { status: 'request_edit', isComplete: false };
  const isLast = reviews.every((review) => review === current || review.status === 'approved');
  return isLast
    ? { status: 'approved', isComplete: true }
    : { status: 'on_progress', isComplete: false };
}

/** A review step as the one-person-one-step rule reads it: who answered it, if anyone. */
export type AnsweredStep = { id: string; status: string; reviewer_id: string | null };

/**
 * Whether a user answered a step other than `stepId` of these reviews (a request's, or one round of
 * a retirement's): one person answers one step, so a delegate who holds a second role through a
 * delegation cannot approve the same request twice, a role holder who answered an earlier step as
 * a delegate cannot answer their own, and a reviewer whose position changed mid-chain does not
 * answer the chain twice (docs/decisions/0019 "One person, one step").
 */
export function hasAnsweredAnotherStep(
  reviews: readonly AnsweredStep[],
  userId: string,
  stepId: string,
): boolean {
  return reviews.some(
    (review) =>
      review.id !== stepId && review.status !== 'pending' && review.reviewer_id === userId,
  );
}

/**
 * Whether a user may answer the request's next review in their own right (decisions §3 and §9):
 * the request waits for review, the user's role is the first pending step's role, the user does
 * not own the request and has not answered another step of it (docs/decisions/0019).
 */
export function canReview(options: {
  actor: { id: string; role: Role };
  request: { request_owner_id: string; current_status: string; is_latest: boolean };
  reviews: readonly (ReviewStep & AnsweredStep & { reviewer_role: string })[];
}): boolean {
  const { actor, request } = options;
  if (!request.is_latest || !isAwaitingReview(request.current_status)) return false;
  if (request.request_owner_id === actor.id) return false;
  const current = firstPendingReview(options.reviews);
  if (current?.reviewer_role !== actor.role) return false;
  return !hasAnsweredAnotherStep(options.reviews, actor.id, current.id);
}

/**
 * Whether a reviewer at or below the user's rank still has an empty comment (spec §4), that is,
 * whether the chain has not yet reached this user.
 */
export function hasEmptyCommentAtOrBelow(
  reviews: readonly { reviewer_role: string; comments: string }[],
  role: Role,
): boolean {
  const rank = reviewerRank(role);
  return reviews.some(
    (review) =>
      isReviewerRole(review.reviewer_role) &&
      reviewerRank(review.reviewer_role) <= rank &&
      !review.comments,
  );
}

/**
 * How an approval number is written: the year's prefix, then the sequence padded with zeros to
 * at least `digits` digits. The server's SQL writes it from these parts when PostgreSQL draws the
 * number (reviews/queries.ts, docs/decisions/0054).
 */
export const approvalNumberFormat = {
  prefix: (year: number): string => `AP-${year}-`,
  digits: 5,
} as const;

/** The approval number of a fully approved request: `AP-<year>-<5-digit sequence>` (decisions §3). */
export function approvalNumber(year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1)
    throw new RangeError('sequence must be a positive integer');
  const { prefix, digits } = approvalNumberFormat;
  return `${prefix(year)}${String(sequence).padStart(digits, '0')}`;
}

/** 'ap-', 'AP-2026', 'ap-2026-000': the start of an approval number, as a search term. */
const approvalNumberStartPattern = /^ap-\d{0,4}(-\d{0,9})?$/i;

/**
 * The start of an approval number a search term spells, upper-cased ('ap-2026-00' →
 * 'AP-2026-00'), or null when the term is anything else. A list search for it matches approval
 * numbers that begin with it, and nothing else.
 */
export function approvalNumberSearchPrefix(term: string): string | null {
  const trimmed = term.trim();
  return approvalNumberStartPattern.test(trimmed) ? trimmed.toUpperCase() : null;
}

/**
 * The purposes a search term names: those whose key or label contains it, without case ('cash'
 * names pettyCash, 'accommodation' names accomodation). A list search matches requests of these
 * purposes, and requests whose owner's name or approval number contains the term.
 */
export function purposesMatching(term: string): RequestCategory[] {
  const needle = term.trim().toLowerCase();
  if (needle === '') return [];
  return requestCategoryNames.filter(
    (purpose) =>
      purpose.toLowerCase().includes(needle) ||
      requestCategoryLabels[purpose].toLowerCase().includes(needle),
  );
}

/**
 * Whether a search term can only name people: it is not the start of an approval number, names no
 * purpose, and holds a character no approval number has (they hold A, P, digits and dashes), so of
 * a list search's matches (purposesMatching) only owners' names can contain it.
 */
export function searchNamesOnly(term: string): boolean {
  const trimmed = term.trim();
  return (
    approvalNumberSearchPrefix(trimmed) === null &&
    purposesMatching(trimmed).length === 0 &&
    !/^[ap\d-]*$/i.test(trimmed)
  );
}

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateTimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * Whether a text is `YYYY-MM-DD` or a full ISO date-time with a zone (decisions §8), of a day the
 * calendar has: the engine's date parser moves 30 February forward to 2 March rather than refuse it.
 */
export function isExpenditureDateText(value: string): boolean {
  if (datePattern.test(value)) return isCalendarDayText(value);
  return (
    dateTimePattern.test(value) && isCalendarDayText(value.slice(0, 10)) && dayjs(value).isValid()
  );
}

/**
 * The latest expenditure day taken: its retirement falls due `retirementDueDays` after it
 * (decisions §4), and that due date must still be a `YYYY-MM-DD` day, which every reader of due
 * dates expects (a day of the year 10000 made them throw). 17 December 9999.
 */
export const latestExpenditureDay = dayjs
  .utc('9999-12-31')
  .subtract(retirementDueDays, 'day')
  .format('YYYY-MM-DD');

/** Whether an expenditure day (from expenditureDay) lies beyond latestExpenditureDay. */
export function isTooFarAhead(day: string): boolean {
  return !datePattern.test(day) || day > latestExpenditureDay;
}

/**
 * The calendar day (`YYYY-MM-DD`) of an expenditure date: a plain date is taken as is; a date-time
 * is read in the organisation's time zone, so a browser's local midnight lands on the day it meant.
 */
export function expenditureDay(value: string, timeZone: string): string | null {
  if (!isExpenditureDateText(value)) return null;
  if (datePattern.test(value)) return value;
  return dayjs(value).tz(timeZone).format('YYYY-MM-DD');
}

/** Whether a calendar day lies before today (spec §5: the calendar disallows dates before today). */
export function isBeforeToday(day: string, timeZone: string, now: Date = new Date()): boolean {
  return day < todayIn(timeZone, now);
}

/** A stored file name without its random prefix, for display (spec §9). */
export function displayFileName(storedName: string): string {
  return storedName.length > fileNamePrefixLength
    ? storedName.slice(fileNamePrefixLength)
    : storedName;
}

/** An attached file as requests present it: the stored name and its type by extension (spec §3). */
export function requestFile(storedName: string): { name: string; type: AttachmentType } {
  return { name: storedName, type: attachmentType(storedName) };
}

export { todayIn, yearIn } from './days.ts';
