import { describe, expect, it } from 'vitest';
import { updateApprovalMatrixRequest } from './approval-matrix.ts';
import { resetPasswordRequest, setupRequest } from './auth.ts';
import { createBudgetRequest } from './budgets.ts';
import { unstorableTextMessage } from './common.ts';
import { createRequestRequest } from './requests.ts';
import { reviewRetirementRequest, submitRetirementRequest } from './retirements.ts';
import { reviewRequest } from './reviews.ts';
import { newUserRequest } from './users.ts';

// Every free-text field a client sends is refused, with one message, when PostgreSQL could not
// store it as sent: a NUL byte or half a surrogate pair (the security issue's fuzz found them).
const id = '00000000-0000-4000-8000-000000000001';
const valid = {
  setup: [
    setupRequest,
    { organization_name: 'Org', fullname: 'A B', email: 'a@b.co', password: 'long enough pw' },
    ['organization_name', 'fullname'],
  ],
  reset: [
    resetPasswordRequest,
    { token: 'abc', email: 'a@b.co', password: 'long enough pw' },
    ['token'],
  ],
  budget: [
    createBudgetRequest,
    {
      name: 'Fuel',
      description: 'Vehicles',
      code: 5,
      amount: 1000,
      currency: 'tzs',
      department: 'finance',
      meta_data: ['operating cost', 'stemParkDar'],
    },
    ['name', 'description'],
  ],
  request: [
    createRequestRequest,
    {
      amount_requested: 100,
      purpose: 'Fuel',
      expenditure_date: '2026-11-30',
      budget_code: '6105',
      expenditure_justification: 'why',
      comments: 'note',
      name_of_establishment: 'Shop',
    },
    ['budget_code', 'expenditure_justification', 'comments', 'name_of_establishment'],
  ],
  review: [reviewRequest, { id, request_id: id, status: 'approved', comments: 'ok' }, ['comments']],
  retirementSubmit: [
    submitRetirementRequest,
    { id, amount_spent: 1, amount_currency: 'tzs', comments: 'spent' },
    ['comments'],
  ],
  retirementReview: [
    reviewRetirementRequest,
    { id, review_id: id, status: 'approved', comments: 'fine' },
    ['comments'],
  ],
  user: [
    newUserRequest,
    { fullname: 'A B', email: 'a@b.co', department: 'finance', role: 'staff' },
    ['fullname'],
  ],
} as const;

describe.each(Object.entries(valid))('%s', (_name, [schema, body, fields]) => {
  it.each(fields as readonly string[])('%s refuses NUL bytes and lone surrogates', (field) => {
    for (const bad of ['a\u0000b', 'a\ud800b', '\udc00']) {
      const result = schema.safeParse({ ...body, [field]: bad });
      expect(result.success, `${field} = ${JSON.stringify(bad)}`).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toContain(unstorableTextMessage);
    }
  });
});

it('the approval matrix row description refuses a NUL byte', () => {
  const rows = [
    {
      start_value: 0,
      end_value: null,
      description: 'x\u0000',
      user_role: ['finance_officer'],
    },
  ];
  const result = updateApprovalMatrixRequest.safeParse({ rows });
  expect(result.error?.issues.map((issue) => issue.message)).toContain(unstorableTextMessage);
});
