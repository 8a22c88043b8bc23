import { exchangeRatesResponse, type ExchangeRatesResponse } from '@imprest/domain/api/settings.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequestVersioned, type Versioned } from '../../../lib/api-client.ts';

export const exchangeRatesQueryKey = ['settings', 'exchange-rates'] as const;

/** GET settings/exchange-rates: tzs per unit of usd, gbp and chf (decisions §8), and their version. */
export function getExchangeRates(): Promise<Versioned<ExchangeRatesResponse>> {
  return apiRequestVersioned('settings/exchange-rates', { schema: exchangeRatesResponse });
}

/** The organisation's exchange rates. */
export function useExchangeRates() {
  return useQuery({ queryKey: exchangeRatesQueryKey, queryFn: getExchangeRates });
}
