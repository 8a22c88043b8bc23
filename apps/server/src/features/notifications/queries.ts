import { roles, type Role } from '@imprest/domain/enums.ts';
import { and, eq, inArray, isNull, ne, sql, type SQLWrapper } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { inConstants } from '../../db/constants.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { activeOn, delegate, delegator, type ActingDelegate } from '../delegations/queries.ts';
import {
  budgets,
  delegations,
  organizations,
  requests,
  retirementReviews,
  retirements,
  reviews,
  users,
} from '../../db/schema.ts';

/** Who an e-mail goes to, with what decides whether it goes (their settings). */
export type Recipient = {
  id: string;
  email: string;
  fullname: string;
  role: string;
  settings: string;
  organization_id: string;
};

type RecipientKey = 'id' | 'email' | 'fullname' | 'role' | 'settings' | 'organization_id';

/** A recipient's columns of `users` or of an alias of it (a delegate, a notice's owner). */
function recipientColumnsOf<T extends Record<RecipientKey, unknown>>(
  table: T,
): Pick<T, RecipientKey> {
  const { id, email, fullname, role, settings, organization_id } = table;
  return { id, email, fullname, role, settings, organization_id };
}

const recipientColumns = recipientColumnsOf(users);

/** Who hears of a step: the holders of its roles and the delegates acting for holders today. */
export type ReviewersToTell = { holders: Recipient[]; delegates: ActingDelegate[] };

/**
 * The active users of an organisation holding one of `roles`, except `exceptUserId` (the owner),
 * by name; and, given `delegatesOn` (a request's steps: delegation covers no retirement step,
 * docs/decisions/0019), the delegates who act on that day for the active delegators holding one
 * of them, earliest delegation first, deactivated delegates left out (issue 15). One statement.
 */
export async function findReviewersToTell(
  db: Executor,
  options: { organizationId: string; roles: string[]; exceptUserId: string; delegatesOn?: string },
): Promise<ReviewersToTell> {
  const set = roles.filter((role) => options.roles.includes(role));
  if (set.length === 0) return { holders: [], delegates: [] };
  const withDelegates = options.delegatesOn !== undefined;
  const rows = await reviewersQuery(
    set,
    withDelegates,
  )(db).execute({
    organizationId: options.organizationId,
    exceptUserId: options.exceptUserId,
    today: options.delegatesOn,
  });
  const found: ReviewersToTell = { holders: [], delegates: [] };
  for (const row of rows) {
    const { is_locked, delegator_id, delegator_name, delegator_role } = row;
    const person = recipientColumnsOf(row);
    if (delegator_id === null) found.holders.push(person);
    else {
      found.delegates.push({
        ...person,
        role: person.role as Role,
        is_locked,
        delegator_id,
        delegator_name: delegator_name ?? '',
        delegator_role: delegator_role ?? '',
      });
    }
  }
  return found;
}

/** The holders' half of the reviewers' statement; `delegator_*` empty, sorted by name. */
function holdersOf(db: Executor, set: readonly Role[]) {
  return db
    .select({
      ...recipientColumns,
      is_locked: users.is_locked,
      delegator_id: sql<string | null>`NULL::uuid`.as('delegator_id'),
      delegator_name: sql<string | null>`NULL::text`.as('delegator_name'),
      delegator_role: sql<string | null>`NULL::text`.as('delegator_role'),
      holder_name: sql<string | null>`${users.fullname}`.as('holder_name'),
      starts_on: sql<string | null>`NULL::date`.as('starts_on'),
      delegated_at: sql<Date | null>`NULL::timestamptz`.as('delegated_at'),
      delegation_id: sql<string | null>`NULL::uuid`.as('delegation_id'),
    })
    .from(users)
    .where(
      and(
        eq(users.organization_id, sql.placeholder('organizationId')),
        inConstants(users.role, set),
        ne(users.id, sql.placeholder('exceptUserId')),
        isNull(users.deleted_at),
      ),
    );
}

