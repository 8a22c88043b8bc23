import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roles, type Role } from './enums.ts';
import {
  approvalNumber,
  approvalNumberSearchPrefix,
  canReview,
  displayFileName,
  expenditureDay,
  firstPendingReview,
  hasAnsweredAnotherStep,
  hasEmptyCommentAtOrBelow,
  isBeforeToday,
  isExpenditureDateText,
  isTooFarAhead,
  latestExpenditureDay,
  nextReviewerRole,
  purposesMatching,
  searchNamesOnly,
  requestFile,
  reviewerRank,
  reviewerTitle,
  statusAfterReview,
  todayIn,
  yearIn,
  type ReviewDecision,
} from './requests.ts';

const chain = (...statuses: string[]) =>
  statuses.map((status, index) => ({ step: index + 1, status }));

describe('statusAfterReview', () => {
  it.each([
    // reviews before the answer, decision → status, complete
    [['pending'], 'approved', 'approved', true],
    [['pending', 'pending'], 'approved', 'on_progress', false],
    [['approved', 'pending'], 'approved', 'approved', true],
    [['approved', 'pending', 'pending'], 'approved', 'on_progress', false],
    [['approved', 'approved', 'pending'], 'approved', 'approved', true],
    [['pending', 'pending'], 'rejected', 'rejected', true],
    [['approved', 'pending', 'pending'], 'rejected', 'rejected', true],
    [['pending', 'pending'], 'request_edit', 'request_edit', false],
    [['approved', 'pending'], 'request_edit', 'request_edit', false],
  ] as const)('%j + %s → %s (complete %s)', (statuses, decision, status, isComplete) => {
    expect(statusAfterReview(chain(...statuses), decision as ReviewDecision)).toEqual({
      status,
      isComplete,
    });
  });

  it('acts on the lowest pending step whatever the order of the list', () => {
    const reviews = [
      { step: 2, status: 'pending' },
      { step: 1, status: 'approved' },
    ];
    expect(firstPendingReview(reviews)?.step).toBe(2);
    expect(statusAfterReview(reviews, 'approved').status).toBe('approved');
  });

  it('refuses a chain with nothing pending', () => {
    expect(() => statusAfterReview(chain('approved', 'approved'), 'approved')).toThrow();
  });
});

describe('nextReviewerRole', () => {
  const steps = [
    { step: 1, status: 'approved', reviewer_role: 'finance_officer' },
    { step: 2, status: 'pending', reviewer_role: 'executive_secretary' },
    { step: 3, status: 'pending', reviewer_role: 'director' },
  ];

  it('is the first pending step’s role while the request awaits review', () => {
    expect(nextReviewerRole('on_progress', steps)).toBe('executive_secretary');
    expect(nextReviewerRole('pending', [...steps].reverse())).toBe('executive_secretary');
  });

  it('is null once the request no longer awaits review', () => {
    for (const status of ['approved', 'rejected', 'request_edit'])
      expect(nextReviewerRole(status, steps)).toBeNull();
    expect(nextReviewerRole('on_progress', [])).toBeNull();
  });
});

describe('canReview', () => {
  const owner = '00000000-0000-4000-8000-000000000001';
  const other = '00000000-0000-4000-8000-000000000002';
  const reviews = [
    { id: 's1', step: 1, status: 'approved', reviewer_role: 'finance_officer', reviewer_id: 'fo' },
    {
      id: 's2',
      step: 2,
      status: 'pending',
      reviewer_role: 'executive_secretary',
      reviewer_id: null,
    },
    { id: 's3', step: 3, status: 'pending', reviewer_role: 'director', reviewer_id: null },
  ];
  const request = { request_owner_id: owner, current_status: 'on_progress', is_latest: true };
  // Issue 15: the director answered step 2 for the secretary; step 3, the director's own, waits.
  const answeredAsDelegate = [
    reviews[0]!,
    { ...reviews[1]!, status: 'approved', reviewer_id: other },
    reviews[2]!,
  ];

  it.each([
    ['the step role', other, 'executive_secretary', request, reviews, true],
    ['a later step role', other, 'director', request, reviews, false],
    ['an earlier step role', other, 'finance_officer', request, reviews, false],
    ['the owner holding the step role', owner, 'executive_secretary', request, reviews, false],
    [
      'a rejected request',
      other,
      'executive_secretary',
      { ...request, current_status: 'rejected' },
      reviews,
      false,
    ],
    [
      'a request returned for edits',
      other,
      'executive_secretary',
      { ...request, current_status: 'request_edit' },
      reviews,
      false,
    ],
    [
      'an older version',
      other,
      'executive_secretary',
      { ...request, is_latest: false },
      reviews,
      false,
    ],
    [
      'the step role after answering an earlier step as a delegate',
      other,
      'director',
      request,
      answeredAsDelegate,
      false,
    ],
    [
      'another holder of the step role after a delegate answered',
      '00000000-0000-4000-8000-000000000003',
      'director',
      request,
      answeredAsDelegate,
      true,
    ],
  ] as const)('%s → %s', (_name, id, role, record, chain, expected) => {
    expect(canReview({ actor: { id, role: role as Role }, request: record, reviews: chain })).toBe(
      expected,
    );
  });

  it('no role but the step role may answer', () => {
    const allowed = roles.filter((role) =>
      canReview({ actor: { id: other, role }, request, reviews }),
    );
    expect(allowed).toEqual(['executive_secretary']);
  });
});

