import {
  approvalMatrixResponse,
  approvalMatrixVacanciesResponse,
  updateApprovalMatrixRequest,
} from '@imprest/domain/api/approval-matrix.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { sendTagged } from '../../lib/entity-tag.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { getApprovalMatrix, getMatrixVacancies, replaceApprovalMatrix } from './service.ts';

/** The approval matrix: who reviews which amounts (decisions §3, §5). */
export function approvalMatrixRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/approval-matrix',
      {
        schema: {
          tags: ['approval matrix'],
          summary: 'The approval matrix (admin); its version in `ETag`',
          security: [{ bearer: [] }],
          response: { 200: approvalMatrixResponse, ...errorResponses(401, 403) },
        },
      },
      async (request, reply) => {
        const matrix = await getApprovalMatrix(context, { actor: actorOf(request) });
        return sendTagged(reply, matrix);
      },
    );

    app.get(
      '/approval-matrix/vacancies',
      {
        schema: {
          tags: ['approval matrix'],
          summary:
            'The positions of the approval matrix that no unlocked user holds (admin): requests reaching them wait',
          security: [{ bearer: [] }],
          response: { 200: approvalMatrixVacanciesResponse, ...errorResponses(401, 403) },
        },
      },
      async (request) => getMatrixVacancies(context, { actor: actorOf(request) }),
    );

    app.put(
      '/approval-matrix',
      {
        schema: {
          tags: ['approval matrix'],
          summary:
            'Replace the approval matrix (director); with `If-Match`, only the version read (412 otherwise)',
          security: [{ bearer: [] }],
          body: updateApprovalMatrixRequest,
          response: {
            200: approvalMatrixResponse,
            ...errorResponses(400, 401, 403, 412),
          },
        },
      },
      async (request, reply) => {
        const matrix = await replaceApprovalMatrix(context, {
          actor: actorOf(request),
          rows: request.body.rows,
          ifMatch: request.headers['if-match'],
        });
        return sendTagged(reply, matrix);
      },
    );
  };
}
