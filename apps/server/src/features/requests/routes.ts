import { idempotencyHeaders } from '@imprest/domain/api/common.ts';
import {
  createRequestRequest,
  downloadParams,
  downloadQuery,
  pendingListParams,
  pendingListQuery,
  pendingListResponse,
  requestIdParam,
  requestListParams,
  requestListQuery,
  requestListResponse,
  requestResponse,
  resubmitRequestRequest,
  summaryResponse,
} from '@imprest/domain/api/requests.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendSpreadsheet, xlsxContentType } from '../../lib/attachment.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import {
  downloadRequests,
  getRequest,
  listPendingRequests,
  listRequests,
  resubmitRequest,
  submitRequest,
  summarizeRequests,
} from './service.ts';

const security = [{ bearer: [] }];

/** Expense requests: submit, resubmit, read, lists, counts and downloads (spec §7). */
export function requestRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/requests',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['requests'],
          summary: 'Submit a request; its amount is reserved on the budget',
          security,
          headers: idempotencyHeaders,
          body: createRequestRequest,
          response: {
            201: requestResponse,
            ...errorResponses(400, 401, 403, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await submitRequest(context, { actor: actorOf(request), input: request.body })),
    );

    app.post(
      '/requests/request/request-edit',
      {
        config: { isIdempotent: true },
        schema: {
          tags: ['requests'],
          summary: 'Resubmit a request returned for edits as its next version (owner)',
          security,
          headers: idempotencyHeaders,
          body: resubmitRequestRequest,
          response: {
            201: requestResponse,
            ...errorResponses(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await resubmitRequest(context, { actor: actorOf(request), input: request.body })),
    );

    app.get(
      '/requests/request/:id',
      {
        schema: {
          tags: ['requests'],
          summary: 'One request with its reviews and version history',
          security,
          params: requestIdParam,
          response: {
            200: requestResponse,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) => getRequest(context, { actor: actorOf(request), id: request.params.id }),
    );

    app.get(
      '/requests/summary/:id',
      {
        schema: {
          tags: ['requests'],
          summary: "Counts of a user's requests for the home tiles",
          security,
          params: requestIdParam,
          response: {
            200: summaryResponse,
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request) =>
        summarizeRequests(context, { actor: actorOf(request), userId: request.params.id }),
    );

    app.get(
      '/requests/download/:system_role',
      {
        schema: {
          tags: ['requests'],
          summary: 'Spreadsheet of requests: user for your own, your role for all you may see',
          security,
          params: downloadParams,
          querystring: downloadQuery,
          produces: [xlsxContentType],
          response: {
            200: z.unknown().describe('An xlsx file named "<fullname> requests.xlsx"'),
            ...errorResponses(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const file = await downloadRequests(context, {
          actor: actorOf(request),
          mode: request.params.system_role,
          userId: request.query.id,
        });
        return sendSpreadsheet(reply, file);
      },
    );

    app.get(
      '/requests/:role/pending/:id',
      {
        schema: {
          tags: ['requests'],
          summary:
            'Requests whose next review is your role (or a delegator’s, marked), except your own',
          security,
          params: pendingListParams,
          querystring: pendingListQuery,
          response: {
            200: pendingListResponse,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        listPendingRequests(context, {
          actor: actorOf(request),
          role: request.params.role,
          userId: request.params.id,
          page: request.query.page,
          perPage: request.query.per_page,
        }),
    );

    app.get(
      '/requests/:systemRole/:userId',
      {
        schema: {
          tags: ['requests'],
          summary:
            'A page of requests: user for your own (staff mode), your role for all (admin mode)',
          security,
          params: requestListParams,
          querystring: requestListQuery,
          response: {
            200: requestListResponse,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) =>
        listRequests(context, {
          actor: actorOf(request),
          mode: request.params.systemRole,
          userId: request.params.userId,
          query: request.query,
        }),
    );
  };
}
