import { describe, expect, it } from 'vitest';
import { newButtonFor, pageTitle, sectionOf } from './page-title.ts';

describe('pageTitle', () => {
  // Every row of the table in spec §2.
  it.each([
    ['/dashboard/requests', 'Requests'],
    ['/dashboard/new-requests', 'New Requests'],
    ['/dashboard/new-users', 'New Users'],
    ['/dashboard/users', 'Users'],
    ['/dashboard/view-request/abc', 'View Request'],
    ['/dashboard/approval-matrix', 'Approval Matrix'],
    ['/dashboard/settings', 'Settings'],
    ['/dashboard/approval-object', 'New Approval Details'],
    ['/dashboard/view-user/42', 'View User'],
    ['/dashboard/profile', 'My Profile'],
    ['/dashboard/budget', 'Budget'],
    ['/dashboard/new-budget', 'New Budget'],
    ['/dashboard/retirements', 'Retirement'],
    ['/dashboard/audit', 'Audit'],
    ['/dashboard/budget/6105', 'Budget - 6105'],
    ['/dashboard/budget/6105/', 'Budget - 6105'],
    ['/dashboard', 'Home'],
    ['/dashboard/', 'Home'],
    ['/dashboard/edit-budget/3', 'Home'],
    ['/dashboard/whatever', 'Home'],
  ])('%s → %s', (path, title) => {
    expect(pageTitle(path)).toBe(title);
  });
});

describe('sectionOf', () => {
  it.each([
    ['/dashboard/users', 'users'],
    ['/dashboard/new-users', 'users'],
    ['/dashboard/view-user/1', 'requests'],
    ['/dashboard/budget/6105', 'budget'],
    ['/dashboard/edit-budget/1', 'budget'],
    ['/dashboard/new-budget', 'budget'],
    ['/dashboard', 'requests'],
    ['/dashboard/retirements', 'requests'],
  ])('%s → %s', (path, section) => {
    expect(sectionOf(path)).toBe(section);
  });

  it('names the New button after the section', () => {
    expect(newButtonFor('/dashboard/users')).toEqual({
      label: 'New User',
      path: '/dashboard/new-users',
    });
    expect(newButtonFor('/dashboard/budget')).toEqual({
      label: 'New Budget',
      path: '/dashboard/new-budget',
    });
    expect(newButtonFor('/dashboard')).toEqual({
      label: 'New Request',
      path: '/dashboard/new-requests',
    });
  });
});
