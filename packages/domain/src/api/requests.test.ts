import { describe, expect, it } from 'vitest';
import {
  createRequestRequest,
  pendingListQuery,
  requestListQuery,
  resubmitRequestRequest,
} from './requests.ts';
import { reviewRequest } from './reviews.ts';
import { updateExchangeRatesRequest } from './settings.ts';

const base = {
  amount_requested: 1000,
  purpose: 'travel',
  mode_of_service: 'public',
  expenditure_date: '2030-01-01',
  budget_code: '6105',
};

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message).join(' | ') ?? '';

describe('createRequestRequest', () => {
  it('fills the defaults of spec §3 and ignores the owner fields', () => {
    const parsed = createRequestRequest.parse({
      ...base,
      request_owner_id: 'x',
      request_owner_name: 'Mallory',
    });
    expect(parsed).toMatchObject({
      amount_currency: 'tzs',
      payment_mode: 'cash',
      tax_status: 'taxInclusive',
      expenditure_justification: '',
      file_paths: [],
      mode_of_service: 'public',
      name_of_establishment: null,
    });
  });

  it('drops the mode of a purpose that has none', () => {
    expect(
      createRequestRequest.parse({ ...base, purpose: 'pettyCash', mode_of_service: 'public' })
        .mode_of_service,
    ).toBeNull();
    expect(
      createRequestRequest.parse({ ...base, purpose: 'other', mode_of_service: undefined })
        .mode_of_service,
    ).toBeNull();
  });

  it('accepts an ISO date-time', () => {
    expect(
      createRequestRequest.safeParse({ ...base, expenditure_date: '2030-01-01T21:00:00.000Z' })
        .success,
    ).toBe(true);
  });

  it.each([
    ['a text amount', { amount_requested: '1000' }, 'Amount must be a number'],
    ['a zero amount', { amount_requested: 0 }, 'greater than zero'],
    ['a negative amount', { amount_requested: -5 }, 'greater than zero'],
    ['three decimals', { amount_requested: 1.005 }, 'at most two decimals'],
    ['an unknown purpose', { purpose: 'party' }, 'purpose must be one of'],
    [
      'a mode of another purpose',
      { mode_of_service: 'hotel' },
      'mode_of_service must be one of public, company',
    ],
    ['a missing mode', { mode_of_service: undefined }, 'mode_of_service must be one of'],
    ['an unknown currency', { amount_currency: 'eur' }, 'Invalid option'],
    ['a bad date', { expenditure_date: '01/01/2030' }, 'expenditure_date must be a date'],
    ['an empty budget code', { budget_code: ' ' }, 'budget_code is required'],
    ['an unexplained exclusive tax', { tax_status: 'taxExclusive' }, 'Explain the tax status'],
    ['an unknown payment mode', { payment_mode: 'crypto' }, 'Invalid option'],
  ])('refuses %s', (_name, change, message) => {
    const result = createRequestRequest.safeParse({ ...base, ...change });
    expect(result.success).toBe(false);
    expect(messagesOf(result)).toContain(message);
  });

  it('resubmission needs the parent request', () => {
    expect(messagesOf(resubmitRequestRequest.safeParse(base))).toContain('parent_request');
    const parent = '00000000-0000-4000-8000-000000000001';
    expect(resubmitRequestRequest.parse({ ...base, parent_request: parent }).parent_request).toBe(
      parent,
    );
  });
});

describe('pendingListQuery', () => {
  it('defaults to page 1 of 10, as every list does (decisions §2)', () => {
    expect(pendingListQuery.parse({})).toEqual({ page: 1, per_page: 10 });
    expect(pendingListQuery.parse({ page: '3', per_page: '100' })).toEqual({
      page: 3,
      per_page: 100,
    });
  });

  it.each([{ per_page: '101' }, { page: '0' }, { per_page: 'ten' }])('refuses %j', (query) => {
    expect(pendingListQuery.safeParse(query).success).toBe(false);
  });
});

describe('requestListQuery', () => {
  it('defaults to page 1 of 10, all statuses', () => {
    expect(requestListQuery.parse({})).toEqual({ page: 1, per_page: 10, status: 'all' });
  });

  it.each([{ status: 'request_edit' }, { per_page: '101' }, { page: '0' }])(
    'refuses %j',
    (query) => {
      expect(requestListQuery.safeParse(query).success).toBe(false);
    },
  );
});

describe('reviewRequest', () => {
  const id = '00000000-0000-4000-8000-000000000001';

  it('takes the decision and comments, ignoring the reviewer fields', () => {
    const parsed = reviewRequest.parse({
      id,
      request_id: id,
      status: 'approved',
      reviewer_name: 'Mallory',
      comments: null,
    });
    expect(parsed.comments).toBe('');
    expect(parsed.status).toBe('approved');
  });

  it.each(['pending', 'on_progress', 'yes'])('refuses status %s', (status) => {
    expect(messagesOf(reviewRequest.safeParse({ id, request_id: id, status }))).toContain(
      'approved, rejected or request_edit',
    );
  });
});

describe('updateExchangeRatesRequest', () => {
  it.each([
    [{ rates: { usd: 0, gbp: 1, chf: 1 } }, 'Rates must be between 1 and 100,000 tzs per unit'],
    [{ rates: { usd: 1, gbp: 1 } }, 'Rates must be numbers'],
    [{ base: 'usd', rates: { usd: 1, gbp: 1, chf: 1 } }, 'The base currency is tzs'],
  ])('refuses %j', (body, message) => {
    expect(messagesOf(updateExchangeRatesRequest.safeParse(body))).toContain(message);
  });
});
