import {
  exchangeRateChangesQuery,
  exchangeRateChangesResponse,
  exchangeRatesResponse,
  mailDeliveryResponse,
  updateExchangeRatesRequest,
} from '@imprest/domain/api/settings.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { sendTagged } from '../../lib/entity-tag.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import {
  getExchangeRates,
  getMailDelivery,
  listExchangeRateChangelog,
  updateExchangeRates,
} from './service.ts';

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
          summary: 'Exchange rates to tzs; their version in `ETag`',
          security: [{ bearer: [] }],
          response: { 200: exchangeRatesResponse, ...errorResponses(401) },
        },
      },
      async (request, reply) => {
        const rates = await getExchangeRates(context, { actor: actorOf(request) });
        return sendTagged(reply, rates);
      },
    );

    app.put(
      '/settings/exchange-rates',
      {
        schema: {
          tags: ['settings'],
          summary:
            'Change the exchange rates to tzs (finance); with `If-Match`, only the version read (412 otherwise)',
          security: [{ bearer: [] }],
          body: updateExchangeRatesRequest,
          response: {
            200: exchangeRatesResponse,
            ...errorResponses(400, 401, 403, 412),
          },
        },
      },
      async (request, reply) => {
        const rates = await updateExchangeRates(context, {
          actor: actorOf(request),
          rates: request.body.rates,
          ifMatch: request.headers['if-match'],
        });
        return sendTagged(reply, rates);
      },
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

    app.get(
      '/settings/mail',
      {
        schema: {
          tags: ['settings'],
          summary:
            'How this server delivers e-mail (admin): through SMTP, or without SMTP_URL written to its mail folder',
          security: [{ bearer: [] }],
          response: { 200: mailDeliveryResponse, ...errorResponses(401, 403) },
        },
      },
      async (request) => getMailDelivery(context, { actor: actorOf(request) }),
    );
  };
}
