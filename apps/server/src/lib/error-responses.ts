import { errorResponse } from '@imprest/domain/api/common.ts';

/**
 * The response schemas of a route's error answers, all `{ error, details? }`:
 * `response: { 200: budgetResponse, ...errorResponses(400, 401, 403) }`.
 */
export function errorResponses<const Code extends number>(
  ...codes: Code[]
): Record<Code, typeof errorResponse> {
  return Object.fromEntries(codes.map((code) => [code, errorResponse])) as Record<
    Code,
    typeof errorResponse
  >;
}
