import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { approvalMatrixRoutes } from './features/approval-matrix/routes.ts';
import { auditRoutes } from './features/audit/routes.ts';
import { authRoutes } from './features/auth/routes.ts';
import { budgetRoutes } from './features/budgets/routes.ts';
import { delegationRoutes } from './features/delegations/routes.ts';
import { fileRoutes } from './features/files/routes.ts';
import { registerHealthRoutes } from './features/health/routes.ts';
import { jobRoutes } from './features/jobs/routes.ts';
import { requestRoutes } from './features/requests/routes.ts';
import { retirementRoutes } from './features/retirements/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';
import { settingsRoutes } from './features/settings/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { actorFromToken } from './features/auth/session.ts';
import { authenticateApi } from './lib/authenticate.ts';
import { registerErrorHandler } from './lib/error-handler.ts';
import { registerIdempotency } from './lib/idempotency.ts';
import { registerRateLimits } from './lib/rate-limit.ts';
import { registerRequestOrigin } from './lib/request-origin.ts';
import { RequestLog, requestIdOf } from './lib/request-log.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import {
  registerNoStore,
  registerSecurityHeaders,
  securityHeaders,
} from './lib/security-headers.ts';

export const apiPrefix = '/api/v1';

/** Builds the HTTP application: API, OpenAPI docs and the built web app, on one Fastify instance. */
export async function buildApp(
  context: AppContext,
  options: { logger?: Logger | false } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger || undefined,
    logger: options.logger === false ? false : undefined,
    bodyLimit: 1024 * 1024,
    // One line per request with its id, accepted from and returned in x-request-id (issue 14).
    logController: new RequestLog(),
    requestIdHeader: false,
    genReqId: requestIdOf,
    // The client address is the socket's unless TRUST_PROXY names the proxies in front.
    trustProxy: trustProxyOption(context.config.trustProxy),
    frameworkErrors: answerUnreadableUrl(context.config) as never,
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ verify: context.config.verifyResponses }));
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  registerErrorHandler(app);
  registerSecurityHeaders(app, context.config);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Imprest API',
        version: '1.0.0',
        description: 'Expense requests, reviews, budgets and retirements.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      registerNoStore(api);
      api.addHook(
        'onRequest',
        authenticateApi((token) => actorFromToken(context, token)),
      );
      await registerRateLimits(api, context.db);
      registerIdempotency(api, context.db);
      registerRequestOrigin(api);
      await api.register(authRoutes(context));
      await api.register(budgetRoutes(context));
      await api.register(requestRoutes(context));
      await api.register(reviewRoutes(context));
      await api.register(delegationRoutes(context));
      await api.register(retirementRoutes(context));
      await api.register(approvalMatrixRoutes(context));
      await api.register(settingsRoutes(context));
      await api.register(userRoutes(context));
      await api.register(fileRoutes(context));
      await api.register(jobRoutes(context));
      await api.register(auditRoutes(context));
    },
    { prefix: apiPrefix },
  );

  registerHealthRoutes(app, context);
  registerWebApp(app, context.config.webDist);
  return app;
}

/**
 * A URL the router cannot read (broken percent-encoding, a parameter over 100 characters) is
 * answered before any hook runs: it gets their headers and the API's error body here, where
 * Fastify's own answer named its internals and echoed the path.
 */
function answerUnreadableUrl(config: Config) {
  const headers = securityHeaders(config);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const isTooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    void reply.headers(headers).header('x-request-id', request.id);
    if (request.url.startsWith(apiPrefix)) void reply.header('cache-control', 'no-store');
    return reply.status(isTooLong ? 414 : 400).send({
      error: isTooLong
        ? 'A part of this address is too long.'
        : 'This address is not valid: part of it is wrongly encoded.',
    });
  };
}

/** Fastify's form of TRUST_PROXY: a hop count becomes "trust the nearest n hops". */
function trustProxyOption(
  trustProxy: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return trustProxy;
}

/** Serves the built web app; unknown API paths answer 404 JSON, other paths the app's index.html. */
function registerWebApp(app: FastifyInstance, webDist: string): void {
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    void app.register(fastifyStatic, {
      root: webDist,
      // Wildcard: files are looked up per request, so a rebuilt app is served without a restart;
      // a miss falls through to the not-found handler below (SPA fallback or 404 JSON).
      wildcard: true,
      index: false,
      // Only paths that name a file; app routes such as /dashboard fall through to index.html.
      allowedPath: (pathName) => path.extname(pathName) !== '',
      // The build writes file.br and file.gz beside each text file (apps/web/vite.config.ts):
      // the smallest the browser accepts is sent as it is, with its content-encoding (issue 13).
      preCompressed: true,
      // send's own `public, max-age=0` would replace the cache-control set below.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        // The answer depends on accept-encoding (the .br or .gz sibling, or the file itself).
        response.setHeader('vary', 'accept-encoding');
        if (path.relative(webDist, filePath).startsWith(`assets${path.sep}`)) {
          // Vite names every file under assets/ by its content's hash: it never changes.
          response.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          // index.html, sw.js, workbox-*.js, the web manifest, icons, robots.txt: revalidated on
          // every use (a cheap 304 by ETag), so a new release is never hidden behind a stale copy.
          response.setHeader('cache-control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const wantsPage =
      request.method === 'GET' && !url.startsWith('/api') && !url.startsWith('/socket.io');
    if (wantsPage && hasWeb) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (wantsPage) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app has not been built yet. Run `npm start`, which builds it first.');
    }
    return reply
      .status(404)
      .header('cache-control', 'no-store')
      .send({ error: `No such endpoint: ${request.method} ${url}` });
  });
}
