import { roles, type Role } from '@imprest/domain/enums.ts';
import type { InjectOptions } from 'fastify';
import { defaultExchangeRates } from '@imprest/domain/exchange-rates.ts';
import { canBeDelegate, canDelegate, canDelegateForOthers } from '@imprest/domain/delegations.ts';
import { isAdmin, isFinance, isSuperAdmin, seesAllBudgets } from '@imprest/domain/permissions.ts';
import { requestBody } from '../../test/factories/requests.ts';
import { presignPost } from '../../test/factories/files.ts';
import { auth, testPassword, type TestUser } from '../../test/helpers.ts';
import type { BudgetRow } from '../features/budgets/ledger.ts';
import {
  approvedRequest,
  attachedFile,
  freshBudget,
  freshUser,
  newBudgetBody,
  otherDepartment,
  pendingRequest,
  pendingRetirement,
  rejectedRetirement,
  requestAtStep,
  retirementAtStep,
  returnedRequest,
  storedDelegation,
  uploadedFile,
  worldToday,
  type Org,
  type World,
} from './authorization-world.ts';

/**
 * The authorization matrix (ASVS 5.0 V8): one row per documented API operation (or per variant of
 * one), saying how to make a valid call on a record and which status each role gets on its own
 * record, a colleague's, another organisation's — and, for every protected row, 401 without a
 * token. The statuses follow decisions §2 and §9: 401 without a session, 403 signed in but not
 * allowed, 404 for another organisation's objects and for records this user may not see.
 * `authorization-matrix.test.ts` turns every cell into a case and fails when a documented
 * operation has no row. To cover a new route, add a row here.
 */

export const recordKinds = ['own', 'colleague', 'other'] as const;
/** Whose record a call names: the actor's, a colleague's (same organisation), another organisation's. */
export type RecordKind = (typeof recordKinds)[number];
/** `none`: the call names no record (a list, a setting, a creation). */
export type Kind = RecordKind | 'none';

/** The status each role must get. */
export type Expectation = Readonly<Record<Role, number>>;

/** The same status for every role. */
export function every(status: number): Expectation {
  return Object.fromEntries(roles.map((role) => [role, status])) as Record<Role, number>;
}

/** `status` for the roles a permission admits, `refused` for the others. */
export function allow(
  permission: (role: Role) => boolean,
  status: number,
  refused: number,
): Expectation {
  return Object.fromEntries(
    roles.map((role) => [role, permission(role) ? status : refused]),
  ) as Record<Role, number>;
}

