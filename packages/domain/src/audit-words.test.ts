import { describe, expect, it } from 'vitest';
import { defaultApprovalMatrix } from './approval-matrix.ts';
import type { AuditChanges } from './audit.ts';
import { auditActionLabel, auditChangeLines, auditObjectLabel } from './audit-words.ts';

const zone = 'Africa/Dar_es_Salaam';

describe('auditChangeLines', () => {
  it.each<{ name: string; object_type: string; changes: AuditChanges; expected: string[] }>([
    {
      name: 'a budget created reads as its form: its order, labels, departments, categories, currency',
      object_type: 'budget',
      // As jsonb hands them back: shortest key first.
      changes: {
        code: { to: '8201' },
        amount: { to: '45000000.00' },
        meta_data: { to: ['stem kits', 'stemParkTanga'] },
        department: { to: 'stemKits' },
        current_status: { to: 'active' },
        amount_currency: { to: 'usd' },
      },
      expected: [
        'Code: 8201',
        'Amount: 45,000,000',
        'Currency: USD',
        'Expense category: Stem kits',
        'Branch: Stem Park Tanga',
        'Department: Stem Kits',
        'Status: Active',
      ],
    },
    {
      name: 'a budget for every department, archived',
      object_type: 'budget',
      changes: {
        meta_data: { from: ['stem kits', 'hq'], to: ['stem kits', 'stemParkDar'] },
        department: { from: 'all', to: 'finance' },
        current_status: { from: 'active', to: 'archived' },
      },
      expected: [
        'Branch: HQ → Stem Park Dar es Salaam',
        'Department: All departments → Finance',
        'Status: Active → Archived',
      ],
    },
    {
      name: 'a user edited: position and account role in words, a cleared phone',
      object_type: 'user',
      changes: {
        role: { from: 'staff', to: 'finance_officer' },
        system_role: { from: 'staff', to: 'admin' },
        phone_number: { from: '+255700000000', to: null },
        is_locked: { from: false, to: true },
      },
      expected: [
        'Position: Staff → Finance Officer',
        'System role: Staff → Admin',
        'Phone number: +255700000000 → —',
        'Locked: No → Yes',
      ],
    },
    {
      name: "a review on a request: the review's answer and the request's status apart",
      object_type: 'request',
      changes: {
        step: { to: 1 },
        status: { from: 'pending', to: 'approved' },
        on_behalf_of: { from: null, to: { id: 'x', name: 'Daudi Secretary' } },
        current_status: { from: 'pending', to: 'on_progress' },
      },
      expected: [
        'Step: 1',
        'Review: Pending → Approved',
        'On behalf of: — → Daudi Secretary',
        'Status: Pending → On progress',
      ],
    },
    {
      name: 'a request submitted: labels, purpose and day as its page writes them',
      object_type: 'request',
      changes: {
        purpose: { to: 'travel' },
        amount_requested: { to: '360000.00' },
        expenditure_date: { to: '2026-03-05' },
        name_of_establishment: { to: 'Kilimanjaro Express' },
      },
      expected: [
        'Amount Required: 360,000',
        'Purpose: Travel',
        'Name of Transporter: Kilimanjaro Express',
        'Intended Expenditure Date: 05/03/2026',
      ],
    },
    {
      name: 'a resubmission that kept its purpose names the supplier as the field does',
      object_type: 'request',
      changes: { name_of_establishment: { from: 'Old Inn', to: 'New Inn' } },
      expected: ['Name of Establishment: Old Inn → New Inn'],
    },
    {
      name: "a retirement's status is the retirement's own words",
      object_type: 'retirement',
      changes: {
        status: { from: 'on_progress', to: 'approved' },
        review: { from: 'pending', to: 'approved' },
        is_funds_returned: { to: true },
      },
      expected: [
        'Review: Pending → Approved',
        'Status: Under Review → Approved',
        'Cash Returned: Yes',
      ],
    },
    {
      name: 'a delegation: people by name, days, and its end on the organisation’s clock',
      object_type: 'delegation',
      changes: {
        delegator: { to: { id: 'a', name: 'Eshe Director' } },
        starts_on: { to: '2026-12-01' },
        status: { from: 'active', to: 'ended' },
        ended_at: { from: null, to: '2026-11-30T21:30:00.000Z' },
      },
      expected: [
        'Delegator: Eshe Director',
        'From: 01/12/2026',
        'Status: Active → Ended',
        'Ended: — → 01/12/2026 00:30',
      ],
    },
    {
      name: 'exchange rates: each currency with every decimal a rate keeps',
      object_type: 'exchange_rates',
      changes: { usd: { from: 2650, to: 2700.125 } },
      expected: ['USD: 2,650 → 2,700.125'],
    },
    {
      name: 'a field or value this build does not know is still words, never [object Object]',
      object_type: 'user',
      changes: { new_thing: { from: ['a', 'b'] }, other: { to: { x: 1 } } },
      expected: ['New thing: a, b (removed)', 'Other: {"x":1}'],
    },
  ])('$name', ({ object_type, changes, expected }) => {
    expect(auditChangeLines({ object_type, changes }, zone)).toEqual(expected);
  });

  it('an approval matrix names only the rows that changed', () => {
    const before = defaultApprovalMatrix();
    const after = [
      before[0]!,
      { ...before[1]!, user_role: ['finance_officer' as const, 'director' as const] },
      {
        start_value: 500_000_000,
        end_value: null,
        description: 'Board',
        user_role: ['board_chairman' as const],
        cascading_notification: true,
      },
    ];
    after[1] = { ...after[1]!, end_value: 500_000_000 };
    expect(
      auditChangeLines(
        { object_type: 'approval_matrix', changes: { rows: { from: before, to: after } } },
        zone,
      ),
    ).toEqual([
      'Row 2: 150,000,000 and above Group A: Finance Officer, Executive Secretary, Director → ' +
        '150,000,000 - 500,000,000 Group A: Finance Officer, Director',
      'Row 3: 500,000,000 and above Board: Board Chairman (cascading notification)',
    ]);
  });

  it('no changes is no line', () => {
    expect(auditChangeLines({ object_type: 'user', changes: null }, zone)).toEqual([]);
  });
});

describe('audit labels', () => {
  it('words known actions and objects and keeps unknown ones as they are', () => {
    expect(auditActionLabel('review.returned')).toBe('Review: returned for edits');
    expect(auditObjectLabel('approval_matrix')).toBe('Approval matrix');
    expect(auditActionLabel('later.action')).toBe('later.action');
  });
});
