import type { ExchangeRatesResponse } from '@imprest/domain/api/settings.ts';
import type { ExchangeRates } from '@imprest/domain/exchange-rates.ts';

/** The exchange-rates object of decisions §8. */
export function presentExchangeRates(rates: ExchangeRates): ExchangeRatesResponse {
  return { base: 'tzs', rates: { usd: rates.usd, gbp: rates.gbp, chf: rates.chf } };
}