describe('reviewer hierarchy and titles', () => {
  it.each([
    [1, 'First Reviewer'],
    [2, 'Second Reviewer'],
    [3, 'Third Reviewer'],
    [4, 'Fourth Reviewer'],
  ])('step %i → %s', (step, title) => {
    expect(reviewerTitle(step)).toBe(title);
  });

  it.each([0, 5])('refuses step %i', (step) => {
    expect(() => reviewerTitle(step)).toThrow(RangeError);
  });

  it('ranks petty cash custodian lowest and board chairman highest; others are not reviewers', () => {
    expect(reviewerRank('petty_cash_custodian')).toBe(0);
    expect(reviewerRank('finance_officer')).toBe(1);
    expect(reviewerRank('board_chairman')).toBe(4);
    expect(reviewerRank('staff')).toBe(-1);
    expect(reviewerRank('admin')).toBe(-1);
  });

  it('reports an empty comment at or below the rank of the user', () => {
    const reviews = [
      { reviewer_role: 'finance_officer', comments: 'ok' },
      { reviewer_role: 'executive_secretary', comments: '' },
    ];
    expect(hasEmptyCommentAtOrBelow(reviews, 'finance_officer')).toBe(false);
    expect(hasEmptyCommentAtOrBelow(reviews, 'executive_secretary')).toBe(true);
    expect(hasEmptyCommentAtOrBelow(reviews, 'director')).toBe(true);
  });
});

describe('approvalNumber', () => {
  it.each([
    [2026, 1, 'AP-2026-00001'],
    [2026, 42, 'AP-2026-00042'],
    [2027, 99999, 'AP-2027-99999'],
    [2027, 123456, 'AP-2027-123456'],
  ])('%i, %i → %s', (year, sequence, number) => {
    expect(approvalNumber(year, sequence)).toBe(number);
  });

  it.each([0, -1, 1.5])('refuses sequence %s', (sequence) => {
    expect(() => approvalNumber(2026, sequence)).toThrow(RangeError);
  });
});

describe('approvalNumberSearchPrefix', () => {
  it.each([
    ['AP-2026-00012', 'AP-2026-00012'],
    ['ap-2026-000', 'AP-2026-000'],
    ['  ap-2026- ', 'AP-2026-'],
    ['Ap-20', 'AP-20'],
    ['ap-', 'AP-'],
  ])('%j is the start of an approval number: %s', (term, prefix) => {
    expect(approvalNumberSearchPrefix(term)).toBe(prefix);
  });

  it.each([
    'ap',
    'apple',
    'ap-x',
    'travel',
    '2026-00012',
    'ap-2026-0001%',
    'ap-20261-1',
    'ap 2026',
  ])('%j is not', (term) => {
    expect(approvalNumberSearchPrefix(term)).toBeNull();
  });

  it('matches every approval number the sequence gives, and each start of one', () => {
    const number = approvalNumber(2027, 123456);
    for (let length = 3; length <= number.length; length += 1) {
      expect(approvalNumberSearchPrefix(number.slice(0, length).toLowerCase())).toBe(
        number.slice(0, length),
      );
    }
  });
});

describe('searchNamesOnly', () => {
  it.each(['zawadi lyimo', 'Neema', 'baraka coll', 'wner 0', 'ap 2026', 'zz'])(
    '%j can only name people',
    (term) => {
      expect(searchNamesOnly(term)).toBe(true);
    },
  );

  it.each(['MEALS', 'ccommo', 'travel', 'cash', 'ap-2026', 'AP', 'pa', 'a', '00042', '-', '26-0'])(
    '%j may match a purpose or an approval number',
    (term) => {
      expect(searchNamesOnly(term)).toBe(false);
    },
  );

  it('is false for every part of every approval number, in any case', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2100 }),
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (year, sequence, from, length, lower) => {
          const number = approvalNumber(year, sequence);
          const start = from % number.length;
          const part = number.slice(start, start + 1 + (length % (number.length - start)));
          expect(searchNamesOnly(lower ? part.toLowerCase() : part)).toBe(false);
        },
      ),
    );
  });
});

