import {
  exchangeRateChangesResponse,
  type ExchangeRateChangesResponse,
} from '@imprest/domain/api/settings.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { exchangeRatesQueryKey } from './get-exchange-rates.ts';

export type ExchangeRateChangesParams = { page: number; perPage: number };

/** Every page of the rate changelog; under the rates' key, so a save refreshes both. */
export const exchangeRateChangesQueryKey = [...exchangeRatesQueryKey, 'changes'] as const;

/** GET settings/exchange-rates/changes: who changed which rate when, newest first (finance). */
export function getExchangeRateChanges(
  params: ExchangeRateChangesParams,
): Promise<ExchangeRateChangesResponse> {
  return apiRequest('settings/exchange-rates/changes', {
    query: { page: params.page, per_page: params.perPage },
    schema: exchangeRateChangesResponse,
  });
}

/** A page of the rate changelog; the previous page stays on screen while the next one loads. */
export function useExchangeRateChanges(params: ExchangeRateChangesParams) {
  return useQuery({
    queryKey: [...exchangeRateChangesQueryKey, params],
    queryFn: () => getExchangeRateChanges(params),
    placeholderData: keepPreviousData,
  });
}
