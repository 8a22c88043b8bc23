/** Page titles by the path part after /dashboard/ (spec §2). */
const titles: Record<string, string> = {
  requests: 'Requests',
  'new-requests': 'New Requests',
  'new-users': 'New Users',
  users: 'Users',
  'view-request': 'View Request',
  'approval-matrix': 'Approval Matrix',
  settings: 'Settings',
  'approval-object': 'New Approval Details',
  'view-user': 'View User',
  // Not in the spec's table: the own-profile page added with users management.
  profile: 'My Profile',
  budget: 'Budget',
  'new-budget': 'New Budget',
  retirements: 'Retirement',
  // Issue 15: the director's audit trail.
  audit: 'Audit',
};

/** The header title of a dashboard path, e.g. `/dashboard/budget/6105` → `Budget - 6105`. */
export function pageTitle(pathname: string): string {
  const rest = pathname.replace(/^\/dashboard\/?/, '').replace(/\/+$/, '');
  const [first = '', second] = rest.split('/');
  if (first === 'budget' && second) return `Budget - ${decodeURIComponent(second)}`;
  return titles[first] ?? 'Home';
}

export type Section = 'users' | 'budget' | 'requests';

/** What the header's New button creates on a path (spec §2). */
export function sectionOf(pathname: string): Section {
  if (pathname.includes('users')) return 'users';
  if (pathname.includes('budget')) return 'budget';
  return 'requests';
}

const newButtons: Record<Section, { label: string; path: string }> = {
  users: { label: 'New User', path: '/dashboard/new-users' },
  budget: { label: 'New Budget', path: '/dashboard/new-budget' },
  requests: { label: 'New Request', path: '/dashboard/new-requests' },
};

/** The header's 'New <section>' button of a path. */
export function newButtonFor(pathname: string): { label: string; path: string } {
  return newButtons[sectionOf(pathname)];
}
