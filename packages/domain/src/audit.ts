/**
 * The audit trail's vocabulary (issue 15; docs/decisions/0019): dotted action names, the kinds of
 * object they touch, and how a change is written down.
 */

export const auditActions = [
  'auth.signed_in',
  'auth.sign_in_failed',
  'auth.password_reset',
  'auth.password_set',
  'auth.password_changed',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.restricted',
  'user.unlocked',
  'user.locked',
  'budget.created',
  'budget.updated',
  'budget.archived',
  'budget.reactivated',
  'budget.deleted',
  'request.submitted',
  'request.resubmitted',
  'review.approved',
  'review.rejected',
  'review.returned',
  'retirement.attached',
  'retirement.submitted',
  'retirement.review_approved',
  'retirement.review_rejected',
  'retirement.edit_requested',
  'approval_matrix.updated',
  'exchange_rates.updated',
  'delegation.created',
  'delegation.ended',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditObjectTypes = [
  'user',
  'budget',
  'request',
  'retirement',
  'approval_matrix',
  'exchange_rates',
  'delegation',
] as const;
export type AuditObjectType = (typeof auditObjectTypes)[number];

/** The fields of a user the trail records (never the password hash or settings). */
export const userAuditFields = [
  'fullname',
  'email',
  'department',
  'role',
  'system_role',
  'phone_number',
] as const;

/** The terms of a request its submission's event names (a resubmission: those that changed). */
export const requestAuditTerms = [
  'version',
  'amount_requested',
  'amount_currency',
  'budget_code',
  'purpose',
  'name_of_establishment',
  'expenditure_date',
] as const;

/** What changed: each field's value before and after (absent before: created; after: removed). */
export type AuditChanges = Record<string, { from?: unknown; to?: unknown }>;

/** The name shown for changes made by no person (the midnight lock job). */
export const systemActorName = 'system';

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields of `after` that differ from `before`, as `{field: {from, to}}`; only the named
 * fields, so secrets and bookkeeping columns never enter the trail. Null when nothing changed.
 */
export function changesBetween<T extends Record<string, unknown>>(
  before: Partial<T> | null,
  after: Partial<T> | null,
  fields: readonly (keyof T & string)[],
): AuditChanges | null {
  const changes: AuditChanges = {};
  for (const field of fields) {
    const from = before?.[field];
    const to = after?.[field];
    if (before && after && sameValue(from, to)) continue;
    if (!before && to === undefined) continue;
    if (!after && from === undefined) continue;
    changes[field] = {
      ...(before ? { from: from ?? null } : {}),
      ...(after ? { to: to ?? null } : {}),
    };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}
