import { randomBytes, randomUUID } from 'node:crypto';
import { budgetCode } from '@imprest/domain/budget-code.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import { addDays } from '@imprest/domain/retirements.ts';
import { roleLabels, roles, type Department, type Role } from '@imprest/domain/enums.ts';
import { buildBudget } from '../../test/factories/budgets.ts';
import { uploaded } from '../../test/factories/files.ts';
import { futureDay } from '../../test/factories/requests.ts';
import { buildOrganization, buildUser, type TestApp, type TestUser } from '../../test/helpers.ts';
import { delegations, requests, retirementReviews, retirements, reviews } from '../db/schema.ts';
import type { BudgetRow } from '../features/budgets/ledger.ts';

/**
 * The fixtures of the authorization matrix (authorization-matrix.ts): two organisations with one
 * user per role each, and builders of fresh records through the API, so every case starts from a
 * record of its own and the cases can run in any order.
 */

/** The roles of a reviewer chain under the default approval matrix (decisions §3). */
export const chainRoles = ['finance_officer', 'executive_secretary', 'director'] as const;
type ChainRole = (typeof chainRoles)[number];

/** A department per role, as in the demo organisation (decisions §1). */
const departmentOf: Record<Role, Department> = {
  staff: 'engineering',
  petty_cash_custodian: 'finance',
  finance_officer: 'finance',
  executive_secretary: 'administration',
  director: 'administration',
  board_chairman: 'administration',
  admin: 'it',
  stem_park_manager: 'stemKits',
};

/** A department that is not the user's, for a budget the department rule hides (spec §6). */
export function otherDepartment(user: { department: string }): Department {
  return user.department === 'procurement' ? 'outreach' : 'procurement';
}

export type Org = {
  id: string;
  name: string;
  /** The users whose calls the matrix makes: one per role. */
  actors: Record<Role, TestUser>;
  /**
   * Reviewers that are never an actor nor an owner: they take fixtures through the reviewer
   * chain, so no fixture needs an actor to review their own record.
   */
  reviewers: Record<ChainRole, TestUser>;
  /** A member of staff who owns the organisation's "colleague's" records. */
  colleague: TestUser;
  /** Large enough for every request of the file; department 'all'. */
  budget: BudgetRow;
};

export type World = {
  t: TestApp;
  /** The actors' organisation. */
  home: Org;
  /** Another organisation, whose objects must never be revealed (decisions §2). */
  elsewhere: Org;
  /** Ids of the other organisation's objects: no successful answer to an actor may hold one. */
  foreignMarkers: Set<string>;
};

/** The organisation a user belongs to. */
export function orgOf(world: World, user: { organization_id: string }): Org {
  return user.organization_id === world.home.id ? world.home : world.elsewhere;
}

/** Remembers ids of the other organisation's objects, and answers the first. */
function noted<T extends string>(world: World, org: Org, ...ids: [T, ...string[]]): T {
  if (org === world.elsewhere) for (const id of ids) world.foreignMarkers.add(id);
  return ids[0];
}

async function buildOrg(t: TestApp, name: string): Promise<Org> {
  const organizationId = await buildOrganization(t.db, name);
  const user = (role: Role, fullname: string, department: Department) =>
    buildUser(t.db, { organizationId, role, fullname, department });
  const actors = {} as Record<Role, TestUser>;
  for (const role of roles)
    actors[role] = await user(role, `${role} of ${name}`, departmentOf[role]);
  const reviewers = {} as Record<ChainRole, TestUser>;
  for (const role of chainRoles)
    reviewers[role] = await user(role, `Reviewing ${role} of ${name}`, departmentOf[role]);
  return {
    id: organizationId,
    name,
    actors,
    reviewers,
    colleague: await user('staff', `Colleague of ${name}`, 'marketing'),
    budget: await buildBudget(t.db, {
      organizationId,
      amount: 100_000_000_000,
      name: `Matrix budget of ${name}`,
    }),
  };
}

