import { idempotencyHeaders } from '@imprest/domain/api/common.ts';
import {
  balanceQuery,
  balanceResponse,
  budgetCodeParam,
  budgetCodesQuery,
  budgetCodesResponse,
  budgetDetailResponse,
  budgetListQuery,
  budgetListResponse,
  budgetMutationResponse,
  createBudgetRequest,
  removeBudgetRequest,
  removeBudgetResponse,
  updateBudgetRequest,
} from '@imprest/domain/api/budgets.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { sendSpreadsheet, xlsxContentType } from '../../lib/attachment.ts';
import { actorOf } from '../../lib/authenticate.ts';
import { errorResponses } from '../../lib/error-responses.ts';
import {
  checkBudgetBalance,
  createBudget,
  downloadBudgetRequests,
  getBudget,
  listBudgetCodes,
  listBudgets,
  removeBudget,
  updateBudget,
} from './service.ts';
import { budgetVersion } from './presenter.ts';

/** Budgets (spec §7): list, detail, codes, balance check, create, edit, archive, delete, download. */
export function budgetRoutes(context: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['budgets'];
    const security = [{ bearer: [] }];
    const errors = errorResponses(401, 403, 404);

    app.get(
      '/budget',
      {
        schema: {
          tags,
          summary: 'Budgets you may see (your department and "all" unless your role sees all)',
          security,
          querystring: budgetListQuery,
          response: { 200: budgetListResponse, ...errorResponses(400, 401) },
        },
      },
      async (request) => listBudgets(context, { actor: actorOf(request), query: request.query }),
    );

    // Declared before /budget/:code; find-my-way prefers the static path anyway.
    app.get(
      '/budget/codes',
      {
        schema: {
          tags,
          summary:
            'Active budget codes with their available amounts: all, or those matching search (at most limit)',
          security,
          querystring: budgetCodesQuery,
          response: { 200: budgetCodesResponse, ...errorResponses(400, 401) },
        },
      },
      async (request) =>
        listBudgetCodes(context, { actor: actorOf(request), query: request.query }),
    );

    app.get(
      '/budget/:code',
      {
        schema: {
          tags,
          summary:
            "One budget by code, with its requests, changelog and monthly history; its terms' version in `ETag`",
          security,
          params: budgetCodeParam,
          response: { 200: budgetDetailResponse, ...errorResponses(400), ...errors },
        },
      },
      async (request, reply) => {
        const budget = await getBudget(context, {
          actor: actorOf(request),
          code: request.params.code,
        });
        return reply.header('etag', budgetVersion(budget.data)).send(budget);
      },
    );

    app.get(
      '/budget/:code/balance',
      {
        schema: {
          tags,
          summary: 'Whether the budget can fund an amount; total is its available amount',
          security,
          params: budgetCodeParam,
          querystring: balanceQuery,
          response: {
            200: balanceResponse,
            ...errorResponses(400, 401, 404),
          },
        },
      },
      async (request) =>
        checkBudgetBalance(context, {
          actor: actorOf(request),
          code: request.params.code,
          amount: request.query.amount,
        }),
    );

    app.get(
      '/budget/download/:code',
      {
        schema: {
          tags,
          summary: "The budget's requests as a spreadsheet (finance)",
          security,
          params: budgetCodeParam,
          produces: [xlsxContentType],
          response: {
            200: z.unknown().describe('An xlsx file named "<code>-requests.xlsx"'),
            ...errorResponses(400),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const file = await downloadBudgetRequests(context, {
          actor: actorOf(request),
          code: request.params.code,
        });
        return sendSpreadsheet(reply, file);
      },
    );

    app.post(
      '/budget',
      {
        config: { isIdempotent: true },
        schema: {
          tags,
          summary: 'Create a budget (finance); the server computes the code',
          security,
          headers: idempotencyHeaders,
          body: createBudgetRequest,
          response: {
            201: budgetMutationResponse,
            ...errorResponses(400),
            ...errors,
            ...errorResponses(409),
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send({
          data: await createBudget(context, { actor: actorOf(request), input: request.body }),
        }),
    );

    app.put(
      '/budget',
      {
        schema: {
          tags,
          summary:
            'Edit a budget, or archive / re-activate it with {id, current_status} (finance); with `If-Match`, only the version read (412 otherwise)',
          security,
          body: updateBudgetRequest,
          response: {
            200: budgetMutationResponse,
            ...errorResponses(400),
            ...errors,
            ...errorResponses(409, 412),
          },
        },
      },
      async (request, reply) => {
        const budget = await updateBudget(context, {
          actor: actorOf(request),
          input: request.body,
          ifMatch: request.headers['if-match'],
        });
        return reply.header('etag', budgetVersion(budget)).send({ data: budget });
      },
    );

    app.post(
      '/budget/remove',
      {
        schema: {
          tags,
          summary: 'Delete a budget that has no requests (finance)',
          security,
          body: removeBudgetRequest,
          response: {
            200: removeBudgetResponse,
            ...errorResponses(400),
            ...errors,
            ...errorResponses(409),
          },
        },
      },
      async (request) => removeBudget(context, { actor: actorOf(request), id: request.body.id }),
    );
  };
}
