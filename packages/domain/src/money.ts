import { z } from 'zod';

/**
 * Largest amount accepted anywhere, in major units: 10,000,000,000,000 = 10^15 cents, below 2^53
 * (≈ 9.007 × 10^15), so every two-decimal amount up to it is one exact double and JSON numbers,
 * `toFixed(2)` and the NUMERIC text agree to the cent (docs/decisions/0013). Sums of amounts are
 * done in SQL numeric, whose columns (NUMERIC(18,2)) hold up to 10^16.
 */
export const maxAmount = 10_000_000_000_000;

/** The cap in words, for messages: "10,000,000,000,000". */
export const maxAmountText = '10,000,000,000,000';

/** The message of an amount above the cap. */
export const amountTooLarge = `Amounts can be at most ${maxAmountText}`;

/**
 * Whether a number has at most two decimals: its shortest decimal form (the one JSON.stringify
 * writes) has at most two digits after the point. Every amount up to `maxAmount` has at most 15
 * significant digits, which that form keeps exactly, so 0.07 and 9,999,999,999,999.99 pass while
 * 100.000000001 and 1e-9 do not (comparing `value * 100` with its rounding, as this did, let any
 * fraction under a millionth of a cent through, and 1e-9 was stored as 0).
 */
export function hasCents(value: number): boolean {
  return hasAtMostDecimals(value, 2);
}

/**
 * Whether a number's shortest decimal form has at most `decimals` digits after the point (see
 * hasCents): exact for every number of at most 15 significant digits, as amounts and rates are.
 */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  return new RegExp(`^-?\\d+(\\.\\d{1,${decimals}})?$`).test(String(value));
}

/** A positive amount in major units with at most two decimals. */
export const positiveAmount = z
  .number({ message: 'Amount must be a number' })
  .positive('Amount must be greater than zero')
  .max(maxAmount, amountTooLarge)
  .refine(hasCents, 'Amount may have at most two decimals');

/** An amount of zero or more in major units with at most two decimals (a retirement may spend nothing). */
export const nonNegativeAmount = z
  .number({ message: 'Amount must be a number' })
  .min(0, 'Amount cannot be negative')
  .max(maxAmount, amountTooLarge)
  .refine(hasCents, 'Amount may have at most two decimals');

/** Parses the NUMERIC text PostgreSQL returns into a JSON number. */
export function toAmount(value: string | number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}

/**
 * A decimal as an exact integer of 10^-decimals units: NUMERIC text ("1500.5", "-3.25") digit by
 * digit, a number through `toFixed(decimals)`, exact while the number has at most that many
 * decimals and its units stay below 2^53. Throws on more decimals than that.
 */
export function toScaledInteger(value: string | number, decimals: number): bigint {
  const text = typeof value === 'number' ? value.toFixed(decimals) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) throw new RangeError(`Not a decimal number: ${text}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  if (/[1-9]/.test(fraction.slice(decimals)))
    throw new RangeError(`More than ${decimals} decimals: ${text}`);
  const scale = 10n ** BigInt(decimals);
  const units = BigInt(whole) * scale + BigInt(fraction.slice(0, decimals).padEnd(decimals, '0'));
  return sign === '-' ? -units : units;
}

/**
 * An amount as whole cents, exactly (NUMERIC text or a two-decimal number up to `maxAmount`).
 * Compare money with this, or in SQL, never through sums or differences of doubles.
 */
export function toCents(value: string | number): bigint {
  return toScaledInteger(value, 2);
}

/** An amount of whole cents in major units: the nearest double, exact up to `maxAmount`. */
export function fromCents(cents: bigint): number {
  return Number(cents) / 100;
}

/** Whether amount `a` is greater than amount `b`, compared exactly in cents. */
export function isMoreMoney(a: string | number, b: string | number): boolean {
  return toCents(a) > toCents(b);
}

/**
 * Thousands separators and at most two decimals, made once (a formatter a call costs, issue 13),
 * on first use rather than as the module loads (see roleListText in enums.ts).
 */
let amountFormat: Intl.NumberFormat | undefined;

/** A number as Imprest writes amounts (spec §9): thousands separators, "1,234.5". */
export function formatAmountNumber(amount: string | number): string {
  amountFormat ??= new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });
  return amountFormat.format(Number(amount));
}

/**
 * An amount as Imprest writes it everywhere, on its pages, in its messages and in its e-mails:
 * "TZS 500,000", "USD 1,234.5" (spec §2's 'Cash Returned (currency amount)').
 */
export function amountWithCurrency(amount: string | number, currency: string): string {
  return `${currency.toUpperCase()} ${formatAmountNumber(amount)}`;
}