/** The delegates' half: a delegate's row with the delegator's, in the holders' columns. */
function delegatesOf(db: Executor, set: readonly Role[]) {
  return db
    .select({
      ...recipientColumnsOf(delegate),
      is_locked: delegate.is_locked,
      delegator_id: sql<string | null>`${delegator.id}`.as('delegator_id'),
      delegator_name: sql<string | null>`${delegator.fullname}`.as('delegator_name'),
      delegator_role: sql<string | null>`${delegator.role}`.as('delegator_role'),
      holder_name: sql<string | null>`NULL::text`.as('holder_name'),
      starts_on: sql<string | null>`${delegations.starts_on}`.as('starts_on'),
      delegated_at: sql<Date | null>`${delegations.created_at}`.as('delegated_at'),
      delegation_id: sql<string | null>`${delegations.id}`.as('delegation_id'),
    })
    .from(delegations)
    .innerJoin(delegator, eq(delegator.id, delegations.delegator_id))
    .innerJoin(delegate, eq(delegate.id, delegations.delegate_id))
    .where(
      and(
        eq(delegations.organization_id, sql.placeholder('organizationId')),
        activeOn(sql.placeholder('today')),
        inConstants(delegator.role, set),
        isNull(delegator.deleted_at),
        isNull(delegate.deleted_at),
      ),
    );
}

/**
 * The statement of findReviewersToTell, prepared under a name once per pool for each set of roles
 * asked for, with the delegates or without (issue 13): every write that tells reviewers reads it.
 * The roles are written into its text, the set's bits in its name (`reviewers_48`: the finance
 * officer and the executive secretary; `reviewers_and_delegates_48`), as the statuses are
 * (db/constants.ts). Sent as one array parameter, they left PostgreSQL planning the holders'
 * look-up on every call, rightly: a plan made without the roles cannot tell an officer's role (a
 * few users) from staff (nearly all of them). With the roles known, the plan made once is the
 * custom plans' index look-up (users_organization_idx), and PostgreSQL keeps it (0.13-0.16 ms of
 * planning a call saved, pg_stat_statements, bench/results.md). The delegates came in a statement
 * of their own, one round trip more for every submission and every answer that leaves a step to
 * go. The sets are the approval chains' steps and their cascades, a few per organisation.
 */
const reviewersStatements = new Map<string, (db: Executor) => ReviewersStatement>();
type ReviewersStatement = ReturnType<typeof buildReviewers>;

function buildReviewers(db: Executor, set: readonly Role[], withDelegates: boolean, name: string) {
  const holders = holdersOf(db, set);
  const people = withDelegates ? holders.unionAll(delegatesOf(db, set)) : holders;
  // Holders first by name, then delegates (no holder_name: nulls sort last) by their delegation's
  // start, earliest first, as the e-mails name the first delegator a delegate acts for. A union is
  // ordered by its output columns' names.
  return people
    .orderBy(sql`"holder_name"`, sql`"starts_on"`, sql`"delegated_at"`, sql`"delegation_id"`)
    .prepare(name);
}

function reviewersQuery(
  set: readonly Role[],
  withDelegates: boolean,
): (db: Executor) => ReviewersStatement {
  const bits = set.reduce((sum, role) => sum | (1 << roles.indexOf(role)), 0);
  const name = `${withDelegates ? 'reviewers_and_delegates' : 'reviewers'}_${bits}`;
  let statement = reviewersStatements.get(name);
  if (!statement) {
    statement = preparedOnce((db: Executor) => buildReviewers(db, set, withDelegates, name));
    reviewersStatements.set(name, statement);
  }
  return statement;
}

/** Active users by id. */
export async function findRecipients(db: Executor, ids: string[]): Promise<Recipient[]> {
  if (ids.length === 0) return [];
  return db
    .select(recipientColumns)
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deleted_at)));
}

/** A request as its e-mails describe it, with its organisation, budget and reviewer chain. */
export type RequestNotice = {
  id: string;
  organizationId: string;
  organizationName: string;
  ownerId: string;
  ownerName: string;
  purpose: string;
  amount: string;
  currency: string;
  budgetCode: string;
  budgetName: string;
  approvalNumber: string | null;
  /** YYYY-MM-DD. */
  expenditureDate: string;
  justification: string;
  status: string;
  isCascading: boolean;
  /**
   * Who has answered a step of this version (requests.answered_by), or of the retirement's current
   * round: they answer no other.
   */
  answeredBy: string[];
  /** Reviewer roles by step (1 first) and their statuses, in step order. */
  chain: ChainLink[];
  /**
   * The owner as an e-mail's recipient (the retirement's owner for a retirement, the same person),
   * null once deleted: read with the item, so a decision's e-mail to its owner costs no statement
   * of its own (issue 13).
   */
  owner: Recipient | null;
};

type ChainLink = { step: number; role: string; status: string; comments: string };

/**
 * A reviewer chain as one JSON array in step order, read in the same statement as its request or
 * retirement (one round trip fewer in every write that notifies, issue 13).
 */
