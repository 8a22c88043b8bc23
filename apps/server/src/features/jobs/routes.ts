import { lockOverdueRequest, lockOverdueResponse } from '@imprest/domain/api/jobs.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { runLockJobNow } from './service.ts';

/** Background jobs run on demand (decisions §5). */
export function jobRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/jobs/lock-overdue',
      {
        schema: {
          tags: ['jobs'],
          summary: 'Run the lock job now for your organisation (director; as_of in demo mode only)',
          security: [{ bearer: [] }],
          body: lockOverdueRequest,
          response: { 200: lockOverdueResponse, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) =>
        runLockJobNow(context, { actor: actorOf(request), asOf: request.body.as_of }),
    );
  };
}
