import {
  exchangeRatesResponse,
  type ExchangeRatesResponse,
  type UpdateExchangeRatesRequest,
} from '@imprest/domain/api/settings.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequestVersioned, isApiError, type Versioned } from '../../../lib/api-client.ts';
import { exchangeRateChangesQueryKey } from './get-exchange-rate-changes.ts';
import { exchangeRatesQueryKey } from './get-exchange-rates.ts';

type UpdateExchangeRates = {
  body: UpdateExchangeRatesRequest;
  /** The version of the rates the form shows (docs/decisions/0035). */
  version: string | null;
};

/**
 * PUT settings/exchange-rates: finance changes the rates to tzs (decisions §5, §8), refused (412)
 * when someone else saved them since the version the form shows.
 */
export function updateExchangeRates({
  body,
  version,
}: UpdateExchangeRates): Promise<Versioned<ExchangeRatesResponse>> {
  return apiRequestVersioned('settings/exchange-rates', {
    method: 'PUT',
    body,
    ifMatch: version,
    schema: exchangeRatesResponse,
  });
}

/**
 * Save mutation of the exchange-rates card; the rate changelog is refetched after it, and the rates
 * after a refusal, so the form shows what someone else saved.
 */
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
    onError: async (error) => {
      if (isApiError(error, 412)) await queryClient.invalidateQueries({ queryKey: ['settings'] });
    },
  });
}
