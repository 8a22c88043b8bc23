import { z } from 'zod';
import {
  exchangeRateDecimals,
  exchangeRateRangeMessage,
  foreignCurrencies,
  maxExchangeRate,
  minExchangeRate,
} from '../exchange-rates.ts';
import { hasAtMostDecimals } from '../money.ts';
import { isoDateTime, pageQuery } from './common.ts';

const rate = z
  .number({ message: 'Rates must be numbers' })
  .min(minExchangeRate, exchangeRateRangeMessage)
  .max(maxExchangeRate, exchangeRateRangeMessage)
  .refine(
    (value) => hasAtMostDecimals(value, exchangeRateDecimals),
    `Rates may have at most ${exchangeRateDecimals} decimals`,
  );

/** Tzs per unit of each other currency (decisions §8). */
export const exchangeRatesResponse = z.object({
  base: z.literal('tzs'),
  rates: z.object({ usd: z.number(), gbp: z.number(), chf: z.number() }),
});
export type ExchangeRatesResponse = z.infer<typeof exchangeRatesResponse>;

/**
 * `PUT settings/exchange-rates`: the same shape as the answer of GET; each rate between 1 and
 * 100,000 tzs per unit (docs/decisions/0013).
 */
export const updateExchangeRatesRequest = z.object({
  base: z.literal('tzs', { message: 'The base currency is tzs' }).default('tzs'),
  rates: z.object({ usd: rate, gbp: rate, chf: rate }),
});
export type UpdateExchangeRatesRequest = z.infer<typeof updateExchangeRatesRequest>;

/** `GET settings/exchange-rates/changes`: `page` from 1, `per_page` 10 by default, at most 100. */
export const exchangeRateChangesQuery = pageQuery.pick({ page: true, per_page: true });
export type ExchangeRateChangesQuery = z.infer<typeof exchangeRateChangesQuery>;

/** One change of one rate: who changed it when, from what (null: the default applied) to what. */
export const exchangeRateChangeResponse = z.object({
  id: z.number().int(),
  currency: z.enum(foreignCurrencies),
  old_rate: z.number().nullable(),
  new_rate: z.number(),
  changed_by: z.object({ id: z.uuid(), fullname: z.string() }),
  changed_at: isoDateTime,
});
export type ExchangeRateChangeResponse = z.infer<typeof exchangeRateChangeResponse>;

/** The changelog of the exchange rates, newest first (decisions §2 list shape). */
export const exchangeRateChangesResponse = z.object({
  data: z.array(exchangeRateChangeResponse),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type ExchangeRateChangesResponse = z.infer<typeof exchangeRateChangesResponse>;

/**
 * `GET settings/mail`: how this server delivers e-mail, for the admins who invite colleagues
 * (an invitation's link reaches its reader only through it). `smtp`: sent through `SMTP_URL`.
 * `folder`: no `SMTP_URL`, so each e-mail is written to a text file in `folder` on the server
 * (docs/decisions/0037), where an admin opens it and passes the link on.
 */
export const mailDeliveryResponse = z.discriminatedUnion('delivery', [
  z.object({ delivery: z.literal('smtp') }),
  z.object({ delivery: z.literal('folder'), folder: z.string() }),
]);
export type MailDeliveryResponse = z.infer<typeof mailDeliveryResponse>;
