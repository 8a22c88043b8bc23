import { updateUserSettingsRequest, userEnvelopeResponse } from '@imprest/domain/api/users.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf, authenticate } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { updateUserSettings } from './service.ts';

/** User endpoints that have landed so far: notification settings. */
export function userRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/users/settings',
      {
        preHandler: authenticate(context),
        schema: {
          tags: ['users'],
          summary: 'Mute or unmute e-mail notifications',
          security: [{ bearer: [] }],
          body: updateUserSettingsRequest,
          response: {
            200: userEnvelopeResponse,
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => ({
        user: await updateUserSettings(context, {
          actor: actorOf(request),
          userId: request.body.user_id,
          settings: request.body.settings,
        }),
      }),
    );
  };
}
