/** TanStack Query keys of the budget calls; every key starts with 'budgets' so one prefix refreshes all. */
export const budgetKeys = {
  all: ['budgets'] as const,
  lists: () => [...budgetKeys.all, 'list'] as const,
  list: (params: { page: number; perPage: number; search: string }) =>
    [...budgetKeys.lists(), params] as const,
  detail: (code: string) => [...budgetKeys.all, 'detail', code] as const,
  byId: (id: string, codeHint: string | null) =>
    [...budgetKeys.all, 'by-id', id, codeHint] as const,
};
