import {
  auditDownloadQuery,
  auditHistoryParams,
  auditHistoryQuery,
  auditPageResponse,
  auditQuery,
} from '@imprest/domain/api/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendSpreadsheet, xlsxContentType } from '../../lib/attachment.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import { downloadAuditEvents, listAuditEvents, listObjectHistory } from './service.ts';

const tags = ['audit'];
const security = [{ bearer: [] }];

/** The audit trail (issue 15): the director's filtered pages and download, and each object's history. */
export function auditRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/audit',
      {
        schema: {
          tags,
          summary: 'A page of the audit trail, newest first (director)',
          security,
          querystring: auditQuery,
          response: { 200: auditPageResponse, ...errorResponses(400, 401, 403) },
        },
      },
      async (request) =>
        listAuditEvents(context, { actor: actorOf(request), query: request.query }),
    );

    app.get(
      '/audit/download',
      {
        schema: {
          tags,
          summary: 'The filtered audit trail as a spreadsheet (director)',
          security,
          querystring: auditDownloadQuery,
          produces: [xlsxContentType],
          response: {
            200: z.unknown().describe('An xlsx file named "Audit trail.xlsx"'),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request, reply) => {
        const file = await downloadAuditEvents(context, {
          actor: actorOf(request),
          query: request.query,
        });
        return sendSpreadsheet(reply, file);
      },
    );

    app.get(
      '/audit/history/:object_type/:object_id',
      {
        schema: {
          tags,
          summary: "A request's, budget's or user's own history, for whoever may open it",
          security,
          params: auditHistoryParams,
          querystring: auditHistoryQuery,
          response: { 200: auditPageResponse, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        listObjectHistory(context, {
          actor: actorOf(request),
          params: request.params,
          query: request.query,
        }),
    );
  };
}
