import { idempotencyHeaders } from '@imprest/domain/api/common.ts';
import { requestResponse } from '@imprest/domain/api/requests.ts';
import { reviewRequest } from '@imprest/domain/api/reviews.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { answerReview } from './service.ts';

/** Request reviews: the step role approves, rejects or returns a request for edits (spec §4). */
export function reviewRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/reviews',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['reviews'],
          summary: "Answer a request's first pending review; answers the updated request",
          security: [{ bearer: [] }],
          headers: idempotencyHeaders,
          body: reviewRequest,
          response: {
            200: requestResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) => answerReview(context, { actor: actorOf(request), input: request.body }),
    );
  };
}
