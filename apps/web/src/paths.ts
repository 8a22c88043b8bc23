/** Every URL of the web app (spec §2), as route patterns and link builders. */
export const paths = {
  signIn: { path: '/', getHref: () => '/' },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  reset: { path: '/reset', getHref: () => '/reset' },
  resetLink: { path: '/reset-link', getHref: () => '/reset-link' },
  newPassword: {
    path: '/new-password',
    /** `welcome`: the link came with an invitation (the user has no password yet). */
    getHref: ({ welcome, ...query }: { token: string; email: string; welcome?: '1' | undefined }) =>
      `/new-password?${new URLSearchParams(welcome ? { ...query, welcome } : query).toString()}`,
  },
  successAuth: { path: '/success-auth', getHref: () => '/success-auth' },
  dashboard: {
    home: { path: '/dashboard', getHref: () => '/dashboard' },
    requests: { path: '/dashboard/requests', getHref: () => '/dashboard/requests' },
    request: {
      path: '/dashboard/requests/:id',
      getHref: (id: string) => `/dashboard/requests/${encodeURIComponent(id)}`,
    },
    viewRequest: {
      path: '/dashboard/view-request/:id',
      getHref: (id: string) => `/dashboard/view-request/${encodeURIComponent(id)}`,
    },
    newRequest: { path: '/dashboard/new-requests', getHref: () => '/dashboard/new-requests' },
    retirements: { path: '/dashboard/retirements', getHref: () => '/dashboard/retirements' },
    /** The retirement form of a request (spec §2 Retirement form); `id` is the request's id. */
    retirement: {
      path: '/dashboard/retirements/:id',
      getHref: (requestId: string) => `/dashboard/retirements/${encodeURIComponent(requestId)}`,
    },
    users: { path: '/dashboard/users', getHref: () => '/dashboard/users' },
    newUsers: { path: '/dashboard/new-users', getHref: () => '/dashboard/new-users' },
    viewUser: {
      path: '/dashboard/view-user/:id',
      getHref: (id: string) => `/dashboard/view-user/${encodeURIComponent(id)}`,
    },
    budgets: { path: '/dashboard/budget', getHref: () => '/dashboard/budget' },
    budget: {
      path: '/dashboard/budget/:id',
      getHref: (code: string) => `/dashboard/budget/${encodeURIComponent(code)}`,
    },
    newBudget: { path: '/dashboard/new-budget', getHref: () => '/dashboard/new-budget' },
    editBudget: {
      path: '/dashboard/edit-budget/:id',
      getHref: (id: string) => `/dashboard/edit-budget/${encodeURIComponent(id)}`,
    },
    settings: { path: '/dashboard/settings', getHref: () => '/dashboard/settings' },
    /** The director's audit trail (issue 15). */
    audit: { path: '/dashboard/audit', getHref: () => '/dashboard/audit' },
    /** The signed-in user's own phone and password (issue 9: 'My profile' in the user menu). */
    profile: { path: '/dashboard/profile', getHref: () => '/dashboard/profile' },
    approvalMatrix: {
      path: '/dashboard/approval-matrix',
      getHref: () => '/dashboard/approval-matrix',
    },
    approvalObject: {
      path: '/dashboard/approval-object',
      getHref: () => '/dashboard/approval-object',
    },
  },
} as const;