describe('purposesMatching', () => {
  it.each([
    ['travel', ['travel']],
    ['TRAV', ['travel']],
    ['accommodation', ['accomodation']],
    ['accomodation', ['accomodation']],
    ['cash', ['pettyCash']],
    ['petty cash', ['pettyCash']],
    ['stem', ['stemPark']],
    ['ST', ['risingSteamStars', 'stemPark']],
    ['rising steam', ['risingSteamStars']],
    [' kits ', ['kits']],
    ['amina', []],
    ['', []],
  ])('%j names %j', (term, purposes) => {
    expect(purposesMatching(term)).toEqual(purposes);
  });
});

describe('expenditure dates', () => {
  const zone = 'Africa/Dar_es_Salaam'; // UTC+3

  it.each([
    ['2026-05-02', '2026-05-02'],
    ['2026-05-01T21:00:00.000Z', '2026-05-02'], // local midnight in Dar es Salaam
    ['2026-05-01T20:59:59Z', '2026-05-01'],
    ['2026-05-02T00:00:00+03:00', '2026-05-02'],
  ])('%s → %s', (value, day) => {
    expect(expenditureDay(value, zone)).toBe(day);
  });

  it.each([
    '',
    'tomorrow',
    '2026-02-30',
    '2026-13-01',
    '02/05/2026',
    '2026-05-02T10:00',
    '2026-05-02 10:00:00Z',
    // The engine's parser would move these forward to 2 March and 1 May.
    '2027-02-30T10:00:00Z',
    '2027-04-31T00:00:00+03:00',
  ])('refuses %j', (value) => {
    expect(isExpenditureDateText(value)).toBe(false);
    expect(expenditureDay(value, zone)).toBeNull();
  });

  it('stops where a retirement due 14 days later is still a day of the year 9999', () => {
    expect(latestExpenditureDay).toBe('9999-12-17');
    expect(isTooFarAhead('9999-12-17')).toBe(false);
    expect(isTooFarAhead('9999-12-18')).toBe(true);
    // A date-time late on 31 December 9999 is already the year 10000 in Dar es Salaam.
    const day = expenditureDay('9999-12-31T23:00:00Z', zone);
    expect(day).toBe('10000-01-01');
    expect(isTooFarAhead(day ?? '')).toBe(true);
    expect(isTooFarAhead('2026-05-02')).toBe(false);
  });

  it('reads today and the year in the organisation time zone', () => {
    const now = new Date('2026-12-31T22:30:00Z'); // already 1 January 2027 in Dar es Salaam
    expect(todayIn(zone, now)).toBe('2027-01-01');
    expect(todayIn('UTC', now)).toBe('2026-12-31');
    expect(yearIn(zone, now)).toBe(2027);
    expect(isBeforeToday('2026-12-31', zone, now)).toBe(true);
    expect(isBeforeToday('2027-01-01', zone, now)).toBe(false);
    expect(isBeforeToday('2027-01-02', zone, now)).toBe(false);
  });

  it('agrees with dayjs on the day and the year at any instant in any zone', () => {
    dayjs.extend(utc);
    dayjs.extend(timezone);
    const zones = [zone, 'UTC', 'America/St_Johns', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1990-01-01T00:00:00Z'),
          max: new Date('2100-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...zones),
        (now, timeZone) => {
          const expected = dayjs(now).tz(timeZone);
          expect(todayIn(timeZone, now)).toBe(expected.format('YYYY-MM-DD'));
          expect(yearIn(timeZone, now)).toBe(expected.year());
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('files', () => {
  it.each([
    ['Ab3dE9xinvoice.pdf', 'invoice.pdf', 'pdf'],
    ['Zz9Zz9Zphoto.JPG', 'photo.JPG', 'image'],
    ['0000000sheet.xlsx', 'sheet.xlsx', 'msdoc'],
    ['1234567bundle.zip', 'bundle.zip', 'zip'],
    ['1234567notes', 'notes', 'none'],
  ])('%s → %s (%s)', (stored, display, type) => {
    expect(displayFileName(stored)).toBe(display);
    expect(requestFile(stored)).toEqual({ name: stored, type });
  });
});

describe('hasAnsweredAnotherStep', () => {
  const chain = [
    { id: 's1', status: 'approved', reviewer_id: 'finance' },
    { id: 's2', status: 'approved', reviewer_id: 'secretary' },
    { id: 's3', status: 'pending', reviewer_id: null },
  ];

  it.each([
    ['the finance officer who answered step 1', 'finance', 's3', true],
    ['the secretary who answered step 2', 'secretary', 's3', true],
    ['someone who answered nothing', 'chairman', 's3', false],
    ['the same step (a second answer is a 409, not this)', 'finance', 's1', false],
  ])('%s → %s', (_name, userId, stepId, expected) => {
    expect(hasAnsweredAnotherStep(chain, userId, stepId)).toBe(expected);
  });
});
