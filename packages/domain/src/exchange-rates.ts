import { maxAmount } from './money.ts';
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

/** Largest rate accepted (tzs per unit). */
export const maxExchangeRate = 1_000_000;

/** The rate of a currency to tzs: 1 for tzs itself, otherwise the organisation's rate. */
export function rateFor(currency: Currency, rates: ExchangeRates): number {
  return currency === 'tzs' ? 1 : rates[currency];
}

/** An amount converted to the base currency, rounded to cents. */
export function toBaseAmount(amount: number, rate: number): number {
  return Math.round(amount * rate * 100) / 100;
}

/** Whether a converted amount still fits the money columns (NUMERIC(18,2)). */
export function fitsMoney(amount: number): boolean {
  return Number.isFinite(amount) && amount <= maxAmount;
}
