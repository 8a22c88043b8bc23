import type { FastifyInstance } from 'fastify';
import { auth } from '../helpers.ts';

/** A date some days from now as YYYY-MM-DD (always a valid expenditure date). */
export function futureDay(days = 7): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A valid request body for a budget code. */
export function requestBody(
  budgetCode: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    amount_requested: 1000,
    amount_currency: 'tzs',
    purpose: 'travel',
    mode_of_service: 'public',
    name_of_establishment: 'Dar Express',
    expenditure_date: futureDay(),
    expenditure_justification: 'Field visit to the Tanga stem park',
    budget_code: budgetCode,
    payment_mode: 'cash',
    tax_status: 'taxInclusive',
    ...overrides,
  };
}

/** Submits a request through the API. */
export function submit(
  app: FastifyInstance,
  user: { token: string },
  body: Record<string, unknown>,
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/requests',
    headers: auth(user),
    payload: body,
  });
}

/** Answers a review through the API. */
export function review(
  app: FastifyInstance,
  user: { token: string },
  body: { id: string; request_id: string; status: string; comments?: string },
) {
  return app.inject({ method: 'PUT', url: '/api/v1/reviews', headers: auth(user), payload: body });
}

/** Submits a request that must succeed, and returns its body. */
export async function submitted(
  app: FastifyInstance,
  user: { token: string },
  body: Record<string, unknown>,
): Promise<{
  id: string;
  reviews: { id: string; step: number; reviewer_role: string }[];
  [key: string]: unknown;
}> {
  const response = await submit(app, user, body);
  if (response.statusCode !== 201)
    throw new Error(`submit answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** Answers step `step` (1-based) of a submitted request; the answer must succeed. */
export async function answered(
  app: FastifyInstance,
  user: { token: string },
  request: { id: string; reviews: { id: string }[] },
  step: number,
  status: 'approved' | 'rejected' | 'request_edit' = 'approved',
): Promise<void> {
  const response = await review(app, user, {
    id: request.reviews[step - 1]?.id ?? '',
    request_id: request.id,
    status,
  });
  if (response.statusCode !== 200)
    throw new Error(`review answered ${response.statusCode}: ${response.body}`);
}
