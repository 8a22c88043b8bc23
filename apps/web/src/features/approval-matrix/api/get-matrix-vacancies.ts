import {
  approvalMatrixVacanciesResponse,
  type ApprovalMatrixVacanciesResponse,
} from '@imprest/domain/api/approval-matrix.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** Under the matrix's key: a saved matrix (its live event) asks again. */
export const matrixVacanciesQueryKey = ['approval-matrix', 'vacancies'] as const;

/** GET approval-matrix/vacancies (admins): the matrix's positions that no unlocked user holds. */
export function getMatrixVacancies(): Promise<ApprovalMatrixVacanciesResponse> {
  return apiRequest('approval-matrix/vacancies', { schema: approvalMatrixVacanciesResponse });
}

/**
 * The positions requests would wait at. Asked again whenever a page showing them opens: a user
 * added, locked or given another position changes the answer, and no live event says so.
 */
export function useMatrixVacancies({ isEnabled = true }: { isEnabled?: boolean } = {}) {
  return useQuery({
    queryKey: matrixVacanciesQueryKey,
    queryFn: getMatrixVacancies,
    staleTime: 0,
    enabled: isEnabled,
  });
}
