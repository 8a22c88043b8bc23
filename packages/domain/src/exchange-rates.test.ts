import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultExchangeRates, fitsMoney, rateFor, toBaseAmount } from './exchange-rates.ts';

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

  it('knows what fits the money columns', () => {
    expect(fitsMoney(1e15)).toBe(true);
    expect(fitsMoney(1e15 * 2600)).toBe(false);
    expect(fitsMoney(Number.POSITIVE_INFINITY)).toBe(false);
  });
});