/** An expectation with some roles answered differently. */
export function except(base: Expectation, overrides: Partial<Record<Role, number>>): Expectation {
  return { ...base, ...overrides };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A method and path as the OpenAPI document names them, e.g. `PUT /api/v1/reviews`. */
export type Operation = `${Method} /api/v1/${string}`;

/** One call as `app.inject` takes it; the test adds the actor's token. */
export type Call = {
  method: Method;
  url: string;
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
};

/** What a row's call builder gets: the actor, and the record's owner and organisation. */
export type CaseInput = {
  world: World;
  actor: TestUser;
  kind: Kind;
  /** The actor (own, none), the organisation's colleague, or a user of the other organisation. */
  owner: TestUser;
  /** The organisation of the record: the actor's, or the other one. */
  org: Org;
};

export type ProtectedRow = {
  operation: Operation;
  isPublic?: false;
  /** Which flavour of the call, when one operation has several rows. */
  variant?: string;
  /** What own / colleague / other mean for this call, or why a kind does not apply. */
  note?: string;
  /** The expected status per record kind; a kind left out does not apply to this call. */
  expect: Partial<Record<Kind, Expectation>>;
  /** `fresh`: a new actor per case, because the call changes or ends the actor; `locked` too. */
  actor?: 'shared' | 'fresh' | 'fresh-locked';
  /** A valid call on a fresh record of the case (valid input: only authorization may refuse it). */
  call: (input: CaseInput) => Promise<Call>;
};

export type PublicRow = {
  operation: Operation;
  variant?: string;
  /** Public routes answer without a session; only that is checked, once, without hammering. */
  isPublic: true;
  note: string;
  /** The status of the call below, sent without a token. */
  status: number;
  call: (world: World) => Promise<Call>;
};

export type MatrixRow = ProtectedRow | PublicRow;

/** A row of a public route. */
function publicRoute(row: Omit<PublicRow, 'isPublic'>): PublicRow {
  return { ...row, isPublic: true };
}

const api = '/api/v1';

/** The user a call about a user names: the actor, or a fresh colleague (it may be changed). */
async function targetUser(input: CaseInput): Promise<TestUser> {
  if (input.kind === 'own' || input.kind === 'none') return input.actor;
  return freshUser(input.world, input.org);
}

/** A budget of the record's organisation: own = the actor's department, colleague = another. */
function budgetFor(input: CaseInput): Promise<BudgetRow> {
  const department =
    input.kind === 'colleague' ? otherDepartment(input.actor) : input.actor.department;
  return freshBudget(input.world, input.org, department);
}

const budgetNote =
  'own = a budget of the actor’s department, colleague = one of another department (the ' +
  'department rule of spec §6), other = another organisation’s.';

const userNote =
  'The record is a user: the actor, a fresh colleague, a user of another organisation.';

/** Reviews of a request or retirement at a step: only that step's role, never the owner. */
function reviewExpectation(stepRole: Role, colleagueRefused: (role: Role) => number) {
  return {
    own: every(403),
    colleague: Object.fromEntries(
      roles.map((role) => [role, role === stepRole ? 200 : colleagueRefused(role)]),
    ) as Record<Role, number>,
    other: every(404),
  };
}

const steps = [
  { step: 1, role: 'finance_officer' },
  { step: 2, role: 'executive_secretary' },
  { step: 3, role: 'director' },
] as const;

const authRows: MatrixRow[] = [
  publicRoute({
    operation: 'POST /api/v1/users/authenticate',
    note: 'Sign-in: correct credentials without a token.',
    status: 200,
    call: async (world) => ({
      method: 'POST',
      url: `${api}/users/authenticate`,
      payload: { email: (await freshUser(world, world.home)).email, password: testPassword },
    }),
  }),
  publicRoute({
    operation: 'GET /api/v1/setup',
    note: 'Whether set-up is needed.',
    status: 200,
    call: async () => ({ method: 'GET', url: `${api}/setup` }),
  }),
  publicRoute({
    operation: 'POST /api/v1/setup',
    note: 'Set-up once users exist: 409 (decisions §1), not 401.',
    status: 409,
    call: async () => ({
      method: 'POST',
      url: `${api}/setup`,
      payload: {
        organization_name: 'Late Org',
        fullname: 'Late Director',
        email: 'late-director@example.test',
        password: 'a long enough passphrase',
      },
    }),
  }),
  publicRoute({
    operation: 'POST /api/v1/forgot-password',
    note: 'A reset link for an existing e-mail.',
    status: 200,
    call: async (world) => ({
      method: 'POST',
      url: `${api}/forgot-password`,
      payload: { email: (await freshUser(world, world.home)).email },
    }),
  }),
  publicRoute({
    operation: 'POST /api/v1/forgot-password/validate',
    note: 'A reset with a token that was never issued: 400, not 401.',
    status: 400,
    call: async (world) => ({
      method: 'POST',
      url: `${api}/forgot-password/validate`,
      payload: {
        token: 'a'.repeat(64),
        email: world.home.colleague.email,
        password: 'a long enough passphrase',
      },
    }),
  }),
  {
    operation: 'GET /api/v1/users/validate-token',
    note: 'The session of the caller: there is no record to name.',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/users/validate-token` }),
  },
  {
    operation: 'POST /api/v1/users/logout',
    note: 'Ends the caller’s own session: there is no other record to name.',
    actor: 'fresh',
    expect: { own: every(204) },
    call: async () => ({ method: 'POST', url: `${api}/users/logout` }),
  },
  {
    operation: 'PUT /api/v1/users/password',
    note: 'Only one’s own password exists in this call (decisions §9); it ends the actor’s sessions.',
    actor: 'fresh',
    expect: { own: every(200) },
    call: async () => ({
      method: 'PUT',
      url: `${api}/users/password`,
      payload: { current_password: testPassword, new_password: 'another long passphrase 2026' },
    }),
  },
];

const budgetRows: MatrixRow[] = [
  {
    operation: 'GET /api/v1/budget',
    note: 'The list of the actor’s organisation (department rule inside it).',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/budget?per_page=100` }),
  },
  {
    operation: 'GET /api/v1/budget/codes',
    note: 'Every active code of the actor’s organisation, for the request form.',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/budget/codes` }),
  },
  {
    operation: 'GET /api/v1/budget/{code}',
    note: budgetNote,
    expect: { own: every(200), colleague: allow(seesAllBudgets, 200, 404), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/budget/${(await budgetFor(input)).code}`,
    }),
  },
  {
    operation: 'GET /api/v1/budget/{code}/balance',
    note: `${budgetNote} Balance checks are for every user, any department (decisions §9).`,
    expect: { own: every(200), colleague: every(200), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/budget/${(await budgetFor(input)).code}/balance?amount=10`,
    }),
  },
  {
    operation: 'GET /api/v1/budget/download/{code}',
    note: `${budgetNote} Finance only; the role gate answers first.`,
    expect: {
      own: allow(isFinance, 200, 403),
      colleague: allow(isFinance, 200, 403),
      other: allow(isFinance, 404, 403),
    },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/budget/download/${(await budgetFor(input)).code}`,
    }),
  },
  {
    operation: 'POST /api/v1/budget',
    note: 'Creates a budget in the actor’s organisation (finance).',
    expect: { none: allow(isFinance, 201, 403) },
    call: async () => ({ method: 'POST', url: `${api}/budget`, payload: newBudgetBody() }),
  },
  {
    operation: 'PUT /api/v1/budget',
    variant: 'archive',
    note: budgetNote,
    expect: {
      own: allow(isFinance, 200, 403),
      colleague: allow(isFinance, 200, 403),
      other: allow(isFinance, 404, 403),
    },
    call: async (input) => ({
      method: 'PUT',
      url: `${api}/budget`,
      payload: { id: (await budgetFor(input)).id, current_status: 'archived' },
    }),
  },
  {
    operation: 'PUT /api/v1/budget',
    variant: 'edit',
    note: budgetNote,
    expect: {
      own: allow(isFinance, 200, 403),
      colleague: allow(isFinance, 200, 403),
      other: allow(isFinance, 404, 403),
    },
    call: async (input) => {
      const budget = await budgetFor(input);
      return {
        method: 'PUT',
        url: `${api}/budget`,
        payload: {
          id: budget.id,
          name: 'Renamed by the matrix',
          amount: 2_000_000,
          amount_currency: budget.currency,
          code: budget.cost_code,
          meta_data: [budget.category, budget.branch],
        },
      };
    },
  },
  {
    operation: 'POST /api/v1/budget/remove',
    note: budgetNote,
    expect: {
      own: allow(isFinance, 200, 403),
      colleague: allow(isFinance, 200, 403),
      other: allow(isFinance, 404, 403),
    },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/budget/remove`,
      payload: { id: (await budgetFor(input)).id },
    }),
  },
];

const requestRows: MatrixRow[] = [
  {
    operation: 'POST /api/v1/requests',
    note: 'A new request on the actor’s organisation’s budget: every unlocked user (decisions §9).',
    expect: { none: every(201) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/requests`,
      payload: requestBody(input.world.home.budget.code),
    }),
  },
  {
    operation: 'POST /api/v1/requests',
    variant: 'another organisation’s budget code',
    note: 'other = a budget code that exists only in another organisation: it does not exist here (400, the code is input).',
    expect: { other: every(400) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/requests`,
      payload: requestBody(input.org.budget.code),
    }),
  },
  {
    operation: 'POST /api/v1/requests',
    variant: 'locked actor',
    note: 'A locked user may not submit (decisions §9).',
    actor: 'fresh-locked',
    expect: { none: every(403) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/requests`,
      payload: requestBody(input.world.home.budget.code),
    }),
  },
  {
    operation: 'POST /api/v1/requests/request/request-edit',
    note: 'A request returned for edits; only its owner resubmits (decisions §9).',
    expect: { own: every(201), colleague: allow(isAdmin, 403, 404), other: every(404) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/requests/request/request-edit`,
      payload: requestBody(input.org.budget.code, {
        parent_request: await returnedRequest(input.world, input.owner),
      }),
    }),
  },
  {
    operation: 'POST /api/v1/requests/request/request-edit',
    variant: 'locked actor',
    note: 'A locked owner may not resubmit (decisions §9).',
    actor: 'fresh-locked',
    expect: { own: every(403) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/requests/request/request-edit`,
      payload: requestBody(input.org.budget.code, {
        parent_request: await returnedRequest(input.world, input.owner),
      }),
    }),
  },
  {
    operation: 'GET /api/v1/requests/request/{id}',
    note: 'A pending request: its owner and admins read it (spec §6).',
    expect: { own: every(200), colleague: allow(isAdmin, 200, 404), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/requests/request/${await pendingRequest(input.world, input.owner)}`,
    }),
  },
  {
    operation: 'GET /api/v1/requests/summary/{id}',
    note: 'The record is the user whose counts are asked for; the role gate answers first.',
    expect: {
      own: every(200),
      colleague: allow(isAdmin, 200, 403),
      other: allow(isAdmin, 404, 403),
    },
    call: async (input) => ({ method: 'GET', url: `${api}/requests/summary/${input.owner.id}` }),
  },
  {
    operation: 'GET /api/v1/requests/download/{system_role}',
    variant: 'user mode',
    note: 'The record is the user whose requests are downloaded (`user` mode).',
    expect: {
      own: every(200),
      colleague: allow(isAdmin, 200, 403),
      other: allow(isAdmin, 404, 403),
    },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/requests/download/user?id=${input.owner.id}`,
    }),
  },
  {
    operation: 'GET /api/v1/requests/download/{system_role}',
    variant: 'admin mode',
    note: 'Admin mode (the actor’s role) downloads the organisation’s requests; the record is the user the file is named after.',
    expect: {
      own: allow(isAdmin, 200, 403),
      colleague: allow(isAdmin, 200, 403),
      other: allow(isAdmin, 404, 403),
    },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/requests/download/${input.actor.role}?id=${input.owner.id}`,
    }),
  },
  {
    operation: 'GET /api/v1/requests/{role}/pending/{id}',
    note: 'The record is the user the pending list is for: only one’s own role and id.',
    expect: { own: every(200), colleague: every(403), other: every(403) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/requests/${input.actor.role}/pending/${input.owner.id}`,
    }),
  },
  {
    operation: 'GET /api/v1/requests/{systemRole}/{userId}',
    variant: 'user mode',
    note: 'The record is the user whose requests are listed (`user` mode).',
    expect: {
      own: every(200),
      colleague: allow(isAdmin, 200, 403),
      other: allow(isAdmin, 404, 403),
    },
    call: async (input) => ({ method: 'GET', url: `${api}/requests/user/${input.owner.id}` }),
  },
  {
    operation: 'GET /api/v1/requests/{systemRole}/{userId}',
    variant: 'admin mode',
    note: 'Admin mode (the actor’s role) lists the organisation’s requests; the user id is the actor’s.',
    expect: { own: allow(isAdmin, 200, 403) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/requests/${input.actor.role}/${input.actor.id}`,
    }),
  },
  ...steps.map(({ step, role }): MatrixRow => ({
    operation: 'PUT /api/v1/reviews',
    variant: `step ${step}, ${role}`,
    note: 'A request waiting at this step: only the step role answers, never the owner (decisions §9).',
    expect: reviewExpectation(role, () => 403),
    call: async (input) => {
      const request = await requestAtStep(input.world, input.owner, step);
      return {
        method: 'PUT',
        url: `${api}/reviews`,
        payload: {
          id: request.review_id,
          request_id: request.id,
          status: 'approved',
          comments: 'Matrix',
        },
      };
    },
  })),
];

const retirementRows: MatrixRow[] = [
  {
    operation: 'POST /api/v1/retirement/attach-retirement',
    note: 'An approved request without a retirement, owned by the actor, a colleague or another organisation’s user; finance attaches.',
    expect: {
      own: allow(isFinance, 201, 403),
      colleague: allow(isFinance, 201, 403),
      other: allow(isFinance, 404, 403),
    },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/retirement/attach-retirement`,
      payload: { id: await approvedRequest(input.world, input.owner) },
    }),
  },
  {
    operation: 'POST /api/v1/retirement/user-submit',
    note: 'A pending retirement: only its owner submits (decisions §9).',
    expect: { own: every(200), colleague: allow(isAdmin, 403, 404), other: every(404) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/retirement/user-submit`,
      payload: {
        id: await pendingRetirement(input.world, input.owner),
        amount_spent: 500,
        amount_currency: 'tzs',
        comments: 'Matrix',
        file_paths: [],
      },
    }),
  },
  {
    operation: 'POST /api/v1/retirement/user-submit',
    variant: 'locked actor',
    note: 'A locked owner may still retire: locking exists to make them (decisions §8).',
    actor: 'fresh-locked',
    expect: { own: every(200) },
    call: async (input) => {
      const retirement = await pendingRetirement(input.world, input.owner);
      return {
        method: 'POST',
        url: `${api}/retirement/user-submit`,
        payload: { id: retirement, amount_spent: 500, amount_currency: 'tzs', file_paths: [] },
      };
    },
  },
  ...steps.map(({ step, role }): MatrixRow => ({
    operation: 'POST /api/v1/retirement/review',
    variant: `step ${step}, ${role}`,
    note: 'A retirement under review at this step: only the step role, never the owner; staff cannot see a colleague’s retirement (404).',
    expect: reviewExpectation(role, (actorRole) => (isAdmin(actorRole) ? 403 : 404)),
    call: async (input) => {
      const retirement = await retirementAtStep(input.world, input.owner, step);
      return {
        method: 'POST',
        url: `${api}/retirement/review`,
        payload: {
          id: retirement.id,
          review_id: retirement.review_id,
          status: 'approved',
          comments: 'Matrix',
        },
      };
    },
  })),
  {
    operation: 'POST /api/v1/retirement/request-edit',
    note: 'A rejected retirement: only its owner asks to resubmit (decisions §9).',
    expect: { own: every(200), colleague: allow(isAdmin, 403, 404), other: every(404) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/retirement/request-edit`,
      payload: { id: await rejectedRetirement(input.world, input.owner) },
    }),
  },
  {
    operation: 'GET /api/v1/retirement/requests',
    variant: 'user mode',
    note: 'The actor’s own retirements: the call names no other user.',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/retirement/requests?role=user` }),
  },
  {
    operation: 'GET /api/v1/retirement/requests',
    variant: 'admin mode',
    note: 'Admin mode (the actor’s role): every retirement of the organisation.',
    expect: { none: allow(isAdmin, 200, 403) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/retirement/requests?role=${input.actor.role}`,
    }),
  },
  {
    operation: 'GET /api/v1/retirement/pending',
    note: 'The actor’s own review queue: the call names no other user; a role with no step gets an empty page.',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/retirement/pending` }),
  },
  {
    operation: 'GET /api/v1/retirement/download/{role}',
    variant: 'user mode',
    note: 'The record is the user whose retirements are downloaded (`user` mode).',
    expect: {
      own: every(200),
      colleague: allow(isAdmin, 200, 403),
      other: allow(isAdmin, 404, 403),
    },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/retirement/download/user?id=${input.owner.id}`,
    }),
  },
  {
    operation: 'GET /api/v1/retirement/download/{role}',
    variant: 'admin mode',
    note: 'Admin mode (the actor’s role); the record is the user the file is named after.',
    expect: {
      own: allow(isAdmin, 200, 403),
      colleague: allow(isAdmin, 200, 403),
      other: allow(isAdmin, 404, 403),
    },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/retirement/download/${input.actor.role}?id=${input.owner.id}`,
    }),
  },
];

/** The default matrix (decisions §3), so replacing it changes nothing for the other cases. */
const defaultMatrixRows = [
  {
    start_value: 0,
    end_value: 150_000_000,
    description: 'Group B',
    user_role: ['finance_officer', 'executive_secretary'],
  },
  {
    start_value: 150_000_000,
    end_value: null,
    description: 'Group A',
    user_role: ['finance_officer', 'executive_secretary', 'director'],
  },
];

const settingsRows: MatrixRow[] = [
  {
    operation: 'GET /api/v1/approval-matrix',
    note: 'The organisation’s matrix: every user reads it (decisions §9).',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/approval-matrix` }),
  },
  {
    operation: 'GET /api/v1/approval-matrix/vacancies',
    note: 'The matrix’s positions nobody in the organisation holds: admins, who see and add the users.',
    expect: { none: allow(isAdmin, 200, 403) },
    call: async () => ({ method: 'GET', url: `${api}/approval-matrix/vacancies` }),
  },
  {
    operation: 'PUT /api/v1/approval-matrix',
    note: 'Replaces the organisation’s matrix (with the default one): director.',
    expect: { none: allow(isSuperAdmin, 200, 403) },
    call: async () => ({
      method: 'PUT',
      url: `${api}/approval-matrix`,
      payload: { rows: defaultMatrixRows },
    }),
  },
  {
    operation: 'GET /api/v1/settings/exchange-rates',
    note: 'The organisation’s rates: every user (a request form converts with them).',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/settings/exchange-rates` }),
  },
  {
    operation: 'PUT /api/v1/settings/exchange-rates',
    note: 'Sets the organisation’s rates (to the defaults): finance.',
    expect: { none: allow(isFinance, 200, 403) },
    call: async () => ({
      method: 'PUT',
      url: `${api}/settings/exchange-rates`,
      payload: { base: 'tzs', rates: defaultExchangeRates },
    }),
  },
  {
    operation: 'GET /api/v1/settings/exchange-rates/changes',
    note: 'Who changed the organisation’s rates: finance.',
    expect: { none: allow(isFinance, 200, 403) },
    call: async () => ({ method: 'GET', url: `${api}/settings/exchange-rates/changes` }),
  },
  {
    operation: 'GET /api/v1/settings/mail',
    note: 'How the server delivers e-mail, and where it writes them without SMTP: the admins who add users.',
    expect: { none: allow(isAdmin, 200, 403) },
    call: async () => ({ method: 'GET', url: `${api}/settings/mail` }),
  },
  {
    operation: 'POST /api/v1/jobs/lock-overdue',
    note: 'Runs the lock job for the actor’s organisation: director.',
    expect: { none: allow(isSuperAdmin, 200, 403) },
    call: async () => ({ method: 'POST', url: `${api}/jobs/lock-overdue`, payload: {} }),
  },
  {
    operation: 'GET /api/v1/audit',
    note: 'The organisation’s audit trail: director (issue 15).',
    expect: { none: allow(isSuperAdmin, 200, 403) },
    call: async () => ({ method: 'GET', url: `${api}/audit` }),
  },
  {
    operation: 'GET /api/v1/audit/download',
    note: 'The audit trail as a spreadsheet: director.',
    expect: { none: allow(isSuperAdmin, 200, 403) },
    call: async () => ({ method: 'GET', url: `${api}/audit/download` }),
  },
  {
    operation: 'GET /api/v1/audit/history/{object_type}/{object_id}',
    variant: 'request',
    note: 'A request’s history: whoever may read the request.',
    expect: { own: every(200), colleague: allow(isAdmin, 200, 404), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/audit/history/request/${await pendingRequest(input.world, input.owner)}`,
    }),
  },
  {
    operation: 'GET /api/v1/audit/history/{object_type}/{object_id}',
    variant: 'budget',
    note: `${budgetNote} A budget’s history: whoever may read the budget.`,
    expect: { own: every(200), colleague: allow(seesAllBudgets, 200, 404), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/audit/history/budget/${(await budgetFor(input)).id}`,
    }),
  },
  {
    operation: 'GET /api/v1/audit/history/{object_type}/{object_id}',
    variant: 'user',
    note: `${userNote} A user’s history: whoever may read the user.`,
    expect: { own: every(200), colleague: allow(isAdmin, 200, 403), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/audit/history/user/${input.owner.id}`,
    }),
  },
];

