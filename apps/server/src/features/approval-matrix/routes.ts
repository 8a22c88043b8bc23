import {
  approvalMatrixResponse,
  updateApprovalMatrixRequest,
} from '@imprest/domain/api/approval-matrix.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { getApprovalMatrix, replaceApprovalMatrix } from './service.ts';

/** The approval matrix: who reviews which amounts (decisions §3, §5). */
export function approvalMatrixRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/approval-matrix',
      {
        schema: {
          tags: ['approval matrix'],
          summary: 'The approval matrix (admin)',
          security: [{ bearer: [] }],
          response: { 200: approvalMatrixResponse, ...errorResponses(401, 403) },
        },
      },
      async (request) => getApprovalMatrix(context, { actor: actorOf(request) }),
    );

    app.put(
      '/approval-matrix',
      {
        schema: {
          tags: ['approval matrix'],
          summary: 'Replace the approval matrix (director)',
          security: [{ bearer: [] }],
          body: updateApprovalMatrixRequest,
          response: {
            200: approvalMatrixResponse,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        replaceApprovalMatrix(context, { actor: actorOf(request), rows: request.body.rows }),
    );
  };
}