/** Both organisations, with a few records in the other one, so a leak in a list would show. */
export async function buildWorld(t: TestApp): Promise<World> {
  const home = await buildOrg(t, 'Home Org (authorization matrix)');
  const elsewhere = await buildOrg(t, 'Elsewhere Org (authorization matrix)');
  const world: World = { t, home, elsewhere, foreignMarkers: new Set() };
  noted(
    world,
    elsewhere,
    elsewhere.id,
    elsewhere.name,
    elsewhere.budget.id,
    elsewhere.colleague.id,
    ...Object.values(elsewhere.actors).map((user) => user.id),
    ...Object.values(elsewhere.reviewers).map((user) => user.id),
  );
  for (const owner of [elsewhere.colleague, elsewhere.actors.staff]) {
    await pendingRequest(world, owner);
    await pendingRetirement(world, owner);
    await uploadedFile(world, owner);
  }
  return world;
}

/** A fresh user of an organisation (for calls that change or end the user). */
export async function freshUser(
  world: World,
  org: Org,
  options: { role?: Role; isLocked?: boolean } = {},
): Promise<TestUser> {
  const role = options.role ?? 'staff';
  const user = await buildUser(world.t.db, {
    organizationId: org.id,
    role,
    department: departmentOf[role],
    fullname: `Fresh ${role}`,
    isLocked: options.isLocked ?? false,
  });
  noted(world, org, user.id);
  return user;
}

/** A budget of an organisation in a department (fresh: it may be archived or deleted). */
export async function freshBudget(world: World, org: Org, department: string): Promise<BudgetRow> {
  const budget = await buildBudget(world.t.db, { organizationId: org.id, department });
  noted(world, org, budget.id);
  return budget;
}

let apiCostCode = 0;

/** A `POST budget` body whose code no factory budget uses (the last category, Tanga, 1–99). */
export function newBudgetBody(): Record<string, unknown> {
  apiCostCode = (apiCostCode % 99) + 1;
  const category = 'youth boot camps';
  const branch = 'stemParkTanga';
  return {
    name: `Matrix budget ${budgetCode({ category, branch, costCode: apiCostCode })}`,
    amount: 5_000_000,
    amount_currency: 'tzs',
    department: 'all',
    code: apiCostCode,
    meta_data: [category, branch],
  };
}

/** The amount of a request: from 150,000,000 the chain has a third step, the director. */
export const groupAAmount = 150_000_000;

let approvalSequence = 80_000;

type StoredRequestState =
  | { status: 'pending' | 'on_progress'; approvedSteps: number }
  | { status: 'request_edit' | 'approved' };

/**
 * Writes a request of `owner` and its reviewer chain straight into the database, as submission
 * and reviews would have left them (the calls under test still go through the API; building the
 * state through it would make the suite several times slower). `amount` picks the chain
 * (decisions §3): finance officer → executive secretary, and the director from 150,000,000.
 */
async function storedRequest(
  world: World,
  owner: TestUser,
  state: StoredRequestState,
  options: { amount?: number; filePaths?: string[] } = {},
): Promise<{ id: string; reviewIds: string[] }> {
  const org = orgOf(world, owner);
  const amount = (options.amount ?? 1000).toFixed(2);
  const chain: ChainRole[] =
    (options.amount ?? 0) >= groupAAmount
      ? ['finance_officer', 'executive_secretary', 'director']
      : ['finance_officer', 'executive_secretary'];
  const stepStatus = (index: number): string => {
    if ('approvedSteps' in state) return index < state.approvedSteps ? 'approved' : 'pending';
    if (state.status === 'approved') return 'approved';
    // Returned for edits by the first reviewer; the later steps were never reached.
    return index === 0 ? 'request_edit' : 'pending';
  };
  const isApproved = state.status === 'approved';
  if (isApproved) approvalSequence += 1;
  const id = randomUUID();
  return world.t.db.transaction(async (tx) => {
    await tx.insert(requests).values({
      id,
      organization_id: org.id,
      chain_id: id,
      request_owner_id: owner.id,
      request_owner_name: owner.fullname,
      department: owner.department,
      purpose: 'travel',
      mode_of_service: 'public',
      name_of_establishment: 'Dar Express',
      expenditure_date: futureDay(),
      expenditure_justification: 'Built by the authorization matrix',
      amount_requested: amount,
      amount_currency: 'tzs',
      amount_base: amount,
      budget_id: org.budget.id,
      budget_code: org.budget.code,
      payment_mode: 'cash',
      tax_status: 'taxInclusive',
      current_status: state.status,
      next_reviewer_role: 'approvedSteps' in state ? (chain[state.approvedSteps] ?? null) : null,
      approval_number: isApproved ? `AP-2026-${approvalSequence}` : null,
      answered_by: chain
        .filter((_role, index) => stepStatus(index) !== 'pending')
        .map((role) => org.reviewers[role].id),
      file_paths: options.filePaths ?? [],
    });
    const rows = await tx
      .insert(reviews)
      .values(
        chain.map((role, index) => {
          const status = stepStatus(index);
          const reviewer = org.reviewers[role];
          const isAnswered = status !== 'pending';
          return {
            organization_id: org.id,
            request_id: id,
            step: index + 1,
            reviewer_role: role,
            reviewer_title: roleLabels[role],
            status,
            ...(isAnswered
              ? {
                  reviewer_id: reviewer.id,
                  reviewer_name: reviewer.fullname,
                  reviewed_at: new Date(),
                }
              : {}),
          };
        }),
      )
      .returning({ id: reviews.id, step: reviews.step });
    const reviewIds = rows.sort((a, b) => a.step - b.step).map((row) => row.id);
    noted(world, org, id, ...reviewIds);
    return { id, reviewIds };
  });
}

