import { z } from 'zod';

/** Largest amount accepted anywhere (NUMERIC(18,2) holds up to 10^16). */
export const maxAmount = 1_000_000_000_000_000;

/** A positive amount in major units with at most two decimals. */
export const positiveAmount = z
  .number({ message: 'Amount must be a number' })
  .positive('Amount must be greater than zero')
  .max(maxAmount, 'Amount is too large')
  .refine(
    (value) => Math.round(value * 100) === Number((value * 100).toFixed(6)),
    'Amount may have at most two decimals',
  );

/** An amount of zero or more in major units with at most two decimals (a retirement may spend nothing). */
export const nonNegativeAmount = z
  .number({ message: 'Amount must be a number' })
  .min(0, 'Amount cannot be negative')
  .max(maxAmount, 'Amount is too large')
  .refine(
    (value) => Math.round(value * 100) === Number((value * 100).toFixed(6)),
    'Amount may have at most two decimals',
  );

/** Parses the NUMERIC text PostgreSQL returns into a JSON number. */
export function toAmount(value: string | number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return Number(value);
}
