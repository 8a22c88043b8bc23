import { idempotencyHeaders } from '@imprest/domain/api/common.ts';
import {
  createUsersRequest,
  deleteUserParams,
  deleteUserResponse,
  restrictUserRequest,
  updateUserRequest,
  updateUserSettingsRequest,
  userEnvelopeResponse,
  userIdParam,
  userListParams,
  userListQuery,
  userListResponse,
  usersResponse,
} from '@imprest/domain/api/users.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import {
  createUsers,
  deleteUser,
  listUsers,
  readUser,
  restrictUser,
  updateUser,
  updateUserSettings,
} from './service.ts';

/** Users (spec §7): create and invite, list, read, edit, delete, restrict, settings. */
export function userRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/users',
      {
        config: { isIdempotent: true },
        // An import of 10,000 users is about 2 MB of JSON.
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          tags: ['users'],
          summary: 'Add one user or a batch, all or nothing; users without a password are invited',
          security: [{ bearer: [] }],
          headers: idempotencyHeaders,
          body: createUsersRequest,
          response: { 201: usersResponse, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const body = request.body;
        // Invitations commit with the users and are sent by the e-mail worker (docs/decisions/0011).
        const { users } = await createUsers(context, {
          actor: actorOf(request),
          rows: Array.isArray(body) ? body : [body],
        });
        return reply.status(201).send({ users });
      },
    );

    app.get(
      '/users/department/:department/:role',
      {
        schema: {
          tags: ['users'],
          summary: "A page of the organisation's users (admin); search by name or e-mail",
          security: [{ bearer: [] }],
          params: userListParams,
          querystring: userListQuery,
          response: { 200: userListResponse, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) =>
        listUsers(context, {
          actor: actorOf(request),
          params: request.params,
          query: request.query,
        }),
    );

    app.get(
      '/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'One user (admin, or oneself)',
          security: [{ bearer: [] }],
          params: userIdParam,
          response: { 200: userEnvelopeResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => ({
        user: await readUser(context, { actor: actorOf(request), userId: request.params.id }),
      }),
    );

    app.put(
      '/users',
      {
        schema: {
          tags: ['users'],
          summary: 'Change a user (field rules of decisions §9)',
          security: [{ bearer: [] }],
          body: updateUserRequest,
          response: { 200: userEnvelopeResponse, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ({
        user: await updateUser(context, { actor: actorOf(request), body: request.body }),
      }),
    );

    app.delete(
      '/users/:userId',
      {
        schema: {
          tags: ['users'],
          summary: 'Deactivate a user (director); their history stays',
          security: [{ bearer: [] }],
          params: deleteUserParams,
          response: { 200: deleteUserResponse, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) =>
        deleteUser(context, { actor: actorOf(request), userId: request.params.userId }),
    );

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