/** A request of `owner` waiting for its first review (stored). */
export async function pendingRequest(world: World, owner: TestUser): Promise<string> {
  return (await storedRequest(world, owner, { status: 'pending', approvedSteps: 0 })).id;
}

/** A request of `owner` whose steps before `step` (1-based) are approved (stored). */
export async function requestAtStep(
  world: World,
  owner: TestUser,
  step: 1 | 2 | 3,
): Promise<{ id: string; review_id: string }> {
  const request = await storedRequest(
    world,
    owner,
    { status: step === 1 ? 'pending' : 'on_progress', approvedSteps: step - 1 },
    { amount: step === 3 ? groupAAmount : 1000 },
  );
  const reviewId = request.reviewIds[step - 1];
  if (!reviewId) throw new Error(`request ${request.id} has no step ${step}`);
  return { id: request.id, review_id: reviewId };
}

/** A request of `owner` returned for edits by its first reviewer (stored). */
export async function returnedRequest(world: World, owner: TestUser): Promise<string> {
  return (await storedRequest(world, owner, { status: 'request_edit' })).id;
}

/** An approved request of `owner` without a retirement (stored). */
export async function approvedRequest(world: World, owner: TestUser): Promise<string> {
  return (await storedRequest(world, owner, { status: 'approved' })).id;
}

type StoredRetirementState =
  { status: 'pending' } | { status: 'on_progress'; approvedSteps: number } | { status: 'rejected' };

/**
 * Writes an approved request of `owner`, its retirement (attached by the organisation's finance
 * officer, due in three weeks) and, once submitted, its first review round, as the API would have.
 */
