import { describe, expect, it } from 'vitest';
import { changesBetween } from './audit.ts';

describe('changesBetween', () => {
  const fields = ['name', 'amount', 'status'] as const;
  it.each([
    {
      name: 'an edit lists only what changed',
      before: { name: 'Fuel', amount: '100.00', status: 'active' },
      after: { name: 'Fuel', amount: '250.00', status: 'active' },
      expected: { amount: { from: '100.00', to: '250.00' } },
    },
    {
      name: 'a creation has only "to"',
      before: null,
      after: { name: 'Fuel', amount: '100.00' },
      expected: { name: { to: 'Fuel' }, amount: { to: '100.00' } },
    },
    {
      name: 'a removal has only "from"',
      before: { name: 'Fuel', status: 'active' },
      after: null,
      expected: { name: { from: 'Fuel' }, status: { from: 'active' } },
    },
    {
      name: 'nothing changed is null',
      before: { name: 'Fuel', amount: '1' },
      after: { name: 'Fuel', amount: '1' },
      expected: null,
    },
    {
      name: 'a value cleared becomes null',
      before: { name: 'Fuel', status: 'active' },
      after: { name: 'Fuel', status: undefined },
      expected: { status: { from: 'active', to: null } },
    },
  ])('$name', ({ before, after, expected }) => {
    expect(changesBetween(before, after, fields)).toEqual(expected);
  });

  it('never reads a field it was not given', () => {
    const changes = changesBetween(
      { name: 'A', password_hash: 'x' },
      { name: 'B', password_hash: 'y' },
      ['name'],
    );
    expect(changes).toEqual({ name: { from: 'A', to: 'B' } });
  });
});
