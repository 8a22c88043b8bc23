import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retirementDueDays } from './constants.ts';
import type { RetirementStatus, Role } from './enums.ts';
import {
  addDays,
  cashToReturn,
  currentRetirementRound,
  currentRetirementStep,
  daysBetween,
  isOutstandingRetirement,
  overdueBefore,
  parseRetirementAmount,
  retirementDueDate,
  retirementFormMode,
  retirementMilestones,
  retirementWarning,
  retirementWarningMessages,
} from './retirements.ts';

describe('retirementDueDate', () => {
  it('is 14 days', () => {
    expect(retirementDueDays).toBe(14);
  });

  it.each([
    // expenditure date, attach date → due date
    ['2026-03-10', '2026-03-01', '2026-03-24'], // spent after the attach day: from the expenditure date
    ['2026-03-01', '2026-03-10', '2026-03-24'], // attached after the spending: from the attach day
    ['2026-03-10', '2026-03-10', '2026-03-24'], // the same day
    ['2026-02-20', '2026-02-20', '2026-03-06'], // across February of a common year
    ['2028-02-20', '2028-02-20', '2028-03-05'], // across February of a leap year
    ['2026-12-25', '2026-12-20', '2027-01-08'], // across the year end
    ['2026-03-25', '2026-03-20', '2026-04-08'], // across a European daylight-saving change
    ['2025-01-31', '2026-01-31', '2026-02-14'], // a year apart: the later wins
  ])('%s, attached %s → %s', (expenditureDate, attachDate, due) => {
    expect(retirementDueDate(expenditureDate, attachDate)).toBe(due);
  });

  it.each([
    ['2026-02-30', '2026-03-01'],
    ['2026-03-01', '2026-3-1'],
    ['2026-03-01T10:00:00Z', '2026-03-01'],
    ['', '2026-03-01'],
  ])('refuses %j / %j', (expenditureDate, attachDate) => {
    expect(() => retirementDueDate(expenditureDate, attachDate)).toThrow(RangeError);
  });
});

describe('retirementWarning (spec §8)', () => {
  const { pastGracePeriod, beforeBlocked, beforeGracePeriod } = retirementWarningMessages;

  it('holds the specification texts verbatim', () => {
    expect(pastGracePeriod).toBe(
      "You are retirement is past due the 30 days grace period. You're account might be blocked from making further requests. Please submit a retirement to avoid further penalties.",
    );
    expect(beforeBlocked).toBe(
      'No retirement data has been submitted for the current request. Please do so before your account is blocked from making requests',
    );
    expect(beforeGracePeriod).toBe(
      'No retirement data has been submitted for the current request. Please do so before the 30 day grace period',
    );
  });

  it.each([
    // due date, today → level, message
    ['2026-03-10', '2026-02-20', 'warning', beforeGracePeriod], // not due yet
    ['2026-03-10', '2026-03-10', 'warning', beforeGracePeriod], // due today
    ['2026-03-10', '2026-03-23', 'warning', beforeGracePeriod], // 13 days past
    ['2026-03-10', '2026-03-24', 'warning', beforeBlocked], // 14 days: escalates at 2 weeks
    ['2026-03-10', '2026-04-07', 'warning', beforeBlocked], // 28 days: 4 weeks
    ['2026-03-10', '2026-04-09', 'warning', beforeBlocked], // 30 days: the grace period's last day
    ['2026-03-10', '2026-04-10', 'error', pastGracePeriod], // 31 days: past the grace period
    ['2025-12-20', '2026-11-23', 'error', pastGracePeriod], // long past, across a year end
  ] as const)('due %s, today %s → %s', (dueDate, today, level, message) => {
    expect(retirementWarning(dueDate, today)).toEqual({ level, message });
  });

  it('never gets milder as the days pass', () => {
    const severity = (dueDate: string, today: string) =>
      ([beforeGracePeriod, beforeBlocked, pastGracePeriod] as string[]).indexOf(
        retirementWarning(dueDate, today).message,
      );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: -60, max: 400 }),
        fc.integer({ min: 1, max: 60 }),
        (offset, past, step) => {
          const due = addDays('2024-01-01', offset);
          expect(severity(due, addDays(due, past + step))).toBeGreaterThanOrEqual(
            severity(due, addDays(due, past)),
          );
        },
      ),
    );
  });
});

