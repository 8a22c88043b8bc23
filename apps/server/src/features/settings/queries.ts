import {
  defaultExchangeRates,
  foreignCurrencies,
  type ExchangeRates,
  type ForeignCurrency,
} from '@imprest/domain/exchange-rates.ts';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { exchangeRates } from '../../db/schema.ts';

/** The organisation's rates to tzs, a default for each currency finance has not set (decisions §8). */
export async function loadExchangeRates(
  db: Executor,
  organizationId: string,
): Promise<ExchangeRates> {
  const rows = await db
    .select({ currency: exchangeRates.currency, rate: exchangeRates.rate })
    .from(exchangeRates)
    .where(eq(exchangeRates.organization_id, organizationId));
  const rates: ExchangeRates = { ...defaultExchangeRates };
  for (const row of rows) {
    if ((foreignCurrencies as readonly string[]).includes(row.currency))
      rates[row.currency as ForeignCurrency] = Number(row.rate);
  }
  return rates;
}

/** Sets every rate of an organisation in one statement. */
export async function saveExchangeRates(
  db: Executor,
  organizationId: string,
  rates: ExchangeRates,
): Promise<void> {
  await db
    .insert(exchangeRates)
    .values(
      foreignCurrencies.map((currency) => ({
        organization_id: organizationId,
        currency,
        rate: String(rates[currency]),
      })),
    )
    .onConflictDoUpdate({
      target: [exchangeRates.organization_id, exchangeRates.currency],
      set: { rate: sql`excluded.rate`, modified_at: sql`now()` },
    });
}
