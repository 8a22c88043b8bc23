import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { updateExchangeRatesRequest } from './api/settings.ts';
import {
  defaultExchangeRates,
  exchangeRateChanges,
  exchangeRateRangeMessage,
  fitsMoney,
  isExchangeRateInRange,
  maxExchangeRate,
  minExchangeRate,
  rateFor,
  toBaseAmount,
} from './exchange-rates.ts';
import { maxAmount } from './money.ts';

const rates = (usd: number) => ({ base: 'tzs', rates: { usd, gbp: 3300, chf: 2900 } });

describe('exchange rates', () => {
  it.each([
    ['tzs', 1],
    ['usd', 2600],
    ['gbp', 3300],
    ['chf', 2900],
  ] as const)('%s → %d tzs by default', (currency, rate) => {
    expect(rateFor(currency, defaultExchangeRates)).toBe(rate);
  });

  it.each([
    [100, 2600, 260_000],
    [0.01, 2600, 26],
    [10.5, 2512.123456, 26_377.3],
    [57_692.31, 2600, 150_000_006],
    // 1,118.215 rounds half up; amount × rate in doubles gives 1,118.2149999… and lost the cent.
    [0.43, 2600.5, 1118.22],
    [0.15, 1.5, 0.23],
    [maxAmount, 1, maxAmount],
  ])('%d × %d → %d', (amount, rate, base) => {
    expect(toBaseAmount(amount, rate)).toBe(base);
  });

  it('converting tzs changes nothing, and a larger amount never converts to less', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.integer({ min: 0, max: 10 ** 6 }),
        (cents, extra) => {
          const amount = cents / 100;
          expect(toBaseAmount(amount, 1)).toBe(amount);
          expect(toBaseAmount(amount + extra, 2600)).toBeGreaterThanOrEqual(
            toBaseAmount(amount, 2600),
          );
        },
      ),
    );
  });

  it('converts exactly: cents × millionths of the rate, rounded half up to a cent', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.bigInt({ min: 1_000_000n, max: 100_000_000_000n }),
        (cents, micros) => {
          const exact = cents * micros; // in 10^-8 of a major unit
          const base = toBaseAmount(Number(cents) / 100, Number(micros) / 1e6);
          // base × 10^8 lies within half a cent (0.5 × 10^6) of the exact product, ties rounded up.
          const baseUnits = BigInt(Math.round(base * 100)) * 1_000_000n;
          expect(baseUnits - exact).toBeLessThanOrEqual(500_000n);
          expect(exact - baseUnits).toBeLessThan(500_000n);
        },
      ),
    );
  });

  it('knows what fits the money columns', () => {
    expect(fitsMoney(maxAmount)).toBe(true);
    expect(fitsMoney(maxAmount + 0.01)).toBe(false);
    expect(fitsMoney(1e15)).toBe(false);
    expect(fitsMoney(Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe('exchange rate bounds (docs/decisions/0013)', () => {
  it('are 1 and 100,000 tzs per unit', () => {
    expect([minExchangeRate, maxExchangeRate]).toEqual([1, 100_000]);
    expect(exchangeRateRangeMessage).toBe('Rates must be between 1 and 100,000 tzs per unit');
  });

  it.each([
    [0.000001, exchangeRateRangeMessage],
    [0, exchangeRateRangeMessage],
    [-2600, exchangeRateRangeMessage],
    [0.999999, exchangeRateRangeMessage],
    [100_000.000001, exchangeRateRangeMessage],
    [1_000_000, exchangeRateRangeMessage],
    [2600.1234567, 'Rates may have at most 6 decimals'],
    [Number.NaN, 'Rates must be numbers'],
  ])('refuses %d: %s', (usd, message) => {
    const result = updateExchangeRatesRequest.safeParse(rates(usd));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['rates', 'usd'], message });
  });

  it.each([1, 1.5, 2600, 2550.5, 3312.123456, 100_000])('accepts %d', (usd) => {
    expect(updateExchangeRatesRequest.safeParse(rates(usd)).success).toBe(true);
  });

  it('accepts a six-decimal rate exactly when it lies in [1, 100,000]', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1_000_000, max: 200_000_000_000 }).map((micros) => micros / 1e6),
          fc.double({ min: -1e9, max: 1e9, noNaN: true }).map((value) => Math.round(value)),
        ),
        (usd) => {
          const isAccepted = updateExchangeRatesRequest.safeParse(rates(usd)).success;
          expect(isAccepted).toBe(usd >= minExchangeRate && usd <= maxExchangeRate);
          expect(isExchangeRateInRange(usd)).toBe(isAccepted);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('converts even the largest amount at the largest rate, for fitsMoney to refuse', () => {
    // Submission refuses a converted amount above the cap; it is never stored rounded.
    expect(toBaseAmount(maxAmount, maxExchangeRate)).toBe(1e18);
    expect(fitsMoney(toBaseAmount(maxAmount, maxExchangeRate))).toBe(false);
  });
});

describe('exchangeRateChanges', () => {
  const defaults = defaultExchangeRates;

  it.each([
    ['nothing stored, defaults saved', {}, defaults, []],
    [
      'nothing stored, one rate set',
      {},
      { ...defaults, gbp: 3400 },
      [{ currency: 'gbp', old_rate: null, new_rate: 3400 }],
    ],
    [
      'stored rates saved again',
      { usd: 2550.5, gbp: 3300, chf: 2900 },
      { ...defaults, usd: 2550.5 },
      [],
    ],
    [
      'stored rate changed by a millionth',
      { usd: 2550.5 },
      { ...defaults, usd: 2550.500001 },
      [{ currency: 'usd', old_rate: 2550.5, new_rate: 2550.500001 }],
    ],
    [
      'every rate changed',
      { usd: 2000, gbp: 3000, chf: 2000 },
      { usd: 2001, gbp: 3001, chf: 2001 },
      [
        { currency: 'usd', old_rate: 2000, new_rate: 2001 },
        { currency: 'gbp', old_rate: 3000, new_rate: 3001 },
        { currency: 'chf', old_rate: 2000, new_rate: 2001 },
      ],
    ],
  ] as const)('%s', (_case, stored, next, expected) => {
    expect(exchangeRateChanges(stored, next)).toEqual(expected);
  });
});