function chainOf(
  table: typeof reviews | typeof retirementReviews,
  where: ReturnType<typeof sql>,
): ReturnType<typeof sql<ChainLink[]>> {
  return sql<ChainLink[]>`coalesce((
    SELECT json_agg(json_build_object('step', ${table.step}, 'role', ${table.reviewer_role},
                                      'status', ${table.status}, 'comments', ${table.comments})
                    ORDER BY ${table.step})
    FROM ${table} WHERE ${where}), '[]'::json)`;
}

/** The owner of a notice's item, when not deleted. */
const noticeOwner = alias(users, 'notice_owner');
const noticeOwnerColumns = recipientColumnsOf(noticeOwner);

/** Joins a notice's owner: `ownerId` is the item's owner column. */
function ownerJoin(ownerId: AnyPgColumn) {
  return and(eq(noticeOwner.id, ownerId), isNull(noticeOwner.deleted_at));
}

const requestNoticeColumns = {
  id: requests.id,
  organizationId: requests.organization_id,
  organizationName: organizations.name,
  ownerId: requests.request_owner_id,
  ownerName: requests.request_owner_name,
  purpose: requests.purpose,
  amount: requests.amount_requested,
  currency: requests.amount_currency,
  budgetCode: requests.budget_code,
  budgetName: budgets.name,
  approvalNumber: requests.approval_number,
  expenditureDate: requests.expenditure_date,
  justification: requests.expenditure_justification,
  status: requests.current_status,
  isCascading: requests.cascading_notification,
  answeredBy: requests.answered_by,
};

/**
 * The statement of findRequestNotice, prepared under a name once per pool (issue 13): every write
 * that notifies reads it, and PostgreSQL planned it afresh on each call (0.3 ms, more than running
 * it). Its one parameter is the request's id (decision 0026).
 */
const requestNoticeQuery = preparedOnce((db: Executor) =>
  db
    .select({
      ...requestNoticeColumns,
      chain: chainOf(reviews, sql`${reviews.request_id} = ${requests.id}`),
      owner: noticeOwnerColumns,
    })
    .from(requests)
    .innerJoin(organizations, eq(organizations.id, requests.organization_id))
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .leftJoin(noticeOwner, ownerJoin(requests.request_owner_id))
    .where(eq(requests.id, sql.placeholder('id')))
    .prepare('request_notice'),
);

/** One request as its e-mails describe it, or undefined. */
export async function findRequestNotice(
  db: Executor,
  requestId: string,
): Promise<RequestNotice | undefined> {
  const [row] = await requestNoticeQuery(db).execute({ id: requestId });
  return row;
}

/** A retirement as its e-mails describe it: its request's essentials and its current round. */
export type RetirementNotice = RequestNotice & {
  retirementId: string;
  retirementOwnerId: string;
  retirementStatus: string;
  dueDate: string;
  amountReceived: string;
  amountSpent: string | null;
  /** The owner's comments for the reviewers. */
  retirementComments: string | null;
  round: number;
};

/**
 * Who answered a step of a retirement's round, as ids: they answer no other step of it
 * (docs/decisions/0019).
 */
function answeredInRound(retirementId: SQLWrapper, round: SQLWrapper) {
  return sql<string[]>`ARRAY(SELECT a.reviewer_id::text FROM ${retirementReviews} a
    WHERE a.retirement_id = ${retirementId} AND a.round = ${round}
      AND a.status <> 'pending' AND a.reviewer_id IS NOT NULL)`;
}

/** The statement of findRetirementNotice, prepared as requestNoticeQuery is. */
const retirementNoticeQuery = preparedOnce((db: Executor) =>
  db
    .select({
      ...requestNoticeColumns,
      retirementId: retirements.id,
      retirementOwnerId: retirements.retirement_owner_id,
      retirementStatus: retirements.status,
      dueDate: retirements.due_date,
      amountReceived: retirements.amount_received,
      amountSpent: retirements.amount_spent,
      retirementComments: retirements.comments,
      round: retirements.submissions,
      answeredBy: answeredInRound(retirements.id, retirements.submissions),
      // The current round's chain.
      chain: chainOf(
        retirementReviews,
        sql`${retirementReviews.retirement_id} = ${retirements.id} AND ${retirementReviews.round} = ${retirements.submissions}`,
      ),
      owner: noticeOwnerColumns,
    })
    .from(retirements)
    .innerJoin(requests, eq(requests.id, retirements.request_id))
    .innerJoin(organizations, eq(organizations.id, requests.organization_id))
    .innerJoin(budgets, eq(budgets.id, requests.budget_id))
    .leftJoin(noticeOwner, ownerJoin(retirements.retirement_owner_id))
    .where(eq(retirements.id, sql.placeholder('id')))
    .prepare('retirement_notice'),
);

