import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReviewLate,
  notificationKey,
  notificationKinds,
  receivesNotification,
  requestDecisionKind,
  retirementDecisionKind,
  retirementMilestoneOn,
  stepsToNotify,
  workingDaysBetween,
  type NotificationKind,
} from './notifications.ts';
import { addDays } from './retirements.ts';

describe('receivesNotification (mute_notification)', () => {
  const muted = '{"mute_notification":true}';
  const unmuted = '{"mute_notification":false}';

  it.each([
    // kind, muted user receives it?
    ['invitation', true],
    ['password_reset', true],
    ['account_locked', true],
    ['account_unlocked', true],
    ['review_requested', false],
    ['review_upcoming', false],
    ['request_approved', false],
    ['request_rejected', false],
    ['request_returned', false],
    ['retirement_attached', false],
    ['retirement_approved', false],
    ['retirement_rejected', false],
    ['retirement_warning', false],
    ['review_reminder', false],
    ['delegation_named', false],
    ['delegation_ended', false],
  ] as [NotificationKind, boolean][])('%s reaches a muted user: %s', (kind, expected) => {
    expect(receivesNotification(muted, kind)).toBe(expected);
    expect(receivesNotification(unmuted, kind)).toBe(true);
  });

  it('covers every kind', () => {
    expect(notificationKinds).toHaveLength(16);
  });

  it.each([null, '', 'not json', '{}', '{"mute_notification":"yes"}'])(
    'treats unreadable settings %j as unmuted',
    (settings) => {
      expect(receivesNotification(settings, 'request_approved')).toBe(true);
    },
  );
});

describe('workingDaysBetween (Monday to Friday)', () => {
  // 2026-03-02 is a Monday.
  it.each([
    ['2026-03-02', '2026-03-02', 0], // same day
    ['2026-03-02', '2026-03-01', 0], // earlier
    ['2026-03-02', '2026-03-03', 1], // Mon → Tue
    ['2026-03-02', '2026-03-05', 3], // Mon → Thu
    ['2026-03-02', '2026-03-06', 4], // Mon → Fri
    ['2026-03-06', '2026-03-07', 0], // Fri → Sat
    ['2026-03-06', '2026-03-09', 1], // Fri → Mon
    ['2026-03-07', '2026-03-08', 0], // Sat → Sun
    ['2026-03-07', '2026-03-09', 1], // Sat → Mon
    ['2026-03-02', '2026-03-09', 5], // one week
    ['2026-03-02', '2026-03-16', 10], // two weeks
    ['2026-03-04', '2026-03-12', 6], // Wed → next Thu
    ['2026-12-31', '2027-01-04', 2], // Thu → Mon across the year end
  ])('%s → %s: %i', (from, to, expected) => {
    expect(workingDaysBetween(from, to)).toBe(expected);
  });

  it('refuses a malformed day', () => {
    expect(() => workingDaysBetween('2026-02-30', '2026-03-01')).toThrow(RangeError);
  });

  it('counts five per whole week, and never more days than the calendar', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        fc.integer({ min: 0, max: 400 }),
        (start, length) => {
          const from = start.toISOString().slice(0, 10);
          const to = addDays(from, length);
          const days = workingDaysBetween(from, to);
          expect(days).toBeLessThanOrEqual(length);
          expect(days).toBeGreaterThanOrEqual(Math.floor(length / 7) * 5);
          expect(workingDaysBetween(from, addDays(to, 7))).toBe(days + 5);
        },
      ),
    );
  });
});

describe('isReviewLate (more than 3 working days)', () => {
  it.each([
    ['2026-03-02', '2026-03-05', false], // Mon → Thu: 3
    ['2026-03-02', '2026-03-06', true], // Mon → Fri: 4
    ['2026-03-05', '2026-03-10', false], // Thu → Tue: 3 (Fri, Mon, Tue)
    ['2026-03-05', '2026-03-11', true], // Thu → Wed: 4
    ['2026-03-06', '2026-03-11', false], // Fri → Wed: 3
  ])('since %s, on %s: %s', (since, today, expected) => {
    expect(isReviewLate(since, today)).toBe(expected);
  });
});

describe('retirementMilestoneOn (spec §8 warnings by e-mail)', () => {
  const due = '2026-03-01'; // escalates 2026-03-15, may lock from 2026-04-01
  it.each([
    ['2026-02-20', null], // before the due date: the attach e-mail carried the first warning
    ['2026-03-01', null],
    ['2026-03-14', null],
    ['2026-03-15', 'escalation'], // 14 days past due
    ['2026-03-17', 'escalation'], // caught up within 3 days
    ['2026-03-18', null], // too late to announce
    ['2026-03-31', null], // day 30: still the escalation warning, already sent
    ['2026-04-01', 'grace'], // more than 30 days past
    ['2026-04-03', 'grace'],
    ['2026-04-04', null],
  ])('on %s: %s', (today, expected) => {
    expect(retirementMilestoneOn(due, today)).toBe(expected);
  });
});

describe('stepsToNotify', () => {
  it.each([
    [{ step: 1, stepCount: 3, isCascading: false }, [[1, 'review_requested']]],
    [{ step: 2, stepCount: 3, isCascading: false }, [[2, 'review_requested']]],
    [
      { step: 1, stepCount: 3, isCascading: true },
      [
        [1, 'review_requested'],
        [2, 'review_upcoming'],
        [3, 'review_upcoming'],
      ],
    ],
    // Cascading tells everyone at submission; later steps still hear when their turn comes.
    [{ step: 2, stepCount: 3, isCascading: true }, [[2, 'review_requested']]],
    [{ step: 1, stepCount: 1, isCascading: true }, [[1, 'review_requested']]],
  ])('%j', (options, expected) => {
    expect(stepsToNotify(options).map(({ step, kind }) => [step, kind])).toEqual(expected);
  });
});

describe('decision kinds', () => {
  it.each([
    ['approved', 'request_approved', 'retirement_approved'],
    ['rejected', 'request_rejected', 'retirement_rejected'],
    ['request_edit', 'request_returned', null],
    ['on_progress', null, null],
    ['pending', null, null],
  ])('%s → %s / %s', (status, request, retirement) => {
    expect(requestDecisionKind(status)).toBe(request);
    expect(retirementDecisionKind(status)).toBe(retirement);
  });
});

describe('notificationKey', () => {
  it.each([
    [['request', 'a1b2', 'step', 1, 'u-9'], 'request.a1b2.step.1.u-9'],
    [['digest', 'u', '2026-03-02'], 'digest.u.2026-03-02'],
    [['x', 'a.b@c d'], 'x.a-b-c-d'],
  ] as [(string | number)[], string][])('%j → %s', (parts, expected) => {
    expect(notificationKey(...parts)).toBe(expected);
  });
});