describe('retirement days', () => {
  it('counts days across months, leap days and year ends', () => {
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-12-31', '2027-01-01')).toBe(1);
    expect(daysBetween('2026-03-10', '2026-03-01')).toBe(-9);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('names the escalation day and the first day the lock job may lock', () => {
    expect(retirementMilestones('2026-03-10')).toEqual({
      escalatesOn: '2026-03-24',
      locksOn: '2026-04-10',
    });
    // The lock line agrees with the warning: on locksOn the warning is the error.
    const { locksOn } = retirementMilestones('2026-03-10');
    expect(retirementWarning('2026-03-10', locksOn).level).toBe('error');
    expect('2026-03-10' < overdueBefore(locksOn)).toBe(true);
    expect('2026-03-10' < overdueBefore(addDays(locksOn, -1))).toBe(false);
  });

  it('treats pending and rejected retirements as still owed', () => {
    const owed: Record<RetirementStatus, boolean> = {
      pending: true,
      rejected: true,
      on_progress: false,
      approved: false,
    };
    for (const [status, expected] of Object.entries(owed))
      expect(isOutstandingRetirement(status as RetirementStatus)).toBe(expected);
  });

  it('refuses malformed days', () => {
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow(RangeError);
    expect(() => addDays('yesterday', 1)).toThrow(RangeError);
  });
});

describe('retirementFormMode (spec §2)', () => {
  it.each([
    // role, is owner, status → mode
    ['finance_officer', false, 'on_progress', 'admin'],
    ['finance_officer', false, 'pending', 'admin'],
    ['admin', false, 'approved', 'admin'],
    ['finance_officer', true, 'pending', 'edit'], // an admin retiring their own advance
    ['staff', true, 'pending', 'edit'],
    ['staff', true, 'on_progress', 'preview'],
    ['staff', true, 'rejected', 'preview'],
    ['staff', true, 'approved', 'preview'],
    ['staff', false, 'pending', 'edit'], // spec: "Otherwise 'edit' if the status is pending"
  ] as const)('%s, owner %s, %s → %s', (role, isOwner, status, mode) => {
    expect(retirementFormMode({ role: role as Role, isOwner, status })).toBe(mode);
  });
});

describe('cashToReturn (spec §2 Cash Returned)', () => {
  it.each([
    [500_000, 300_000, 200_000],
    [500_000, 500_000, 0],
    [500_000, 600_000, 0],
    [500_000, null, 500_000], // an empty amount counts as 0 (spec §5)
    [100.1, 0.2, 99.9],
  ])('received %s, spent %s → %s', (received, spent, expected) => {
    expect(cashToReturn(received, spent)).toBe(expected);
  });

  it('is never negative and never more than was received', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 10 ** 12 }),
        (receivedCents, spentCents) => {
          const cash = cashToReturn(receivedCents / 100, spentCents / 100);
          expect(cash).toBeGreaterThanOrEqual(0);
          expect(cash).toBeLessThanOrEqual(receivedCents / 100);
        },
      ),
    );
  });
});

describe('parseRetirementAmount (spec §5)', () => {
  it.each([
    ['1,250,000', 1_250_000],
    ['', 0],
    ['  ', 0],
    ['300000.5', 300_000.5],
    ['12.345', Number.NaN],
    ['-5', Number.NaN],
    ['lots', Number.NaN],
  ])('%j → %s', (text, expected) => {
    expect(parseRetirementAmount(text)).toBe(expected);
  });
});

describe('currentRetirementStep (spec §4)', () => {
  const review = (round: number, step: number, status: string) => ({ round, step, status });

  it.each([
    ['no submission yet', [], undefined],
    [
      'round 1, first step waiting',
      [review(1, 1, 'pending'), review(1, 2, 'pending')],
      review(1, 1, 'pending'),
    ],
    [
      'round 1, second step waiting',
      [review(1, 1, 'approved'), review(1, 2, 'pending')],
      review(1, 2, 'pending'),
    ],
    ['round 1 done', [review(1, 1, 'approved'), review(1, 2, 'approved')], undefined],
    [
      'a rejected round keeps an unreached pending step; round 2 decides',
      [
        review(1, 1, 'rejected'),
        review(1, 2, 'pending'),
        review(2, 2, 'pending'),
        review(2, 1, 'approved'),
      ],
      review(2, 2, 'pending'),
    ],
  ])('%s', (_name, reviews, expected) => {
    expect(currentRetirementStep(reviews)).toEqual(expected);
  });

  it('keeps only the latest round', () => {
    expect(
      currentRetirementRound([review(1, 1, 'rejected'), review(2, 1, 'pending')]).map(
        (r) => r.round,
      ),
    ).toEqual([2]);
  });
});
