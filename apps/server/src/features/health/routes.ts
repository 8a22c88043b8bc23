import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { checkReadiness } from './service.ts';

/**
 * Health for load balancers and orchestrators (issue 14), without a token and out of the request
 * log: `/healthz` says the process answers; `/readyz` says it can serve (503 with the failing parts
 * otherwise).
 */
export function registerHealthRoutes(app: FastifyInstance, context: AppContext): void {
  const hidden = { logLevel: 'silent' as const, schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ status: 'ok' }));
  app.get('/readyz', hidden, async (_request, reply) => {
    const { isReady, checks } = await checkReadiness(context);
    return reply
      .status(isReady ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: isReady ? 'ready' : 'not ready', checks });
  });
}
