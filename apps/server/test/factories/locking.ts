import { randomUUID } from 'node:crypto';
import type { RequestCategory, RetirementStatus } from '@imprest/domain/enums.ts';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../src/db/client.ts';
import { requests, retirements, users } from '../../src/db/schema.ts';
import type { BudgetRow } from '../../src/features/budgets/ledger.ts';
import { buildStaffedOrganization, type StaffedOrganization } from './organizations.ts';

let sequence = 0;

export type StoredRetirement = typeof retirements.$inferSelect & { approval_number: string };

/**
 * Writes an approved request of `owner` on `budget` and its retirement straight into the database,
 * with any status and due date (a due date in the past cannot be reached through the API).
 */
export async function buildStoredRetirement(
  db: Executor,
  options: {
    owner: { id: string; organization_id: string; fullname: string };
    /** The finance user who attached it. */
    attachedBy: { id: string };
    budget: BudgetRow;
    dueDate: string;
    status?: RetirementStatus;
    purpose?: RequestCategory;
    amount?: number;
  },
): Promise<StoredRetirement> {
  sequence += 1;
  const id = randomUUID();
  const amount = (options.amount ?? 100_000).toFixed(2);
  const approvalNumber = `AP-2026-${String(90_000 + sequence).padStart(5, '0')}`;
  await db.insert(requests).values({
    id,
    organization_id: options.owner.organization_id,
    chain_id: id,
    request_owner_id: options.owner.id,
    request_owner_name: options.owner.fullname,
    department: 'engineering',
    purpose: options.purpose ?? 'travel',
    expenditure_date: options.dueDate,
    amount_requested: amount,
    amount_currency: options.budget.currency,
    amount_base: amount,
    budget_id: options.budget.id,
    budget_code: options.budget.code,
    payment_mode: 'cash',
    tax_status: 'taxInclusive',
    current_status: 'approved',
    approval_number: approvalNumber,
  });
  const [row] = await db
    .insert(retirements)
    .values({
      organization_id: options.owner.organization_id,
      request_id: id,
      budget_id: options.budget.id,
      retirement_owner_id: options.owner.id,
      status: options.status ?? 'pending',
      due_date: options.dueDate,
      amount_received: amount,
      amount_currency: options.budget.currency,
      created_by: options.attachedBy.id,
    })
    .returning();
  if (!row) throw new Error('no retirement');
  return { ...row, approval_number: approvalNumber };
}

/** Sets a stored retirement's status directly, as its review would have. */
export async function setRetirementStatus(
  db: Executor,
  id: string,
  status: RetirementStatus,
): Promise<void> {
  await db.update(retirements).set({ status }).where(eq(retirements.id, id));
}

/** Another organisation ('Elsewhere', budget 6106) whose Asha Staff owns a retirement due `dueDate`. */
export async function buildOverdueOrganization(
  db: Database,
  dueDate: string,
): Promise<StaffedOrganization> {
  const elsewhere = await buildStaffedOrganization(db, { name: 'Elsewhere', budgetCode: '6106' });
  await buildStoredRetirement(db, {
    owner: elsewhere.staff,
    attachedBy: elsewhere.finance,
    budget: elsewhere.budget,
    dueDate,
  });
  return elsewhere;
}

/** A user's lock columns as stored. */
export async function lockStateOf(db: Executor, user: { id: string }) {
  const [row] = await db
    .select({
      is_locked: users.is_locked,
      locked_by: users.locked_by,
      lock_reason: users.lock_reason,
      locked_at: users.locked_at,
    })
    .from(users)
    .where(eq(users.id, user.id));
  return row;
}
