import { z } from 'zod';
import { maxExchangeRate } from '../exchange-rates.ts';

const rate = z
  .number({ message: 'Rates must be numbers' })
  .positive('Rates must be greater than zero')
  .max(maxExchangeRate, 'Rate is too large')
  .refine(
    (value) => Math.round(value * 1e6) === Number((value * 1e6).toFixed(3)),
    'Rates may have at most six decimals',
  );

/** Tzs per unit of each other currency (decisions §8). */
export const exchangeRatesResponse = z.object({
  base: z.literal('tzs'),
  rates: z.object({ usd: z.number(), gbp: z.number(), chf: z.number() }),
});
export type ExchangeRatesResponse = z.infer<typeof exchangeRatesResponse>;

/** `PUT settings/exchange-rates`: the same shape as the answer of GET. */
export const updateExchangeRatesRequest = z.object({
  base: z.literal('tzs', { message: 'The base currency is tzs' }).default('tzs'),
  rates: z.object({ usd: rate, gbp: rate, chf: rate }),
});
export type UpdateExchangeRatesRequest = z.infer<typeof updateExchangeRatesRequest>;
