/**
 * The audit trail in words (issue 15): its actions, its objects and what changed, written once for
 * the director's page, each object's history and the trail's download, in the same words as the
 * pages they describe ("Department: Stem Kits", not "department: stemKits").
 */
import { amountRange, type ApprovalMatrixRow } from './approval-matrix.ts';
import {
  requestAuditTerms,
  userAuditFields,
  type AuditAction,
  type AuditChanges,
  type AuditObjectType,
} from './audit.ts';
import { budgetDepartmentLabel } from './budgets.ts';
import { clockText, dayText } from './days.ts';
import { delegationStatusLabels } from './delegations.ts';
import {
  branchLabels,
  budgetCategoryLabel,
  budgetStatusLabels,
  humanize,
  labelOf,
  requestCategories,
  requestCategoryLabels,
  requestStatusLabels,
  retirementStatusLabels,
  roleLabels,
  systemRoleLabels,
  type RequestCategory,
} from './enums.ts';
import { formatRate } from './exchange-rates.ts';
import { formatAmountNumber } from './money.ts';

/** Each action of the audit trail in words. */
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
  return labelOf(auditActionLabels, action);
}

export function auditObjectLabel(objectType: string): string {
  return labelOf(auditObjectLabels, objectType);
}

/** How a value is worded: the object's type decides what a `status` means. */
type Wording = (value: unknown, context: { objectType: string; timeZone: string }) => string;

/** Numbers, and amounts stored as decimal text ("1000.00"), with thousands separators (spec §9). */
const amount: Wording = (value) =>
  typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
    ? formatAmountNumber(value)
    : String(value);

const rate: Wording = (value) =>
  typeof value === 'number' || typeof value === 'string' ? formatRate(value) : String(value);

const labelled =
  (labels: Readonly<Record<string, string>>): Wording =>
  (value) =>
    labelOf(labels, String(value));

const yesNo: Wording = (value) => (value ? 'Yes' : 'No');

/** A calendar day as en-GB writes it: `05/03/2026`. */
const day: Wording = (value) => dayText(String(value));

/** A moment as the organisation's clock reads it: `05/03/2026 14:30`. */
const moment: Wording = (value, { timeZone }) => {
  const at = new Date(String(value));
  if (Number.isNaN(at.getTime())) return String(value);
  return clockText(timeZone, at);
};

/** A person recorded as `{id, name}` (a delegation's people, a review's delegator). */
const person: Wording = (value) =>
  value && typeof value === 'object' && 'name' in value ? String(value.name) : String(value);

const statusLabels: Partial<Record<string, Readonly<Record<string, string>>>> = {
  budget: budgetStatusLabels,
  request: requestStatusLabels,
  retirement: retirementStatusLabels,
  delegation: delegationStatusLabels,
};

const status: Wording = (value, { objectType }) =>
  labelOf(statusLabels[objectType] ?? {}, String(value));

/** Each field the trail records, by the label its own form or page gives it (spec §2). */
const fields: Record<
  string,
  { label: string; word?: Wording; labelOn?: Partial<Record<AuditObjectType, string>> }
> = {
  fullname: { label: 'Full name' },
  email: { label: 'E-mail' },
  department: { label: 'Department', word: (value) => budgetDepartmentLabel(String(value)) },
  role: { label: 'Position', word: labelled(roleLabels) },
  system_role: { label: 'System role', word: labelled(systemRoleLabels) },
  phone_number: { label: 'Phone number' },
  is_locked: { label: 'Locked', word: yesNo },
  lock_reason: { label: 'Reason' },
  name: { label: 'Name' },
  description: { label: 'Description' },
  amount: { label: 'Amount', word: amount },
  amount_currency: { label: 'Currency', word: (value) => String(value).toUpperCase() },
  code: { label: 'Code' },
  cost_code: { label: 'Cost code' },
  current_status: { label: 'Status', word: status },
  version: { label: 'Version' },
  amount_requested: { label: 'Amount Required', word: amount },
  budget_code: { label: 'Budget Code' },
  purpose: { label: 'Purpose', word: labelled(requestCategoryLabels) },
  name_of_establishment: { label: 'Name of Establishment' },
  expenditure_date: { label: 'Intended Expenditure Date', word: day },
  step: { label: 'Step' },
  // A review's answer on a request; a retirement's, a delegation's own status elsewhere.
  status: { label: 'Status', word: status, labelOn: { request: 'Review' } },
  comments: { label: 'Comments' },
  on_behalf_of: { label: 'On behalf of', word: person },
  approval_number: { label: 'Approval number' },
  request_id: { label: 'Request' },
  amount_received: { label: 'Amount Received', word: amount },
  due_date: { label: 'Due Date', word: day },
  amount_spent: { label: 'Total Amount Spent', word: amount },
  submissions: { label: 'Submissions' },
  review: { label: 'Review', word: labelled(requestStatusLabels) },
  is_funds_returned: { label: 'Cash Returned', word: yesNo },
  delegator: { label: 'Delegator', word: person },
  delegate: { label: 'Delegate', word: person },
  starts_on: { label: 'From', word: day },
  ends_on: { label: 'Until', word: day },
  note: { label: 'Note' },
  ended_at: { label: 'Ended', word: moment },
};

/**
 * The order an object's fields are read in, as its form lists them (the trail stores them as
 * PostgreSQL's jsonb orders keys: shortest first); a field not named here comes last.
 */
