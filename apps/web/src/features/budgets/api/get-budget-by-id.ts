import { isUuid } from '@imprest/domain/api/common.ts';
import { maxPageSize } from '@imprest/domain/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { ApiError, type Versioned } from '../../../lib/api-client.ts';
import { getVersionedBudget, type BudgetDetail } from './get-budget.ts';
import { getBudgets } from './get-budgets.ts';
import { budgetKeys } from './query-keys.ts';

/** Pages through the budget list (finance sees every department) for the code of an id. */
async function findCodeOfId(id: string, signal?: AbortSignal): Promise<string | null> {
  for (let page = 1; ; page += 1) {
    const list = await getBudgets({ page, perPage: maxPageSize, search: '' }, signal);
    const match = list.budget_codes.find((budget) => budget.id === id);
    if (match) return match.code;
    if (page * list.per_page >= list.total || list.budget_codes.length === 0) return null;
  }
}

/**
 * The budget of the edit route's {id} (spec §2). The API reads a budget by code only, so links
 * carry the code as `?code=` and this checks that it still names the same budget; without it, or
 * when the code has changed since, the list is searched for the id. A code in place of the id is
 * accepted too, so an old bookmark of /edit-budget/6105 still opens.
 */
export async function getBudgetById(
  id: string,
  codeHint: string | null,
  signal?: AbortSignal,
): Promise<Versioned<BudgetDetail>> {
  if (!isUuid(id)) return getVersionedBudget(id, signal);
  if (codeHint) {
    try {
      const budget = await getVersionedBudget(codeHint, signal);
      if (budget.data.id === id) return budget;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  const code = await findCodeOfId(id, signal);
  if (!code) throw new ApiError(404, 'No such budget was found.');
  return getVersionedBudget(code, signal);
}

/** The budget the edit page works on, and the version of its terms. */
export function useBudgetById(id: string, codeHint: string | null) {
  return useQuery({
    queryKey: budgetKeys.byId(id, codeHint),
    queryFn: ({ signal }) => getBudgetById(id, codeHint, signal),
  });
}
