import { fromCents, maxAmount, toCents, toScaledInteger } from './money.ts';
import type { Currency } from './enums.ts';

/** Currencies converted to the base currency (tzs) with a rate kept by finance (decisions §3). */
export const foreignCurrencies = ['usd', 'gbp', 'chf'] as const satisfies readonly Exclude<
  Currency,
  'tzs'
>[];
export type ForeignCurrency = (typeof foreignCurrencies)[number];
export type ExchangeRates = Record<ForeignCurrency, number>;

/** Tzs per unit when finance has not set a rate (decisions §8). */
export const defaultExchangeRates: ExchangeRates = { usd: 2600, gbp: 3300, chf: 2900 };

/**
 * The range a rate (tzs per unit of usd, gbp or chf) must lie in (docs/decisions/0013). A rate
 * far below the real one converts a large foreign amount into a small tzs one and so routes it
 * around the director's approval row; these bounds leave every plausible rate possible for years.
 */
export const minExchangeRate = 1;
export const maxExchangeRate = 100_000;

/** The message of a rate outside [minExchangeRate, maxExchangeRate]. */
export const exchangeRateRangeMessage = 'Rates must be between 1 and 100,000 tzs per unit';

/** Decimals a rate may have (the column is NUMERIC(18,6)). */
export const exchangeRateDecimals = 6;

/** Made on first use, not as the module loads (see roleListText in enums.ts). */
let rateFormat: Intl.NumberFormat | undefined;

/** A rate with thousands separators and every decimal it keeps (docs/decisions/0013). */
export function formatRate(rate: number | string): string {
  rateFormat ??= new Intl.NumberFormat('en-GB', { maximumFractionDigits: exchangeRateDecimals });
  return rateFormat.format(Number(rate));
}

/** Whether a rate lies in the accepted range. */
export function isExchangeRateInRange(rate: number): boolean {
  return Number.isFinite(rate) && rate >= minExchangeRate && rate <= maxExchangeRate;
}

/** The rate of a currency to tzs: 1 for tzs itself, otherwise the organisation's rate. */
export function rateFor(currency: Currency, rates: ExchangeRates): number {
  return currency === 'tzs' ? 1 : rates[currency];
}

const rateScale = 10n ** BigInt(exchangeRateDecimals);

/**
 * An amount converted to the base currency, rounded half up to cents. Computed on integers
 * (cents × millionths of the rate), so the cent that picks an approval row is never lost to a
 * double's rounding (docs/decisions/0013).
 */
export function toBaseAmount(amount: number, rate: number): number {
  const units = toCents(amount) * toScaledInteger(rate, exchangeRateDecimals);
  const sign = units < 0n ? -1n : 1n;
  const rounded = (units * sign + rateScale / 2n) / rateScale;
  return fromCents(rounded * sign);
}

/** Whether a converted amount is within the money cap (`maxAmount`). */
export function fitsMoney(amount: number): boolean {
  return Number.isFinite(amount) && amount <= maxAmount;
}

/** One rate that a save changes: the stored rate before (null while the default applied) and after. */
export type ExchangeRateChange = {
  currency: ForeignCurrency;
  old_rate: number | null;
  new_rate: number;
};

/**
 * The rates a save actually changes, for the changelog: a currency whose rate in force (the stored
 * one, else the default) differs from the new one. Saving the same rates changes nothing.
 */
export function exchangeRateChanges(
  stored: Partial<ExchangeRates>,
  next: ExchangeRates,
): ExchangeRateChange[] {
  return foreignCurrencies.flatMap((currency) => {
    const before = stored[currency];
    const inForce = before ?? defaultExchangeRates[currency];
    if (
      toScaledInteger(inForce, exchangeRateDecimals) ===
      toScaledInteger(next[currency], exchangeRateDecimals)
    )
      return [];
    return [{ currency, old_rate: before ?? null, new_rate: next[currency] }];
  });
}
