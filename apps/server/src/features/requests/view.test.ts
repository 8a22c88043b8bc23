import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { requests, retirementReviews, retirements, reviews } from '../../db/schema.ts';
import {
  buildStaffedOrganization,
  type StaffedOrganization,
} from '../../../test/factories/organizations.ts';
import {
  buildRetirement,
  reviewedRetirement,
  submittedRetirement,
} from '../../../test/factories/retirements.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { findRequestView } from './view.ts';

let t: TestApp;
let org: StaffedOrganization;

beforeAll(async () => {
  t = await createTestApp();
  org = await buildStaffedOrganization(t.db);
});

/** An approved request of the staff member, for `amount` tzs, with a retirement attached. */
function attachedRetirement(amount: number) {
  return buildRetirement(t.app, {
    owner: org.staff,
    finance: org.finance,
    reviewers: [org.finance, org.secretary],
    budgetCode: org.budget.code,
    amount,
  });
}

/**
 * The request view reads a request's related rows as JSON in one statement (issue 13); what it
 * answers must be exactly what Drizzle answers when it reads the same rows on their own: every
 * column, timestamps to the millisecond, numerics as their text, dates and arrays alike.
 */
describe('findRequestView', () => {
  it('answers the rows Drizzle reads on their own: reviews, history, retirement and its rounds', async () => {
    const attached = await attachedRetirement(123_456.78);
    const submitted = await submittedRetirement(t.app, org.staff, attached, {
      amount_spent: 100_000.5,
    });
    await reviewedRetirement(t.app, org.finance, submitted, 'approved');
    const [retirement] = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.id, attached.id));
    if (!retirement) throw new Error('no retirement');

    const view = await findRequestView(t.db, {
      organizationId: org.organizationId,
      id: retirement.request_id,
    });
    if (!view) throw new Error('no view');

    const [request] = await t.db
      .select()
      .from(requests)
      .where(eq(requests.id, retirement.request_id));
    expect(view.record).toEqual({ ...request, budget_name: org.budget.name });
    expect(view.reviews).toEqual(
      await t.db
        .select()
        .from(reviews)
        .where(eq(reviews.request_id, retirement.request_id))
        .orderBy(asc(reviews.step)),
    );
    expect(view.reviews.every((review) => review.reviewed_at instanceof Date)).toBe(true);
    expect(view.history).toEqual([
      {
        id: request?.id,
        version: request?.version,
        created_at: request?.created_at,
        current_status: 'approved',
      },
    ]);
    expect(view.retirement?.record).toEqual({
      ...retirement,
      name: request?.request_owner_name,
      purpose: request?.purpose,
      approval_number: request?.approval_number,
      budget_code: request?.budget_code,
    });
    expect(view.retirement?.record.amount_received).toBe('123456.78');
    expect(view.retirement?.record.amount_spent).toBe('100000.50');
    expect(view.retirement?.reviews).toEqual(
      await t.db
        .select()
        .from(retirementReviews)
        .where(eq(retirementReviews.retirement_id, retirement.id))
        .orderBy(asc(retirementReviews.round), asc(retirementReviews.step)),
    );
    expect(view.ownerOldestDueDate).toBeNull();
    // Approved, and its retirement is not yet approved: still the owner's to retire.
    expect(view.ownerUnretiredTotal).toBe(123_456.78);
  });

  it('answers nothing for another organisation, and no retirement for a request without one', async () => {
    const attached = await attachedRetirement(500_000);
    const [retirement] = await t.db
      .select()
      .from(retirements)
      .where(eq(retirements.id, attached.id));
    if (!retirement) throw new Error('no retirement');
    const other = await buildStaffedOrganization(t.db, { name: 'Other Org' });
    expect(
      await findRequestView(t.db, {
        organizationId: other.organizationId,
        id: retirement.request_id,
      }),
    ).toBeUndefined();

    const view = await findRequestView(t.db, {
      organizationId: org.organizationId,
      id: retirement.request_id,
    });
    expect(view?.retirement?.reviews).toEqual([]);
    expect(view?.ownerOldestDueDate).toBe(retirement.due_date);
  });
});
