import { requestResponse } from '@imprest/domain/api/requests.ts';
import { attachRetirementRequest } from '@imprest/domain/api/retirements.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf, authenticate } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { attachRetirement } from './service.ts';

const security = [{ bearer: [] }];

/** Retirements: finance attaches one to an approved request (spec §7, decisions §4). */
export function retirementRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const preHandler = authenticate(context);

    app.post(
      '/retirement/attach-retirement',
      {
        preHandler,
        schema: {
          tags: ['retirements'],
          summary:
            'Attach a pending retirement to an approved request (finance); answers the request',
          security,
          body: attachRetirementRequest,
          response: {
            201: requestResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await attachRetirement(context, { actor: actorOf(request), input: request.body })),
    );
  };
}