/** One retirement as its e-mails describe it, or undefined. */
export async function findRetirementNotice(
  db: Executor,
  retirementId: string,
): Promise<RetirementNotice | undefined> {
  const [row] = await retirementNoticeQuery(db).execute({ id: retirementId });
  return row;
}

/** Pending retirements (all organisations) due between two days, for the warning run. */
export async function findPendingRetirementsDue(
  db: Executor,
  options: { from: string; to: string },
): Promise<{ id: string; dueDate: string }[]> {
  return db
    .select({ id: retirements.id, dueDate: retirements.due_date })
    .from(retirements)
    .where(
      and(
        eq(retirements.status, 'pending'),
        sql`${retirements.due_date} BETWEEN ${options.from} AND ${options.to}`,
      ),
    );
}

/** A step waiting for a reviewer role: a request's or a retirement's. */
export type WaitingStep = {
  kind: 'request' | 'retirement';
  organizationId: string;
  requestId: string;
  ownerId: string;
  ownerName: string;
  purpose: string;
  amount: string;
  currency: string;
  role: string;
  /** The day (in `timeZone`) the step began waiting: submission, or the previous step's answer. */
  since: string;
  /** Who answered a step of the request, or of the retirement's round, so far: they answer no other. */
  answeredBy: string[];
};

/**
 * Every step waiting for review, in every organisation: the newest versions of pending and
 * on_progress requests, and on_progress retirements (their current round), each with the day
 * it began waiting in `timeZone`.
 */
export async function findWaitingSteps(db: Executor, timeZone: string): Promise<WaitingStep[]> {
  const result = await db.execute<WaitingStep>(sql`
    SELECT 'request' AS kind, r.organization_id AS "organizationId", r.id AS "requestId",
           r.request_owner_id AS "ownerId", r.request_owner_name AS "ownerName", r.purpose,
           r.amount_requested::text AS amount, r.amount_currency AS currency,
           r.next_reviewer_role AS role,
           to_char((GREATEST(r.created_at, (SELECT max(v.reviewed_at) FROM ${reviews} v
                     WHERE v.request_id = r.id)) AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS since,
           ARRAY(SELECT v.reviewer_id::text FROM ${reviews} v WHERE v.request_id = r.id
                 AND v.status <> 'pending' AND v.reviewer_id IS NOT NULL) AS "answeredBy"
    FROM ${requests} r
    WHERE r.is_latest AND r.current_status IN ('pending', 'on_progress')
      AND r.next_reviewer_role IS NOT NULL
    UNION ALL
    SELECT 'retirement', t.organization_id, t.request_id, t.retirement_owner_id,
           q.request_owner_name, q.purpose, q.amount_requested::text, q.amount_currency,
           t.next_reviewer_role,
           to_char((GREATEST(COALESCE(t.submitted_at, t.created_at), (SELECT max(v.reviewed_at)
                     FROM ${retirementReviews} v WHERE v.retirement_id = t.id
                     AND v.round = t.submissions)) AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD'),
           ${answeredInRound(sql`t.id`, sql`t.submissions`)}
    FROM ${retirements} t JOIN ${requests} q ON q.id = t.request_id
    WHERE t.status = 'on_progress' AND t.next_reviewer_role IS NOT NULL
    ORDER BY 10, 3`);
  return result.rows;
}

/** The organisations' names by id. */
export async function findOrganizationNames(
  db: Executor,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(inArray(organizations.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** People's names by id, deactivated people included (an e-mail may name them). */
export async function findPeopleNames(db: Executor, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, fullname: users.fullname })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row.fullname]));
}

/** Every active user of the given organisations with one of the roles. */
export async function findReviewersOf(
  db: Executor,
  options: { organizationIds: string[]; roles: string[] },
): Promise<Recipient[]> {
  if (options.organizationIds.length === 0 || options.roles.length === 0) return [];
  return db
    .select(recipientColumns)
    .from(users)
    .where(
      and(
        inArray(users.organization_id, options.organizationIds),
        inArray(users.role, options.roles),
        isNull(users.deleted_at),
      ),
    );
}

/** The id of the current transaction: distinguishes one lock or unlock event from the next. */
export async function currentTransactionId(tx: Executor): Promise<string> {
  const result = await tx.execute<{ id: string }>(sql`SELECT txid_current()::text AS id`);
  const id = result.rows[0]?.id;
  if (!id) throw new Error('no transaction id');
  return id;
}

/** The recorded lock reason of each user. */
export async function findLockReasons(
  db: Executor,
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, reason: users.lock_reason })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, row.reason]));
}
