import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetPayload, createBudgetRequest, updateBudgetRequest } from './api/budgets.ts';
import {
  budgetChangeAction,
  budgetDepartments,
  budgetForm,
  budgetFormDefaults,
  canSeeBudget,
  frozenFieldsChanged,
  hasBalance,
  isAmountDecrease,
  parseTypedAmount,
  visibleBudgetDepartments,
  type BudgetTerms,
} from './budgets.ts';
import { departments, type BudgetStatus, type Department, type Role } from './enums.ts';

describe('budgetDepartments', () => {
  it("is 'all' followed by every department", () => {
    expect(budgetDepartments).toEqual(['all', ...departments]);
  });
});

describe('canSeeBudget (spec §6)', () => {
  it.each<[Role, Department, string, boolean]>([
    ['staff', 'engineering', 'engineering', true],
    ['staff', 'engineering', 'all', true],
    ['staff', 'engineering', 'finance', false],
    ['admin', 'it', 'marketing', false],
    ['petty_cash_custodian', 'finance', 'finance', true],
    ['petty_cash_custodian', 'finance', 'stemKits', false],
    ['stem_park_manager', 'stemKits', 'stemKits', true],
    ['stem_park_manager', 'stemKits', 'outreach', false],
    ['finance_officer', 'finance', 'engineering', true],
    ['executive_secretary', 'administration', 'stemKits', true],
    ['director', 'administration', 'marketing', true],
    ['board_chairman', 'administration', 'engineering', true],
  ])('%s of %s sees a %s budget: %s', (role, department, budgetDepartment, expected) => {
    expect(canSeeBudget(role, department, budgetDepartment)).toBe(expected);
  });

  it('restricts other roles to their department and all, and lets the four see everything', () => {
    expect(visibleBudgetDepartments('staff', 'content')).toEqual(['content', 'all']);
    expect(visibleBudgetDepartments('board_chairman', 'content')).toBeNull();
  });
});

describe('frozenFieldsChanged (spec §4)', () => {
  const before: Omit<BudgetTerms, 'amount'> = {
    currency: 'tzs',
    category: 'operating cost',
    branch: 'stemParkDar',
    costCode: 5,
  };

  it.each<[string, Partial<BudgetTerms>, string[]]>([
    ['nothing', {}, []],
    ['the currency', { currency: 'usd' }, ['currency']],
    ['the category', { category: 'unicef' }, ['category']],
    ['the branch', { branch: 'hq' }, ['branch']],
    ['the cost code', { costCode: 6 }, ['costCode']],
    ['currency and code', { currency: 'gbp', costCode: 9 }, ['currency', 'costCode']],
  ])('changing %s → %j', (_name, change, expected) => {
    expect(frozenFieldsChanged(before, { ...before, ...change })).toEqual(expected);
  });
});

describe('isAmountDecrease (spec §2)', () => {
  it.each([
    [100, 99.99, true],
    [100, 100, false],
    [100, 150, false],
  ])('%d → %d: %s', (before, after, expected) => {
    expect(isAmountDecrease(before, after)).toBe(expected);
  });

  it('holds exactly when the new amount is below the old one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 12 }),
        fc.integer({ min: 1, max: 10 ** 12 }),
        (a, b) => {
          expect(isAmountDecrease(a, b)).toBe(b < a);
          expect(isAmountDecrease(a, a + Math.abs(b))).toBe(false);
        },
      ),
    );
  });
});

describe('budgetChangeAction', () => {
  type Budget = { name: string; amount: number; current_status: BudgetStatus; meta_data: string[] };
  const budget: Budget = {
    name: 'Kits',
    amount: 10,
    current_status: 'active',
    meta_data: ['unicef', 'hq'],
  };

  it.each<[string, Partial<Budget>, string | null]>([
    ['nothing changed', {}, null],
    ['archived', { current_status: 'archived' }, 'archive'],
    ['renamed', { name: 'Kits 2' }, 'edit'],
    ['a new branch', { meta_data: ['unicef', 'stemParkDar'] }, 'edit'],
  ])('%s → %s', (_name, change, expected) => {
    expect(budgetChangeAction(budget, { ...budget, ...change })).toBe(expected);
  });

  it('calls a move back to active a re-activation, and a status change with other edits an edit', () => {
    const archived: Budget = { ...budget, current_status: 'archived' };
    expect(budgetChangeAction(archived, budget)).toBe('reactivate');
    expect(budgetChangeAction(archived, { ...budget, amount: 20 })).toBe('edit');
  });
});

