import { balanceResponse, type BalanceResponse } from '@imprest/domain/api/budgets.ts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET budget/{code}/balance?amount=: whether the code can fund the amount; total is available. */
export function checkBudgetBalance(code: string, amount: number | null): Promise<BalanceResponse> {
  return apiRequest(`budget/${encodeURIComponent(code)}/balance`, {
    query: { amount: amount ?? undefined },
    schema: balanceResponse,
  });
}

/**
 * The budget check of spec §5: it runs when the budget code changes, and when the amount changes
 * while a code is set. Nothing runs without a code.
 */
export function useBudgetBalance(code: string | undefined, amount: number | null) {
  return useQuery({
    queryKey: ['budgets', 'balance', code ?? '', amount],
    queryFn: () => checkBudgetBalance(code ?? '', amount),
    enabled: Boolean(code),
    staleTime: 0,
    // While a new amount is checked, the code's last answer stays (its total still applies).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === (code ?? '') ? previous : undefined,
  });
}
