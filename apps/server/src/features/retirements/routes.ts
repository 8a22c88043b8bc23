import { idempotencyHeaders } from '@imprest/domain/api/common.ts';
import { requestResponse } from '@imprest/domain/api/requests.ts';
import {
  attachRetirementRequest,
  pendingRetirementsQuery,
  pendingRetirementsResponse,
  retirementDownloadParams,
  retirementDownloadQuery,
  retirementEditRequest,
  retirementListQuery,
  retirementListResponse,
  retirementResponse,
  reviewRetirementRequest,
  submitRetirementRequest,
} from '@imprest/domain/api/retirements.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendSpreadsheet, xlsxContentType } from '../../lib/attachment.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import {
  attachRetirement,
  downloadRetirements,
  listPendingRetirements,
  listRetirements,
  requestRetirementEdit,
  reviewRetirement,
  submitRetirement,
} from './service.ts';

const security = [{ bearer: [] }];

/**
 * Retirements (spec §7, decisions §4): finance attaches one to an approved request, the owner
 * submits it, the request's reviewer chain reviews it; lists, the reviewers' queue, downloads.
 */
export function retirementRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/retirement/attach-retirement',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['retirements'],
          summary:
            'Attach a pending retirement to an approved request (finance); answers the request',
          security,
          headers: idempotencyHeaders,
          body: attachRetirementRequest,
          response: {
            201: requestResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await attachRetirement(context, { actor: actorOf(request), input: request.body })),
    );

    app.post(
      '/retirement/user-submit',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['retirements'],
          summary: 'Submit a pending retirement for review (owner, even when locked)',
          security,
          headers: idempotencyHeaders,
          body: submitRetirementRequest,
          response: {
            200: retirementResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) =>
        submitRetirement(context, { actor: actorOf(request), input: request.body }),
    );

    app.post(
      '/retirement/review',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['retirements'],
          summary: "Approve or reject the first pending step of a retirement's review round",
          security,
          headers: idempotencyHeaders,
          body: reviewRetirementRequest,
          response: {
            200: retirementResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) =>
        reviewRetirement(context, { actor: actorOf(request), input: request.body }),
    );

    app.post(
      '/retirement/request-edit',
      {
        schema: {
          tags: ['retirements'],
          summary: 'Ask to resubmit a rejected retirement (owner): it becomes pending again',
          security,
          body: retirementEditRequest,
          response: {
            200: retirementResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request) =>
        requestRetirementEdit(context, { actor: actorOf(request), input: request.body }),
    );

    app.get(
      '/retirement/requests',
      {
        schema: {
          tags: ['retirements'],
          summary:
            'A page of retirements: role user for your own (staff mode), your role for all (admin mode)',
          security,
          querystring: retirementListQuery,
          response: {
            200: retirementListResponse,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        listRetirements(context, { actor: actorOf(request), query: request.query }),
    );

    app.get(
      '/retirement/pending',
      {
        schema: {
          tags: ['retirements'],
          summary:
            'Retirements whose current review step is your role, except your own and rounds you answered',
          security,
          querystring: pendingRetirementsQuery,
          response: {
            200: pendingRetirementsResponse,
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) =>
        listPendingRetirements(context, { actor: actorOf(request), query: request.query }),
    );

    app.get(
      '/retirement/download/:role',
      {
        schema: {
          tags: ['retirements'],
          summary: 'Spreadsheet of retirements: user for your own, your role for all',
          security,
          params: retirementDownloadParams,
          querystring: retirementDownloadQuery,
          produces: [xlsxContentType],
          response: {
            200: z.unknown().describe('An xlsx file named "<fullname> retirements.xlsx"'),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const file = await downloadRetirements(context, {
          actor: actorOf(request),
          mode: request.params.role,
          userId: request.query.id,
        });
        return sendSpreadsheet(reply, file);
      },
    );
  };
}