describe('hasBalance', () => {
  it.each<[number, number | undefined, 'active' | 'archived', boolean]>([
    [100, 50, 'active', true],
    [100, 100, 'active', true],
    [100, 100.01, 'active', false],
    [100, undefined, 'active', true],
    [0, undefined, 'active', false],
    [0, 0, 'active', false],
    [-5, 1, 'active', false],
    [100, 50, 'archived', false],
  ])('available %d, amount %s, %s → %s', (available, amount, status, expected) => {
    expect(hasBalance({ available, amount, status })).toBe(expected);
  });

  it('never funds more than is available', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        (available, amount) => {
          if (hasBalance({ available, amount, status: 'active' }))
            expect(amount).toBeLessThanOrEqual(available);
        },
      ),
    );
  });
});

describe('budget form (spec §5)', () => {
  const valid = {
    ...budgetFormDefaults,
    name: 'Dar park operations',
    amount: '500,000,000',
    code: 5,
  };

  it('strips thousands separators and builds the POST budget payload', () => {
    expect(parseTypedAmount('1,234,567.50')).toBe(1234567.5);
    expect(Number.isNaN(parseTypedAmount(''))).toBe(true);
    const form = budgetForm.parse(valid);
    const payload = budgetPayload(form);
    expect(payload).toEqual({
      name: 'Dar park operations',
      description: null,
      amount: 500_000_000,
      department: 'all',
      amount_currency: 'tzs',
      code: 5,
      meta_data: ['operating cost', 'stemParkDar'],
    });
    expect(createBudgetRequest.parse(payload)).toEqual(payload);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no name', { name: ' ' }, 'name'],
    ['no amount', { amount: '' }, 'amount'],
    ['a zero amount', { amount: '0' }, 'amount'],
    ['cost code 0', { code: 0 }, 'code'],
    ['cost code 100', { code: 100 }, 'code'],
    ['cost code 1.5', { code: 1.5 }, 'code'],
    ['no cost code', { code: undefined }, 'code'],
    ['an unknown branch', { branch: 'moshi' }, 'branch'],
    ['an unknown category', { categories: 'travel' }, 'categories'],
    ['an unknown currency', { currency: 'eur' }, 'currency'],
  ])('refuses %s', (_name, change, path) => {
    const result = budgetForm.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(path);
  });

  it('accepts every cost code from 1 to 99 and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (code) => {
        expect(budgetForm.safeParse({ ...valid, code }).success).toBe(code >= 1 && code <= 99);
      }),
    );
  });
});

describe('updateBudgetRequest', () => {
  const id = '6f1c2a8e-1b7e-4f55-9d53-0c3c1f6a2b10';
  const fields = {
    name: 'A',
    amount: 1,
    amount_currency: 'tzs',
    code: 1,
    meta_data: ['unicef', 'hq'],
  };

  it.each<[string, Record<string, unknown>, string[] | true]>([
    ['an archive', { id, current_status: 'archived' }, true],
    ['a full edit', { id, ...fields }, true],
    ['a full edit with a status', { id, ...fields, current_status: 'active' }, true],
    ['an id alone', { id }, ['current_status']],
    ['a partial edit', { id, name: 'A', amount: 2 }, ['amount_currency', 'code', 'meta_data']],
    ['an unknown status', { id, current_status: 'deleted' }, ['current_status']],
    ['a bad id', { id: 'x', current_status: 'active' }, ['id']],
  ])('%s', (_name, body, expected) => {
    const result = updateBudgetRequest.safeParse(body);
    if (expected === true) expect(result.success).toBe(true);
    else expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(expected);
  });
});
