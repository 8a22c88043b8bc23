import type {
  ExchangeRateChangeResponse,
  ExchangeRatesResponse,
} from '@imprest/domain/api/settings.ts';
import type { ExchangeRates, ForeignCurrency } from '@imprest/domain/exchange-rates.ts';
import type { ExchangeRateChangeRow } from './queries.ts';

/** The exchange-rates object of decisions §8. */
export function presentExchangeRates(rates: ExchangeRates): ExchangeRatesResponse {
  return { base: 'tzs', rates: { usd: rates.usd, gbp: rates.gbp, chf: rates.chf } };
}

/** One row of the rate changelog. */
export function presentExchangeRateChange(row: ExchangeRateChangeRow): ExchangeRateChangeResponse {
  return {
    id: row.id,
    currency: row.currency as ForeignCurrency,
    old_rate: row.old_rate === null ? null : Number(row.old_rate),
    new_rate: Number(row.new_rate),
    changed_by: { id: row.actor_id, fullname: row.actor_name },
    changed_at: row.created_at.toISOString(),
  };
}
