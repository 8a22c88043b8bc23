import { retirementWarning, retirementWarningMessages } from '@imprest/domain/retirements.ts';
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { budgets, requests, retirementReviews, retirements, users } from '../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { demoUsers, seedDemo } from './seed.ts';

let t: TestApp;
const today = '2026-11-23';

beforeAll(async () => {
  t = await createTestApp();
  expect(await seedDemo(t.db, { today })).toBe(true);
});

async function userByEmail(email: string) {
  const [row] = await t.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no ${email}`);
  return row;
}

describe('demo retirements (through seedDemo)', () => {
  it('holds a retirement in every status, each consistent with its review round', async () => {
    const rows = await t.db.select().from(retirements).orderBy(asc(retirements.created_at));
    expect(new Set(rows.map((row) => row.status))).toEqual(
      new Set(['pending', 'on_progress', 'approved', 'rejected']),
    );
    for (const row of rows) {
      const [request] = await t.db.select().from(requests).where(eq(requests.id, row.request_id));
      expect(request).toMatchObject({ current_status: 'approved', is_latest: true });
      expect(request?.approval_number).toMatch(/^AP-\d{4}-\d{5}$/);
      expect(row.amount_received).toBe(request?.amount_requested);
      expect(row.budget_id).toBe(request?.budget_id);
      // What the API would accept: never more spent than received.
      if (row.amount_spent !== null)
        expect(Number(row.amount_spent)).toBeLessThanOrEqual(Number(row.amount_received));
      const round = await t.db
        .select()
        .from(retirementReviews)
        .where(eq(retirementReviews.retirement_id, row.id))
        .orderBy(asc(retirementReviews.step));
      const statuses = round.map((review) => review.status);
      if (row.status === 'pending') {
        expect(row).toMatchObject({ submissions: 0, submitted_at: null, amount_spent: null });
        expect(round).toEqual([]);
        continue;
      }
      expect(row.submissions).toBe(1);
      expect(row.submitted_at).toBeInstanceOf(Date);
      expect(row.amount_spent).not.toBeNull();
      expect(round.every((review) => review.round === 1)).toBe(true);
      expect(round.map((review) => review.reviewer_role)).toEqual([
        'finance_officer',
        'executive_secretary',
      ]);
      const expected = {
        on_progress: ['pending', 'pending'],
        approved: ['approved', 'approved'],
        rejected: ['approved', 'rejected'],
      }[row.status];
      expect(statuses, row.status).toEqual(expected);
      expect(row.next_reviewer_role).toBe(row.status === 'on_progress' ? 'finance_officer' : null);
      for (const review of round.filter((step) => step.status !== 'pending')) {
        expect(review.reviewer_id).not.toBeNull();
        expect(review.comments).not.toBe('');
      }
      if (row.status === 'rejected') {
        expect(round[1]?.comments).toMatch(/receipt/);
      }
      if (row.status === 'approved') expect(row.is_funds_returned).toBe(true);
    }
  });

  it('locks Hamisi (35 days past due) for the system, and leaves Asha (20 days) and every reviewer unlocked', async () => {
    const hamisi = await userByEmail('parkmanager@example.com');
    expect(hamisi).toMatchObject({ is_locked: true, locked_by: 'system' });
    expect(hamisi.locked_at).toBeInstanceOf(Date);
    expect(hamisi.lock_reason).toMatch(
      /^Retirement of Petty Cash \(AP-\d{4}-\d{5}\) is more than 30 days past its due date of 19\/10\/2026\.$/,
    );
    for (const { email } of demoUsers.filter((user) => user.email !== hamisi.email)) {
      expect((await userByEmail(email)).is_locked, email).toBe(false);
    }

    // Asha sees the escalated warning on her pending retirement, not the error.
    const asha = await userByEmail('staff@example.com');
    const pending = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.retirement_owner_id, asha.id));
    const overdue = pending.find((row) => row.status === 'pending');
    expect(overdue?.due_date).toBe('2026-11-03');
    expect(retirementWarning(overdue?.due_date ?? '', today).message).toBe(
      retirementWarningMessages.beforeBlocked,
    );
  });

  it('keeps every budget’s committed amount equal to the recomputed one', async () => {
    const rows = await t.db
      .select({
        code: budgets.code,
        committed: budgets.committed,
        recomputed: sql<string>`budget_committed_recomputed(${budgets.id})`,
      })
      .from(budgets);
    for (const row of rows) expect(Number(row.committed), row.code).toBe(Number(row.recomputed));
    // The approved retirement counts what was spent, not what was received.
    const [approved] = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.status, 'approved'));
    expect(Number(approved?.amount_spent)).toBeLessThan(Number(approved?.amount_received));
  });
});
