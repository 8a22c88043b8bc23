import { requestResponse, type RequestResponse } from '@imprest/domain/api/requests.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { retirementKeys } from './query-keys.ts';

/** GET requests/request/{id}: the request whose `current_retirement` the retirement form shows. */
export function getRetirementRequest(requestId: string): Promise<RequestResponse> {
  return apiRequest(`requests/request/${encodeURIComponent(requestId)}`, {
    schema: requestResponse,
  });
}

/** The request of a retirement form, with its retirement, reviews and files. */
export function useRetirementRequest(requestId: string) {
  return useQuery({
    queryKey: retirementKeys.request(requestId),
    queryFn: () => getRetirementRequest(requestId),
    enabled: Boolean(requestId),
  });
}
