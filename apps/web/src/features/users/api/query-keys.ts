/** TanStack Query keys of the user calls; every one starts with 'users' (a socket update refreshes them). */
export const userKeys = {
  all: ['users'] as const,
  list: (params: object) => [...userKeys.all, 'list', params] as const,
  detail: (id: string) => [...userKeys.all, 'detail', id] as const,
  emails: () => [...userKeys.all, 'emails'] as const,
};
