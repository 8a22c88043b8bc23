import { roles } from '@imprest/domain/enums.ts';
import { describe, expect, it } from 'vitest';
import { canReadExchangeRates, canUpdateExchangeRates } from './policy.ts';

const finance = new Set(['finance_officer', 'executive_secretary', 'director']);

describe('settings policy', () => {
  it.each(roles.map((role) => [role, finance.has(role)] as const))(
    '%s: read true, update %s',
    (role, update) => {
      expect(canReadExchangeRates({ role })).toBe(true);
      expect(canUpdateExchangeRates({ role })).toBe(update);
    },
  );
});
