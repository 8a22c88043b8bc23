/**
 * TanStack Query keys of the retirement calls. Lists start with 'retirements'; the retirement form
 * reads its request under the request view's key, so both screens share one cached request.
 */
export const retirementKeys = {
  all: ['retirements'] as const,
  list: (params: object) => [...retirementKeys.all, 'list', params] as const,
  request: (requestId: string) => ['requests', 'detail', requestId] as const,
};