const fieldOrder: Partial<Record<AuditObjectType, readonly string[]>> = {
  user: [...userAuditFields, 'is_locked', 'lock_reason'],
  budget: [
    'code',
    'name',
    'amount',
    'amount_currency',
    'meta_data',
    'cost_code',
    'department',
    'description',
    'current_status',
  ],
  request: [
    ...requestAuditTerms,
    'step',
    'status',
    'comments',
    'on_behalf_of',
    'current_status',
    'approval_number',
  ],
  retirement: [
    'request_id',
    'amount_received',
    'due_date',
    'step',
    'review',
    'status',
    'amount_spent',
    'submissions',
    'comments',
    'is_funds_returned',
    'is_locked',
  ],
  delegation: ['delegator', 'delegate', 'starts_on', 'ends_on', 'note', 'status', 'ended_at'],
};

function inFormOrder(objectType: string, fieldNames: string[]): string[] {
  const order = fieldOrder[objectType as AuditObjectType];
  if (!order) return fieldNames;
  const rank = (field: string) => {
    const index = order.indexOf(field);
    return index < 0 ? order.length : index;
  };
  return [...fieldNames].sort((a, b) => rank(a) - rank(b));
}

/** The supplier's label the request form gives its purpose: 'Name of Transporter' for travel. */
function supplierLabel(purpose: unknown): string {
  const category = requestCategories[purpose as RequestCategory] as
    (typeof requestCategories)[RequestCategory] | undefined;
  return category?.supplierLabel ?? 'Name of Establishment';
}

/** A value no field names a wording for: still never `[object Object]`. */
function plainValue(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return formatAmountNumber(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(plainValue).join(', ');
  return JSON.stringify(value);
}

function valueText(
  value: unknown,
  word: Wording | undefined,
  context: { objectType: string; timeZone: string },
): string {
  if (value === null || value === undefined || value === '') return '—';
  return word ? word(value, context) : plainValue(value);
}

function changeLine(
  label: string,
  change: { from?: unknown; to?: unknown },
  text: (value: unknown) => string,
) {
  if (!('from' in change)) return `${label}: ${text(change.to)}`;
  if (!('to' in change)) return `${label}: ${text(change.from)} (removed)`;
  return `${label}: ${text(change.from)} → ${text(change.to)}`;
}

/** One row of an approval matrix as its page shows it: `0 - 150,000,000 Group B: Finance Officer, …`. */
function matrixRowText(row: ApprovalMatrixRow): string {
  const range = amountRange(row);
  const reviewers = row.user_role.map((role) => labelOf(roleLabels, role)).join(', ');
  const cascading = row.cascading_notification ? ' (cascading notification)' : '';
  return `${range} ${row.description}: ${reviewers}${cascading}`;
}

function isMatrix(value: unknown): value is ApprovalMatrixRow[] {
  return (
    Array.isArray(value) &&
    value.every((row) => row && typeof row === 'object' && Array.isArray(row.user_role))
  );
}

/**
 * A budget's meta_data ([expense category, branch], spec §3) as the budget's page shows it: two
 * fields, each named when it changed.
 */
function categoryAndBranchLines(change: { from?: unknown; to?: unknown }): string[] | null {
  const parts = (value: unknown) =>
    Array.isArray(value) && value.length === 2
      ? [budgetCategoryLabel(String(value[0])), labelOf(branchLabels, String(value[1]))]
      : undefined;
  const from = 'from' in change ? parts(change.from) : undefined;
  const to = 'to' in change ? parts(change.to) : undefined;
  if (('from' in change && !from) || ('to' in change && !to)) return null;
  return ['Expense category', 'Branch'].flatMap((label, index) => {
    const was = from?.[index];
    const is = to?.[index];
    if (from && to && was === is) return [];
    return [
      changeLine(label, { ...(from ? { from: was } : {}), ...(to ? { to: is } : {}) }, String),
    ];
  });
}

/** A matrix's change as the rows that differ, one line each: `Row 2: before → after`. */
function matrixLines(change: { from?: unknown; to?: unknown }): string[] | null {
  const before = change.from ?? [];
  const after = change.to ?? [];
  if (!isMatrix(before) || !isMatrix(after)) return null;
  const lines: string[] = [];
  for (let index = 0; index < Math.max(before.length, after.length); index += 1) {
    const wasRow = before[index];
    const isRow = after[index];
    const was = wasRow ? matrixRowText(wasRow) : undefined;
    const is = isRow ? matrixRowText(isRow) : undefined;
    if (was === is) continue;
    lines.push(
      changeLine(
        `Row ${index + 1}`,
        { ...(was === undefined ? {} : { from: was }), ...(is === undefined ? {} : { to: is }) },
        String,
      ),
    );
  }
  return lines;
}

/**
 * What an event changed, one line a field: `Amount: 100,000 → 250,000`, `E-mail: a@b.c` for a
 * new value, `Note: Away (removed)`; moments on the organisation's clock (`timeZone`).
 */
export function auditChangeLines(
  event: { object_type: string; changes: AuditChanges | null },
  timeZone: string,
): string[] {
  if (!event.changes) return [];
  const context = { objectType: event.object_type, timeZone };
  const { changes } = event;
  return inFormOrder(event.object_type, Object.keys(changes)).flatMap((field) => {
    const change = changes[field] ?? {};
    if (event.object_type === 'approval_matrix' && field === 'rows') {
      const lines = matrixLines(change);
      if (lines) return lines;
    }
    if (field === 'meta_data') {
      const lines = categoryAndBranchLines(change);
      if (lines) return lines;
    }
    if (event.object_type === 'exchange_rates') {
      return [changeLine(field.toUpperCase(), change, (value) => valueText(value, rate, context))];
    }
    const known = fields[field];
    const label =
      field === 'name_of_establishment'
        ? supplierLabel(changes.purpose?.to)
        : (known?.labelOn?.[event.object_type as AuditObjectType] ??
          known?.label ??
          humanize(field));
    return [changeLine(label, change, (value) => valueText(value, known?.word, context))];
  });
}
