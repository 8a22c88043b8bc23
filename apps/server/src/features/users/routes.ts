import {
  restrictUserRequest,
  updateUserSettingsRequest,
  userEnvelopeResponse,
} from '@imprest/domain/api/users.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { restrictUser, updateUserSettings } from './service.ts';

/** User endpoints that have landed so far: notification settings, restricting users. */
export function userRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/users/settings',
      {
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

    app.post(
      '/users/restrict',
      {
        schema: {
          tags: ['users'],
          summary: 'Lock (lock_status true) or unlock a user (finance)',
          security: [{ bearer: [] }],
          body: restrictUserRequest,
          response: {
            200: userEnvelopeResponse,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) => ({
        user: await restrictUser(context, {
          actor: actorOf(request),
          userId: request.body.user_id,
          isLocked: request.body.lock_status,
        }),
      }),
    );
  };
}
