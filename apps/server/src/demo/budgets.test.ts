import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgetChanges, budgets, users } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { seedDemo } from './seed.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db);
});

describe('seedDemoBudgets (through seedDemo)', () => {
  it('seeds four active budgets and one archived, created by the finance officer', async () => {
    const rows = await t.db.select().from(budgets).orderBy(asc(budgets.code));
    expect(rows.map((row) => [row.code, row.current_status])).toEqual([
      ['4001', 'active'],
      ['5001', 'active'],
      ['6105', 'active'],
      ['8201', 'active'],
      ['9024', 'archived'],
    ]);
    const [finance] = await t.db.select().from(users).where(eq(users.email, 'finance@example.com'));
    expect(new Set(rows.map((row) => row.created_by))).toEqual(new Set([finance?.id]));
    expect(rows.find((row) => row.code === '8201')).toMatchObject({
      currency: 'usd',
      amount: '20000.00',
    });
    expect(rows.find((row) => row.code === '5001')).toMatchObject({ department: 'all' });
  });

  it('writes a create row for each and an archive row for the archived one', async () => {
    const changes = await t.db.select().from(budgetChanges).orderBy(asc(budgetChanges.id));
    expect(changes.map((change) => [change.budget_code, change.action])).toEqual([
      ['6105', 'create'],
      ['4001', 'create'],
      ['8201', 'create'],
      ['5001', 'create'],
      ['9024', 'create'],
      ['9024', 'archive'],
    ]);
    expect(changes.at(-1)).toMatchObject({
      actor_name: 'Chausiku Finance',
      before: { current_status: 'active' },
      after: { current_status: 'archived' },
    });
  });
});