let emailCount = 0;
const newUser = (role: Role) => {
  emailCount += 1;
  return {
    fullname: `Matrix User ${emailCount}`,
    email: `matrix-user-${emailCount}-${Date.now()}@example.test`,
    department: 'engineering',
    role,
  };
};

const userRows: MatrixRow[] = [
  {
    operation: 'POST /api/v1/users',
    note: 'Adds a member of staff to the actor’s organisation: admin.',
    expect: { none: allow(isAdmin, 201, 403) },
    call: async () => ({ method: 'POST', url: `${api}/users`, payload: [newUser('staff')] }),
  },
  {
    operation: 'POST /api/v1/users',
    variant: 'director position',
    note: 'Only the director gives the director position; other admins get a 400 naming the row.',
    expect: { none: except(allow(isAdmin, 400, 403), { director: 201 }) },
    call: async () => ({ method: 'POST', url: `${api}/users`, payload: [newUser('director')] }),
  },
  {
    operation: 'GET /api/v1/users/department/{department}/{role}',
    note: 'The organisation’s users: admin.',
    expect: { none: allow(isAdmin, 200, 403) },
    call: async () => ({ method: 'GET', url: `${api}/users/department/all/all?per_page=100` }),
  },
  {
    operation: 'GET /api/v1/users/{id}',
    note: `${userNote} Reading users is an admin action, so staff get 403 on a colleague.`,
    expect: { own: every(200), colleague: allow(isAdmin, 200, 403), other: every(404) },
    call: async (input) => ({ method: 'GET', url: `${api}/users/${input.owner.id}` }),
  },
  {
    operation: 'PUT /api/v1/users',
    variant: 'phone number',
    note: `${userNote} Everyone their own phone; an admin anyone’s.`,
    expect: { own: every(200), colleague: allow(isAdmin, 200, 403), other: every(404) },
    call: async (input) => ({
      method: 'PUT',
      url: `${api}/users`,
      payload: { user_id: (await targetUser(input)).id, phone_number: '255700000001' },
    }),
  },
  {
    operation: 'PUT /api/v1/users',
    variant: 'e-mail',
    note: `${userNote} An admin changes e-mails.`,
    actor: 'fresh',
    expect: {
      own: allow(isAdmin, 200, 403),
      colleague: allow(isAdmin, 200, 403),
      other: every(404),
    },
    call: async (input) => {
      emailCount += 1;
      return {
        method: 'PUT',
        url: `${api}/users`,
        payload: {
          user_id: (await targetUser(input)).id,
          email: `matrix-renamed-${emailCount}-${Date.now()}@example.test`,
        },
      };
    },
  },
  {
    operation: 'PUT /api/v1/users',
    variant: 'full name',
    note: `${userNote} Only the director changes full names, their own too.`,
    actor: 'fresh',
    expect: {
      own: allow(isSuperAdmin, 200, 403),
      colleague: allow(isSuperAdmin, 200, 403),
      other: every(404),
    },
    call: async (input) => ({
      method: 'PUT',
      url: `${api}/users`,
      payload: { user_id: (await targetUser(input)).id, fullname: 'Renamed By Matrix' },
    }),
  },
  {
    operation: 'DELETE /api/v1/users/{userId}',
    note: `${userNote} The director deletes users, never their own account (400); the role gate answers first.`,
    expect: {
      own: except(every(403), { director: 400 }),
      colleague: allow(isSuperAdmin, 200, 403),
      other: allow(isSuperAdmin, 404, 403),
    },
    call: async (input) => ({
      method: 'DELETE',
      url: `${api}/users/${(await targetUser(input)).id}`,
    }),
  },
  {
    operation: 'PUT /api/v1/users/settings',
    note: `${userNote} Everyone their own settings; an admin anyone’s.`,
    expect: { own: every(200), colleague: allow(isAdmin, 200, 403), other: every(404) },
    call: async (input) => ({
      method: 'PUT',
      url: `${api}/users/settings`,
      payload: {
        user_id: (await targetUser(input)).id,
        settings: JSON.stringify({ mute_notification: false }),
      },
    }),
  },
  {
    operation: 'POST /api/v1/users/restrict',
    note: `${userNote} Finance locks others, never itself (400); the role gate answers first.`,
    expect: {
      own: allow(isFinance, 400, 403),
      colleague: allow(isFinance, 200, 403),
      other: allow(isFinance, 404, 403),
    },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/users/restrict`,
      payload: { user_id: (await targetUser(input)).id, lock_status: true },
    }),
  },
];

const fileRows: MatrixRow[] = [
  {
    operation: 'GET /api/v1/files/presigned-post-url',
    note: 'An upload policy in the actor’s organisation: every user.',
    expect: { none: every(200) },
    call: async () => ({
      method: 'GET',
      url: `${api}/files/presigned-post-url?file_name=receipt.pdf`,
    }),
  },
  {
    operation: 'GET /api/v1/files/presigned-get-url',
    variant: 'not attached yet',
    note: 'A file uploaded by the owner and not attached: only its uploader (decisions §6).',
    expect: { own: every(200), colleague: every(404), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/files/presigned-get-url?file_name=${await uploadedFile(input.world, input.owner)}`,
    }),
  },
  {
    operation: 'GET /api/v1/files/presigned-get-url',
    variant: 'attached to a request',
    note: 'A file of the owner’s request: whoever may read the request (decisions §9).',
    expect: { own: every(200), colleague: allow(isAdmin, 200, 404), other: every(404) },
    call: async (input) => ({
      method: 'GET',
      url: `${api}/files/presigned-get-url?file_name=${await attachedFile(input.world, input.owner)}`,
    }),
  },
  publicRoute({
    operation: 'POST /api/v1/files/upload',
    note: 'The local store: the signed policy is the authority (docs/decisions/0007).',
    status: 204,
    call: async (world) => {
      const post = await presignPost(world.t.app, world.home.colleague, 'receipt.pdf');
      const form = new FormData();
      for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
      form.append('file', new Blob(['%PDF-1.4 matrix']), 'receipt.pdf');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      return {
        method: 'POST',
        url: post.url,
        headers: { 'content-type': request.headers.get('content-type') ?? '' },
        payload: Buffer.from(await request.arrayBuffer()),
      };
    },
  }),
  publicRoute({
    operation: 'GET /api/v1/files/object',
    note: 'The local store: the signed link is the authority (docs/decisions/0007).',
    status: 200,
    call: async (world) => {
      const name = await uploadedFile(world, world.home.colleague);
      const response = await world.t.app.inject({
        method: 'GET',
        url: `${api}/files/presigned-get-url?file_name=${name}`,
        headers: auth(world.home.colleague),
      });
      const { url } = response.json<{ url: string }>();
      return { method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') };
    },
  }),
];

