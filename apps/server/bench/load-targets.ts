/**
 * What the load benchmark (load.ts) acts on, found in the seeded database: organisation 0's people
 * and budgets for the reads and the submissions, and for the other writes distinct targets, enough
 * for the target rate: pending review steps, one organisation's final approvals, and retirements
 * waiting for their owners. One of each is kept aside to count its write's statements.
 */
import type pg from 'pg';
import { writeTargets } from './load-options.ts';
import { log, type BenchUser } from './support.ts';

/** A query on the benchmark's database, answering its rows. */
export type Query = <T extends pg.QueryResultRow>(text: string, params?: unknown[]) => Promise<T[]>;

/** A pending review step: the request, the step, and who answers it (its organisation and role). */
export type ReviewTarget = {
  request_id: string;
  review_id: string;
  organization_id: string;
  role: string;
};

/** A retirement waiting for its owner, with what the owner received and the budget it is charged to. */
export type RetirementTarget = {
  id: string;
  owner: BenchUser;
  amount_received: string;
  budget_id: string;
};

export type LoadTargets = Awaited<ReturnType<typeof findTargets>>;

/**
 * Finds the targets in the seeded database. The write targets are distinct and apart (a request
 * answered as an ordinary approval is not a final approval's): up to `writeTargets` of each, and
 * twice that of final approvals, which one organisation alone holds.
 */
export async function findTargets(query: Query) {
  // The people of organisation 0 the reads act as, and its big budget (budget 0).
  const [organization] = await query<{ id: string }>(
    `SELECT id FROM organizations WHERE name = 'Bench org 0'`,
  );
  if (!organization) throw new Error('no organisation');
  const userOf = async (where: string, params: unknown[] = []) => {
    const [user] = await query<BenchUser & { email: string; fullname: string }>(
      `SELECT id, organization_id, email, fullname FROM users
       WHERE organization_id = $1 AND ${where} ORDER BY email LIMIT 1`,
      [organization.id, ...params],
    );
    if (!user) throw new Error(`no user where ${where}`);
    return user;
  };
  const staff = await userOf(`email = $2`, ['staff7.0@bench.test']);
  const finance = await userOf(`role = 'finance_officer'`);
  const budgetRows = await query<{ code: string }>(
    `SELECT code FROM budgets WHERE organization_id = $1 ORDER BY amount DESC LIMIT 2`,
    [organization.id],
  );
  const bigBudget = budgetRows[0]?.code ?? '';
  // Submissions go to the 50 budgets of organisation 0 with the most room, in turn: one budget
  // would serialise every submission on its row lock.
  const submitBudgets = await query<{ id: string; code: string }>(
    `SELECT id, code FROM budgets WHERE organization_id = $1 ORDER BY amount - committed DESC LIMIT 50`,
    [organization.id],
  );
  const someBudget = budgetRows[1]?.code ?? bigBudget;
  const [oneRequest] = await query<{ id: string }>(
    `SELECT id FROM requests WHERE request_owner_id = $1 AND is_latest ORDER BY created_at DESC LIMIT 1`,
    [staff.id],
  );
  if (!oneRequest) throw new Error('the staff member has no request');
  const signInEmails = (
    await query<{ email: string }>(
      `SELECT email FROM users WHERE role = 'staff' ORDER BY email LIMIT 5000`,
    )
  ).map((row) => row.email);

  // Review targets: the first pending review of requests waiting for review, any organisation.
  const reviewTargets = await query<ReviewTarget>(
    `SELECT r.id AS request_id, v.id AS review_id, r.organization_id, v.reviewer_role AS role
     FROM requests r
     CROSS JOIN LATERAL (SELECT id, reviewer_role FROM reviews
                         WHERE request_id = r.id AND status = 'pending' ORDER BY step LIMIT 1) v
     WHERE r.is_latest AND r.current_status IN ('pending', 'on_progress')
     ORDER BY md5(r.id::text) LIMIT ${writeTargets}`,
  );
  // Final approvals of one organisation: the first pending review is the request's last, so each
  // answer takes the organisation's approval number (its row in approval_sequences, held to the
  // commit). They measure how final approvals in one organisation wait for one another.
  const finalTargets = await query<ReviewTarget>(
    `SELECT r.id AS request_id, v.id AS review_id, r.organization_id, v.reviewer_role AS role
     FROM requests r
     CROSS JOIN LATERAL (SELECT id, reviewer_role, step FROM reviews
                         WHERE request_id = r.id AND status = 'pending' ORDER BY step LIMIT 1) v
     WHERE r.organization_id = $1 AND r.is_latest AND r.current_status IN ('pending', 'on_progress')
       AND NOT EXISTS (SELECT 1 FROM reviews w WHERE w.request_id = r.id AND w.step > v.step)
     ORDER BY md5(r.id::text) LIMIT ${writeTargets * 2}`,
    [organization.id],
  );
  const retirementTargets = await query<RetirementTarget>(
    `SELECT t.id, json_build_object('id', t.retirement_owner_id, 'organization_id', t.organization_id) AS owner,
            t.amount_received, t.budget_id
     FROM retirements t WHERE t.status = 'pending'
     ORDER BY md5(t.id::text) LIMIT ${writeTargets}`,
  );
  // The two kinds of review target are apart: a request answered by one is not the other's.
  const finalIds = new Set(finalTargets.map((target) => target.request_id));
  reviewTargets.splice(
    0,
    reviewTargets.length,
    ...reviewTargets.filter((target) => !finalIds.has(target.request_id)),
  );
  log(
    `${reviewTargets.length} review targets, ${finalTargets.length} final approvals, ${retirementTargets.length} retirement targets`,
  );
  // One of each kept aside: the in-process app answers it once to count the write's statements.
  const reviewTarget = reviewTargets.pop();
  const finalTarget = finalTargets.pop();
  const retirementTarget = retirementTargets.pop();
  return {
    organization,
    staff,
    finance,
    bigBudget,
    someBudget,
    submitBudgets,
    oneRequest,
    signInEmails,
    reviewTargets,
    finalTargets,
    retirementTargets,
    reviewTarget,
    finalTarget,
    retirementTarget,
  };
}
