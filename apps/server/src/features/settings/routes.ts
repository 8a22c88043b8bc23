import {
  exchangeRateChangesQuery,
  exchangeRateChangesResponse,
  exchangeRatesResponse,
  updateExchangeRatesRequest,
} from '@imprest/domain/api/settings.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { getExchangeRates, listExchangeRateChangelog, updateExchangeRates } from './service.ts';

/**
 * Organisation settings: exchange rates to the base currency (decisions §5, §8) and their
 * changelog (docs/decisions/0013).
 */
export function settingsRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings/exchange-rates',
      {
        schema: {
          tags: ['settings'],
          summary: 'Exchange rates to tzs',
          security: [{ bearer: [] }],
          response: { 200: exchangeRatesResponse, ...errorResponses(401) },
        },
      },
      async (request) => getExchangeRates(context, { actor: actorOf(request) }),
    );

    app.put(
      '/settings/exchange-rates',
      {
        schema: {
          tags: ['settings'],
          summary: 'Change the exchange rates to tzs (finance)',
          security: [{ bearer: [] }],
          body: updateExchangeRatesRequest,
          response: {
            200: exchangeRatesResponse,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        updateExchangeRates(context, { actor: actorOf(request), rates: request.body.rates }),
    );

    app.get(
      '/settings/exchange-rates/changes',
      {
        schema: {
          tags: ['settings'],
          summary: 'Who changed which exchange rate when, newest first (finance)',
          security: [{ bearer: [] }],
          querystring: exchangeRateChangesQuery,
          response: {
            200: exchangeRateChangesResponse,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        listExchangeRateChangelog(context, { actor: actorOf(request), query: request.query }),
    );
  };
}