/** Delegation (issue 15): the actor's own, a colleague's, another organisation's. */
const delegationRows: MatrixRow[] = [
  {
    operation: 'POST /api/v1/delegations',
    note: 'Names a fresh reviewer colleague as the actor’s delegate from today: a reviewing role.',
    actor: 'fresh',
    expect: { none: allow(canDelegate, 201, 403) },
    call: async (input) => ({
      method: 'POST',
      url: `${api}/delegations`,
      payload: {
        delegate_id: (await freshUser(input.world, input.world.home, { role: 'board_chairman' }))
          .id,
        starts_on: worldToday(input.world),
        ends_on: worldToday(input.world),
      },
    }),
  },
  {
    operation: 'POST /api/v1/delegations',
    variant: 'delegator_id',
    note:
      'own = the actor names themselves (their own delegation); colleague = a fresh finance ' +
      'officer of the organisation (the director only); other = one of another organisation ' +
      '(not found for the director). The role gate answers first.',
    actor: 'fresh',
    expect: {
      own: allow(canDelegate, 201, 403),
      colleague: allow(canDelegateForOthers, 201, 403),
      other: allow(canDelegateForOthers, 404, 403),
    },
    call: async (input) => {
      const delegator =
        input.kind === 'own'
          ? input.actor
          : await freshUser(input.world, input.org, { role: 'finance_officer' });
      const delegate = await freshUser(input.world, input.world.home, { role: 'board_chairman' });
      return {
        method: 'POST',
        url: `${api}/delegations`,
        payload: {
          delegator_id: delegator.id,
          delegate_id: delegate.id,
          starts_on: worldToday(input.world),
          ends_on: worldToday(input.world),
        },
      };
    },
  },
  {
    operation: 'GET /api/v1/delegations',
    note: 'The actor’s own delegations (the director: the organisation’s), never another’s.',
    expect: { none: every(200) },
    call: async () => ({ method: 'GET', url: `${api}/delegations?per_page=100` }),
  },
  {
    operation: 'POST /api/v1/delegations/{id}/end',
    note:
      'own = the actor’s delegation to a colleague; colleague = one between two colleagues (the ' +
      'director ends any, others do not see it); other = another organisation’s.',
    expect: { own: every(200), colleague: allow(isSuperAdmin, 200, 404), other: every(404) },
    call: async (input) => {
      const delegator = input.kind === 'own' ? input.actor : input.owner;
      const delegate = await freshUser(input.world, input.org, { role: 'board_chairman' });
      const id = await storedDelegation(input.world, { delegator, delegate });
      return { method: 'POST', url: `${api}/delegations/${id}/end` };
    },
  },
  {
    operation: 'POST /api/v1/delegations/{id}/end',
    variant: 'as the delegate',
    note: 'own = a colleague’s delegation naming the actor as delegate: only the director ends it.',
    actor: 'fresh',
    expect: { own: except(every(403), { director: 200 }) },
    call: async (input) => {
      const delegator = await freshUser(input.world, input.org, { role: 'director' });
      const id = await storedDelegation(input.world, { delegator, delegate: input.actor });
      return { method: 'POST', url: `${api}/delegations/${id}/end` };
    },
  },
  {
    operation: 'PUT /api/v1/reviews',
    variant: 'step 3, as a director’s delegate',
    note:
      'The actor is the active delegate of a fresh director: a reviewing role answers the ' +
      'director’s step of a colleague’s request on their behalf; never one’s own request.',
    actor: 'fresh',
    expect: {
      own: every(403),
      colleague: allow(canBeDelegate, 200, 403),
      other: every(404),
    },
    call: async (input) => {
      const delegator = await freshUser(input.world, input.world.home, { role: 'director' });
      await storedDelegation(input.world, { delegator, delegate: input.actor });
      const request = await requestAtStep(input.world, input.owner, 3);
      return {
        method: 'PUT',
        url: `${api}/reviews`,
        payload: {
          id: request.review_id,
          request_id: request.id,
          status: 'approved',
          comments: 'Matrix, on behalf',
        },
      };
    },
  },
];

/** Every row of the matrix. */
export const authorizationMatrix: readonly MatrixRow[] = [
  ...authRows,
  ...budgetRows,
  ...requestRows,
  ...retirementRows,
  ...settingsRows,
  ...userRows,
  ...fileRows,
  ...delegationRows,
];

/** Whether a row is one of a public route. */
export function isPublicRow(row: MatrixRow): row is PublicRow {
  return row.isPublic === true;
}

/** A row's name in test titles: operation and variant. */
export function rowName(row: MatrixRow): string {
  return row.variant ? `${row.operation} [${row.variant}]` : row.operation;
}
