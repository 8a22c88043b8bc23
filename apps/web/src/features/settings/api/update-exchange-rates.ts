import {
  exchangeRatesResponse,
  type ExchangeRatesResponse,
  type UpdateExchangeRatesRequest,
} from '@imprest/domain/api/settings.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { exchangeRateChangesQueryKey } from './get-exchange-rate-changes.ts';
import { exchangeRatesQueryKey } from './get-exchange-rates.ts';

/** PUT settings/exchange-rates: finance changes the rates to tzs (decisions §5, §8). */
export function updateExchangeRates(
  body: UpdateExchangeRatesRequest,
): Promise<ExchangeRatesResponse> {
  return apiRequest('settings/exchange-rates', {
    method: 'PUT',
    body,
    schema: exchangeRatesResponse,
  });
}

/** Save mutation of the exchange-rates card; the rate changelog is refetched after it. */
export function useUpdateExchangeRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateExchangeRates,
    onSuccess: async (rates) => {
      queryClient.setQueryData(exchangeRatesQueryKey, rates);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: exchangeRatesQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: exchangeRateChangesQueryKey }),
      ]);
    },
  });
}
