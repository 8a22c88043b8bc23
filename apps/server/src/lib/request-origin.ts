import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, RouteHandlerMethod, RouteOptions } from 'fastify';

/** Where a call came from: its request id (x-request-id) and client address (TRUST_PROXY-aware). */
export type RequestOrigin = { requestId: string; ip: string };

const origins = new AsyncLocalStorage<RequestOrigin>();

/** The origin of the API call being served, or null outside one (a job, a script). */
export function currentOrigin(): RequestOrigin | null {
  return origins.getStore() ?? null;
}

/**
 * Makes every API handler registered after this run with its call's origin at hand, so the audit
 * trail records the request id and address without each service passing them along.
 */
export function registerRequestOrigin(api: FastifyInstance): void {
  api.addHook('onRoute', (route: RouteOptions) => {
    const handler: RouteHandlerMethod = route.handler;
    route.handler = function handleWithOrigin(this: FastifyInstance, request, reply) {
      return origins.run({ requestId: request.id, ip: request.ip }, () =>
        handler.call(this, request, reply),
      );
    };
  });
}
