import { idempotencyHeaders, idParam } from '@imprest/domain/api/common.ts';
import {
  createDelegationRequest,
  delegationListQuery,
  delegationListResponse,
  delegationResponse,
} from '@imprest/domain/api/delegations.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { createDelegation, endDelegation, listDelegations } from './service.ts';

const security = [{ bearer: [] }];

/** Out-of-office delegation: name a delegate for a period, list, end early (issue 15). */
export function delegationRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/delegations',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['delegations'],
          summary:
            'Name a delegate who answers your review steps for a period (the director: for anyone)',
          security,
          headers: idempotencyHeaders,
          body: createDelegationRequest,
          response: {
            201: delegationResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createDelegation(context, { actor: actorOf(request), input: request.body })),
    );

    app.get(
      '/delegations',
      {
        schema: {
          tags: ['delegations'],
          summary: 'Your delegations as delegator or delegate (the director: all), latest first',
          security,
          querystring: delegationListQuery,
          response: {
            200: delegationListResponse,
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) =>
        listDelegations(context, { actor: actorOf(request), query: request.query }),
    );

    app.post(
      '/delegations/:id/end',
      {
        // Not keyed: lib/idempotency.ts fingerprints the route pattern, not its id, and a repeated
        // end is harmless (409, the delegation already ended).
        schema: {
          tags: ['delegations'],
          summary: 'End a delegation now (its delegator or the director)',
          security,
          params: idParam,
          response: {
            200: delegationResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) => endDelegation(context, { actor: actorOf(request), id: request.params.id }),
    );
  };
}
