import { roles } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import {
  canReadExchangeRateChanges,
  canReadExchangeRates,
  canUpdateExchangeRates,
} from './policy.ts';

const finance = new Set(['finance_officer', 'executive_secretary', 'director']);

describe('settings policy', () => {
  it.each(roles.map((role) => [role, finance.has(role)] as const))(
    '%s: read true, update and read changes %s',
    (role, isFinanceRole) => {
      expect(canReadExchangeRates({ role })).toBe(true);
      expect(canUpdateExchangeRates({ role })).toBe(isFinanceRole);
      expect(canReadExchangeRateChanges({ role })).toBe(isFinanceRole);
    },
  );
});
