import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetCode, couldStartBudgetCode, isCostCode } from './budget-code.ts';
import { branchNames, branches, budgetCategories, budgetCategoryNames } from './enums.ts';

/** Any valid category, branch and cost code. */
const validCodeInput = fc.record({
  category: fc.constantFrom(...budgetCategoryNames),
  branch: fc.constantFrom(...branchNames),
  costCode: fc.integer({ min: 1, max: 99 }),
});

describe('budgetCode', () => {
  it.each([
    ['operating cost', 'stemParkDar', 5, '6105'],
    ['unicef', 'hq', 1, '3001'],
    ['youth boot camps', 'stemParkTanga', 99, '9299'],
    ['stem kits', 'hq', 10, '8010'],
  ] as const)('%s + %s + %i → %s', (category, branch, costCode, code) => {
    expect(budgetCode({ category, branch, costCode })).toBe(code);
  });

  it.each([0, 100, 1.5, -1, Number.NaN])('refuses cost code %s', (costCode) => {
    expect(isCostCode(costCode)).toBe(false);
    expect(() => budgetCode({ category: 'unicef', branch: 'hq', costCode })).toThrow(RangeError);
  });

  it('encodes category, branch and cost code in their digits, for every valid input', () => {
    fc.assert(
      fc.property(validCodeInput, ({ category, branch, costCode }) => {
        const code = budgetCode({ category, branch, costCode });
        expect(code).toHaveLength(4);
        expect(Number(code[0]) * 1000).toBe(budgetCategories[category]);
        expect(Number(code[1]) * 100).toBe(branches[branch]);
        expect(Number(code.slice(2))).toBe(costCode);
      }),
    );
  });
});

describe('couldStartBudgetCode', () => {
  it('holds for every start of every code, and for nothing that is not digits', () => {
    fc.assert(
      fc.property(validCodeInput, fc.integer({ min: 1, max: 4 }), (input, length) => {
        const code = budgetCode(input);
        expect(couldStartBudgetCode(code.slice(0, length))).toBe(true);
      }),
    );
    for (const text of ['', 'dar', '61a', '6 1', '%', '-61', '6.1']) {
      expect(couldStartBudgetCode(text)).toBe(false);
    }
  });
});
