import {
  authenticateRequest,
  authResponse,
  forgotPasswordRequest,
  messageResponse,
  resetPasswordRequest,
  setupRequest,
  setupStatusResponse,
} from '@imprest/domain/api/auth.ts';
import { changePasswordRequest, changePasswordResponse } from '@imprest/domain/api/users.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { perAddress, rateLimits } from '../../lib/rate-limit.ts';
import { requestPasswordReset, resetPassword } from './password-reset.ts';
import {
  assertNotSetUp,
  authenticateUser,
  changeOwnPassword,
  needsSetup,
  renewSession,
  setupOrganization,
  signOut,
} from './service.ts';

/** Sign-in, session validation, passwords and first-run set-up. */
export function authRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/users/authenticate',
      {
        config: { isPublic: true, rateLimit: perAddress(rateLimits.signInPerAddress) },
        schema: {
          tags: ['auth'],
          summary: 'Sign in',
          body: authenticateRequest,
          response: {
            200: authResponse,
            ...errorResponses(400, 401, 429),
          },
        },
      },
      async (request) => authenticateUser(context, { ...request.body, address: request.ip }),
    );

    app.get(
      '/users/validate-token',
      {
        schema: {
          tags: ['auth'],
          summary: 'Validate the session and get a fresh token',
          security: [{ bearer: [] }],
          response: { 200: authResponse, ...errorResponses(401) },
        },
      },
      async (request) => renewSession(context, { actor: actorOf(request) }),
    );

    app.post(
      '/users/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'Sign out: this session ends on the server and its token is refused from now on',
          security: [{ bearer: [] }],
          response: { 204: z.null(), ...errorResponses(401) },
        },
      },
      async (request, reply) => {
        await signOut(context, { actor: actorOf(request) });
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/setup',
      {
        config: { isPublic: true },
        schema: {
          tags: ['setup'],
          summary: 'Whether the first organisation must be set up',
          response: { 200: setupStatusResponse },
        },
      },
      async () => ({ needs_setup: await needsSetup(context) }),
    );

    app.post(
      '/setup',
      {
        config: { isPublic: true, rateLimit: perAddress(rateLimits.setupPerAddress) },
        schema: {
          tags: ['setup'],
          summary: 'Create the first organisation and its director',
          body: setupRequest,
          response: { 201: authResponse, ...errorResponses(400, 409, 429) },
        },
        // Once set up, 409 whatever the body (decisions §1), before the body is validated.
        preValidation: async () => assertNotSetUp(context),
      },
      async (request, reply) =>
        reply.status(201).send(await setupOrganization(context, request.body)),
    );

    app.post(
      '/forgot-password',
      {
        config: { isPublic: true, rateLimit: perAddress(rateLimits.forgotPasswordPerAddress) },
        schema: {
          tags: ['auth'],
          summary: 'E-mail a password reset link',
          body: forgotPasswordRequest,
          response: { 200: messageResponse, ...errorResponses(400, 404, 429) },
        },
      },
      async (request) => {
        // The e-mail and its sending job commit with the token; the e-mail worker sends it.
        await requestPasswordReset(context, request.body);
        return { message: 'Reset password code has been sent to your email' };
      },
    );

    app.post(
      '/forgot-password/validate',
      {
        config: { isPublic: true, rateLimit: perAddress(rateLimits.resetPerAddress) },
        schema: {
          tags: ['auth'],
          summary: 'Set a new password with a reset token',
          body: resetPasswordRequest,
          response: { 200: messageResponse, ...errorResponses(400, 429) },
        },
      },
      async (request) => {
        await resetPassword(context, request.body);
        return { message: 'Your password has been changed.' };
      },
    );

    app.put(
      '/users/password',
      {
        schema: {
          tags: ['auth'],
          summary: "Change one's own password (the current one required); ends other sessions",
          security: [{ bearer: [] }],
          body: changePasswordRequest,
          response: { 200: changePasswordResponse, ...errorResponses(400, 401, 429) },
        },
      },
      async (request) =>
        changeOwnPassword(context, {
          actor: actorOf(request),
          currentPassword: request.body.current_password,
          newPassword: request.body.new_password,
          address: request.ip,
        }),
    );
  };
}