async function storedRetirement(
  world: World,
  owner: TestUser,
  state: StoredRetirementState,
  amount = 1000,
): Promise<{ id: string; reviewIds: string[] }> {
  const org = orgOf(world, owner);
  const request = await storedRequest(world, owner, { status: 'approved' }, { amount });
  const chain: ChainRole[] =
    amount >= groupAAmount
      ? ['finance_officer', 'executive_secretary', 'director']
      : ['finance_officer', 'executive_secretary'];
  const isSubmitted = state.status !== 'pending';
  const approvedSteps = state.status === 'on_progress' ? state.approvedSteps : 0;
  return world.t.db.transaction(async (tx) => {
    const [retirement] = await tx
      .insert(retirements)
      .values({
        organization_id: org.id,
        request_id: request.id,
        budget_id: org.budget.id,
        retirement_owner_id: owner.id,
        status: state.status,
        due_date: futureDay(21),
        amount_received: amount.toFixed(2),
        amount_currency: 'tzs',
        created_by: org.reviewers.finance_officer.id,
        ...(isSubmitted
          ? {
              amount_spent: (amount / 2).toFixed(2),
              comments: 'Receipts attached',
              submissions: 1,
              submitted_at: new Date(),
              next_reviewer_role:
                state.status === 'on_progress' ? (chain[approvedSteps] ?? null) : null,
            }
          : {}),
      })
      .returning({ id: retirements.id });
    if (!retirement) throw new Error('no retirement');
    let reviewIds: string[] = [];
    if (isSubmitted) {
      const rows = await tx
        .insert(retirementReviews)
        .values(
          chain.map((role, index) => {
            const status =
              state.status === 'rejected'
                ? index === 0
                  ? 'rejected'
                  : 'pending'
                : index < approvedSteps
                  ? 'approved'
                  : 'pending';
            const reviewer = org.reviewers[role];
            return {
              organization_id: org.id,
              retirement_id: retirement.id,
              round: 1,
              step: index + 1,
              reviewer_role: role,
              reviewer_title: roleLabels[role],
              status,
              ...(status === 'pending'
                ? {}
                : {
                    reviewer_id: reviewer.id,
                    reviewer_name: reviewer.fullname,
                    reviewed_at: new Date(),
                  }),
            };
          }),
        )
        .returning({ id: retirementReviews.id, step: retirementReviews.step });
      reviewIds = rows.sort((a, b) => a.step - b.step).map((row) => row.id);
    }
    noted(world, org, retirement.id, ...reviewIds);
    return { id: retirement.id, reviewIds };
  });
}

/** A pending retirement of `owner` (stored). */
export async function pendingRetirement(world: World, owner: TestUser): Promise<string> {
  return (await storedRetirement(world, owner, { status: 'pending' })).id;
}

/** A retirement of `owner` under review, its steps before `step` approved (stored). */
export async function retirementAtStep(
  world: World,
  owner: TestUser,
  step: 1 | 2 | 3,
): Promise<{ id: string; review_id: string }> {
  const retirement = await storedRetirement(
    world,
    owner,
    { status: 'on_progress', approvedSteps: step - 1 },
    step === 3 ? groupAAmount : 1000,
  );
  const reviewId = retirement.reviewIds[step - 1];
  if (!reviewId) throw new Error(`retirement ${retirement.id} has no step ${step}`);
  return { id: retirement.id, review_id: reviewId };
}

/** A retirement of `owner` rejected by its first reviewer (stored). */
export async function rejectedRetirement(world: World, owner: TestUser): Promise<string> {
  return (await storedRetirement(world, owner, { status: 'rejected' })).id;
}

/** A file `uploader` uploaded through the API and the local store; answers its stored name. */
export async function uploadedFile(world: World, uploader: TestUser): Promise<string> {
  const name = await uploaded(
    world.t.app,
    uploader,
    `receipt-${randomBytes(3).toString('hex')}.pdf`,
  );
  return noted(world, orgOf(world, uploader), name);
}

/** A file `owner` uploaded and attached to a request of theirs; answers its stored name. */
export async function attachedFile(world: World, owner: TestUser): Promise<string> {
  const name = await uploadedFile(world, owner);
  await storedRequest(world, owner, { status: 'pending', approvedSteps: 0 }, { filePaths: [name] });
  return name;
}

/** Today in the matrix app's ORG_TIMEZONE, as delegation periods read it. */
export function worldToday(world: World): string {
  return todayIn(world.t.context.config.orgTimezone);
}

/**
 * A delegation active from today for a week, written straight into the database (the rules of
 * `POST delegations` are not under test here, only who may act on it).
 */
export async function storedDelegation(
  world: World,
  options: { delegator: TestUser; delegate: TestUser },
): Promise<string> {
  const org = orgOf(world, options.delegator);
  const today = worldToday(world);
  const [row] = await world.t.db
    .insert(delegations)
    .values({
      organization_id: org.id,
      delegator_id: options.delegator.id,
      delegate_id: options.delegate.id,
      starts_on: today,
      ends_on: addDays(today, 6),
      created_by: options.delegator.id,
    })
    .returning({ id: delegations.id });
  if (!row) throw new Error('no delegation');
  return noted(world, org, row.id);
}
