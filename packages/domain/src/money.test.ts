import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalMatrixRowInput } from './api/approval-matrix.ts';
import { balanceQuery, createBudgetRequest } from './api/budgets.ts';
import {
  amountTooLarge,
  amountWithCurrency,
  fromCents,
  maxAmount,
  maxAmountText,
  nonNegativeAmount,
  positiveAmount,
  toAmount,
  toCents,
  toScaledInteger,
} from './money.ts';

const maxCents = BigInt(maxAmount) * 100n;

/** The exact decimal text of a number of cents: 150050n → "1500.50". */
function centsText(cents: bigint): string {
  const digits = cents.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

describe('money cap (docs/decisions/0013)', () => {
  it('keeps every cent of the cap below 2^53, where doubles are exact', () => {
    expect(maxCents).toBeLessThan(2n ** 53n);
    expect(Number.isSafeInteger(maxAmount * 100)).toBe(true);
    expect(maxAmountText).toBe(maxAmount.toLocaleString('en-GB'));
  });

  it.each([
    [0.01, true],
    [1500.5, true],
    [maxAmount - 0.01, true],
    [maxAmount, true],
    [maxAmount + 0.01, false],
    [1e15, false],
    [2 ** 53, false],
    [0.001, false],
    [0, false],
    [0.07, true],
    [1e-9, false],
    [100.000000001, false],
    [maxAmount - 0.001, false],
  ])('positiveAmount %d → %s', (value, isValid) => {
    expect(positiveAmount.safeParse(value).success).toBe(isValid);
  });

  it('says what the cap is', () => {
    const result = nonNegativeAmount.safeParse(1e15);
    expect(result.error?.issues[0]?.message).toBe(amountTooLarge);
    expect(amountTooLarge).toBe('Amounts can be at most 10,000,000,000,000');
  });

  it('applies the cap to every money input: budgets, balance checks, approval matrix', () => {
    expect(balanceQuery.safeParse({ amount: String(maxAmount) }).success).toBe(true);
    expect(balanceQuery.safeParse({ amount: '1e15' }).success).toBe(false);
    const row = { start_value: 0, user_role: ['finance_officer'] };
    expect(approvalMatrixRowInput.safeParse({ ...row, end_value: maxAmount }).success).toBe(true);
    expect(approvalMatrixRowInput.safeParse({ ...row, end_value: 1e15 }).success).toBe(false);
    expect(approvalMatrixRowInput.safeParse({ ...row, end_value: 10.005 }).success).toBe(false);
    expect(createBudgetRequest.shape.amount.safeParse(1e15).success).toBe(false);
  });

  it('every two-decimal amount up to the cap is one exact double, and NUMERIC text round-trips', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: maxCents }), (cents) => {
        const amount = Number(cents) / 100;
        expect(Math.round(amount * 100) / 100).toBe(amount);
        // What the server writes into NUMERIC(18,2), and what it parses back.
        expect(amount.toFixed(2)).toBe(centsText(cents));
        expect(toAmount(String(amount))).toBe(amount);
        expect(toAmount(centsText(cents))).toBe(amount);
        expect(toCents(amount)).toBe(cents);
        expect(toCents(centsText(cents))).toBe(cents);
        expect(fromCents(cents)).toBe(amount);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes every two-decimal amount up to the cap, and none with a third decimal', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: maxCents }),
        fc.integer({ min: 1, max: 9 }),
        (cents, tenth) => {
          expect(positiveAmount.safeParse(fromCents(cents)).success).toBe(true);
          expect(nonNegativeAmount.safeParse(fromCents(cents)).success).toBe(true);
          const thirdDecimal = Number(`${centsText(cents - 1n)}${tenth}`);
          // A double that prints with two decimals is nearer to them than to the third: refused
          // only when the third digit survives in the number itself.
          if (String(thirdDecimal).split('.')[1]?.length === 3)
            expect(positiveAmount.safeParse(thirdDecimal).success).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('comparing amounts up to the cap as doubles gives the same answer as comparing cents', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: maxCents }),
        fc.bigInt({ min: 0n, max: maxCents }),
        (a, b) => {
          expect(fromCents(a) < fromCents(b)).toBe(a < b);
          expect(fromCents(a) === fromCents(b)).toBe(a === b);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('toCents and toScaledInteger', () => {
  it.each([
    ['1500.5', 150_050n],
    ['1500.50', 150_050n],
    ['0.10', 10n],
    ['12', 1200n],
    ['-3.25', -325n],
    ['10000000000000.00', 1_000_000_000_000_000n],
    ['9999999999999999.99', 999_999_999_999_999_999n],
    [0.07, 7n],
    [1500.5, 150_050n],
  ] as const)('%s → %s cents', (value, cents) => {
    expect(toCents(value)).toBe(cents);
  });

  it.each(['', 'abc', '1.005', '1e5'])('refuses %j', (value) => {
    expect(() => toCents(value)).toThrow(RangeError);
  });

  it('scales to other precisions (rates keep six decimals)', () => {
    expect(toScaledInteger('2512.123456', 6)).toBe(2_512_123_456n);
    expect(toScaledInteger(2512.123456, 6)).toBe(2_512_123_456n);
    expect(toScaledInteger('2600.000000', 6)).toBe(2_600_000_000n);
  });
});

describe('amountWithCurrency', () => {
  it.each([
    [500000, 'tzs', 'TZS 500,000'],
    ['1234.50', 'usd', 'USD 1,234.5'],
    ['0.43', 'usd', 'USD 0.43'],
    [10_000_000_000_000, 'tzs', 'TZS 10,000,000,000,000'],
  ])('writes %j %s as %s', (amount, currency, text) => {
    expect(amountWithCurrency(amount, currency)).toBe(text);
  });
});
