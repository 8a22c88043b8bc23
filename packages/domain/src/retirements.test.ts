import { describe, expect, it } from 'vitest';
import { retirementDueDays } from './constants.ts';
import { retirementDueDate } from './retirements.ts';

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
