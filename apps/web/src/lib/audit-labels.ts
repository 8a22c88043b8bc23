import type { AuditEventResponse } from '@imprest/domain/api/audit.ts';
import type { AuditAction, AuditObjectType } from '@imprest/domain/audit.ts';

/** Each action of the audit trail in words (issue 15). */
export const auditActionLabels: Record<AuditAction, string> = {
  'auth.signed_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.password_reset': 'Password reset',
  'auth.password_set': 'Invitation accepted: password set',
  'auth.password_changed': 'Password changed',
  'user.created': 'User created',
  'user.updated': 'User edited',
  'user.deleted': 'User deleted',
  'user.restricted': 'User restricted',
  'user.unlocked': 'User unlocked',
  'user.locked': 'User locked',
  'budget.created': 'Budget created',
  'budget.updated': 'Budget edited',
  'budget.archived': 'Budget archived',
  'budget.reactivated': 'Budget re-activated',
  'budget.deleted': 'Budget deleted',
  'request.submitted': 'Request submitted',
  'request.resubmitted': 'Request resubmitted',
  'review.approved': 'Review: approved',
  'review.rejected': 'Review: rejected',
  'review.returned': 'Review: returned for edits',
  'retirement.attached': 'Retirement requested',
  'retirement.submitted': 'Retirement submitted',
  'retirement.review_approved': 'Retirement review: approved',
  'retirement.review_rejected': 'Retirement review: rejected',
  'retirement.edit_requested': 'Retirement resubmission asked',
  'approval_matrix.updated': 'Approval matrix changed',
  'exchange_rates.updated': 'Exchange rates changed',
  'delegation.created': 'Delegation set',
  'delegation.ended': 'Delegation ended',
};

export const auditObjectLabels: Record<AuditObjectType, string> = {
  user: 'User',
  budget: 'Budget',
  request: 'Request',
  retirement: 'Retirement',
  approval_matrix: 'Approval matrix',
  exchange_rates: 'Exchange rates',
  delegation: 'Delegation',
};

/** An action's words, or the action itself for one this build does not know. */
export function auditActionLabel(action: string): string {
  return auditActionLabels[action as AuditAction] ?? action;
}

export function auditObjectLabel(objectType: string): string {
  return auditObjectLabels[objectType as AuditObjectType] ?? objectType;
}

/** Numbers with thousands separators (spec §9), and all the decimals a rate keeps. */
const auditNumber = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 6 });

/** A value in words; numbers, and amounts stored as decimal text ("1000.00"), grouped. */
function valueText(value: unknown, field: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number') return auditNumber.format(value);
  if (typeof value === 'string') {
    const isAmount = /amount|balance|value|rate/.test(field) && /^-?\d+(\.\d+)?$/.test(value);
    return isAmount ? auditNumber.format(Number(value)) : value;
  }
  if (typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Each changed field as one line: `amount: 100 → 250`, `email: → a@b.c` for a new value. */
export function changeLines(changes: AuditEventResponse['changes']): string[] {
  if (!changes) return [];
  return Object.entries(changes).map(([field, change]) => {
    const name = field.replaceAll('_', ' ');
    if (!('from' in change)) return `${name}: ${valueText(change.to, field)}`;
    if (!('to' in change)) return `${name}: ${valueText(change.from, field)} (removed)`;
    return `${name}: ${valueText(change.from, field)} → ${valueText(change.to, field)}`;
  });
}
