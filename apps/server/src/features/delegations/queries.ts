import type { DelegationFilter } from '@imprest/domain/api/delegations.ts';
import type { DelegationGrant } from '@imprest/domain/delegations.ts';
import type { Role } from '@imprest/domain/enums.ts';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
  type Placeholder,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { delegations, users } from '../../db/schema.ts';

export type DelegationRow = typeof delegations.$inferSelect;

/** A user as the delegation rules need them, deactivated ones included. */
export type DelegationPersonRow = {
  id: string;
  organization_id: string;
  fullname: string;
  role: Role;
  is_locked: boolean;
  deleted_at: Date | null;
};

const personColumns = {
  id: users.id,
  organization_id: users.organization_id,
  fullname: users.fullname,
  role: sql<Role>`${users.role}`,
  is_locked: users.is_locked,
  deleted_at: users.deleted_at,
};

/**
 * The users of an organisation with these ids (deactivated too, so the rules can say so), each
 * locked for the rest of the transaction, taken in id order so two transactions locking the same
 * two people cannot deadlock. A creation holds its delegator (creations for one delegator take
 * turns, so two at once cannot both pass the overlap check) and its delegate (a change of the
 * delegate's position waits for it, then ends the delegation it created; docs/decisions/0019).
 * FOR NO KEY UPDATE leaves rows that merely reference the users (reviews, sessions) free to be
 * written meanwhile.
 */
export async function lockPeople(
  db: Executor,
  options: { organizationId: string; ids: string[] },
): Promise<DelegationPersonRow[]> {
  return db
    .select(personColumns)
    .from(users)
    .where(and(inArray(users.id, options.ids), eq(users.organization_id, options.organizationId)))
    .orderBy(users.id)
    .for('no key update');
}

/** A delegator's delegations not ended early whose last day is `today` or later. */
export async function findLiveDelegationsOf(
  db: Executor,
  options: { organizationId: string; delegatorId: string; today: string },
): Promise<DelegationRow[]> {
  return db
    .select()
    .from(delegations)
    .where(
      and(
        eq(delegations.organization_id, options.organizationId),
        eq(delegations.delegator_id, options.delegatorId),
        isNull(delegations.ended_at),
        gte(delegations.ends_on, options.today),
      ),
    )
    .orderBy(asc(delegations.starts_on));
}

export async function insertDelegation(
  db: Executor,
  values: typeof delegations.$inferInsert,
): Promise<DelegationRow> {
  const [row] = await db.insert(delegations).values(values).returning();
  if (!row) throw new Error('delegation insert returned nothing');
  return row;
}

/** A delegation of an organisation, locked for the rest of the transaction. */
export async function lockDelegation(
  tx: Executor,
  options: { organizationId: string; id: string },
): Promise<DelegationRow | undefined> {
  const [row] = await tx
    .select()
    .from(delegations)
    .where(
      and(eq(delegations.id, options.id), eq(delegations.organization_id, options.organizationId)),
    )
    .for('update');
  return row;
}

/**
 * A user's live delegations (not ended early, last day `today` or later) as delegator or as
 * delegate, locked for the rest of the transaction like `lockDelegation`, in id order so two
 * position changes at once take the rows they share in the same order.
 */
export async function lockLiveDelegationsOf(
  tx: Executor,
  options: { organizationId: string; userId: string; today: string },
): Promise<DelegationRow[]> {
  return tx
    .select()
    .from(delegations)
    .where(
      and(
        eq(delegations.organization_id, options.organizationId),
        or(
          eq(delegations.delegator_id, options.userId),
          eq(delegations.delegate_id, options.userId),
        ),
        isNull(delegations.ended_at),
        gte(delegations.ends_on, options.today),
      ),
    )
    .orderBy(asc(delegations.id))
    .for('update');
}

/** Ends a delegation now. */
export async function markDelegationEnded(
  tx: Executor,
  options: { id: string; endedBy: string },
): Promise<DelegationRow> {
  const [row] = await tx
    .update(delegations)
    .set({ ended_at: sql`now()`, ended_by: options.endedBy })
    .where(eq(delegations.id, options.id))
    .returning();
  if (!row) throw new Error(`delegation ${options.id} vanished while ending it`);
  return row;
}

type Named = { id: string; fullname: string };
type NamedWithRole = Named & { role: Role };

/** A delegation with the people it names. */
export type DelegationRecord = DelegationRow & {
  delegator: NamedWithRole;
  delegate: NamedWithRole;
  creator: Named;
  ender: Named | null;
};

/** The two people of a delegation, as the users table under their own names. */
export const delegator = alias(users, 'delegator');
export const delegate = alias(users, 'delegate');
const creator = alias(users, 'creator');
const ender = alias(users, 'ender');

const recordColumns = {
  delegation: delegations,
  delegator: {
    id: delegator.id,
    fullname: delegator.fullname,
    role: sql<Role>`${delegator.role}`,
  },
  delegate: { id: delegate.id, fullname: delegate.fullname, role: sql<Role>`${delegate.role}` },
  creator: { id: creator.id, fullname: creator.fullname },
  ender: { id: ender.id, fullname: ender.fullname },
};

function selectRecords(db: Executor) {
  return db
    .select(recordColumns)
    .from(delegations)
    .innerJoin(delegator, eq(delegator.id, delegations.delegator_id))
    .innerJoin(delegate, eq(delegate.id, delegations.delegate_id))
    .innerJoin(creator, eq(creator.id, delegations.created_by))
    .leftJoin(ender, eq(ender.id, delegations.ended_by));
}

type SelectedRecord = {
  delegation: DelegationRow;
  delegator: NamedWithRole;
  delegate: NamedWithRole;
  creator: Named;
  ender: Named | null;
};

function toRecord(row: SelectedRecord): DelegationRecord {
  return {
    ...row.delegation,
    delegator: row.delegator,
    delegate: row.delegate,
    creator: row.creator,
    ender: row.ender,
  };
}

/** One delegation of an organisation with its people, or undefined. */
export async function findDelegation(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<DelegationRecord | undefined> {
  const [row] = await selectRecords(db).where(
    and(eq(delegations.id, options.id), eq(delegations.organization_id, options.organizationId)),
  );
  return row ? toRecord(row) : undefined;
}

/** The condition of a status on `today` (delegationStatus in SQL). */
function statusCondition(status: DelegationFilter, today: string): SQL | undefined {
  switch (status) {
    case 'all':
      return undefined;
    case 'scheduled':
      return and(isNull(delegations.ended_at), gt(delegations.starts_on, today));
    case 'active':
      return and(
        isNull(delegations.ended_at),
        lte(delegations.starts_on, today),
        gte(delegations.ends_on, today),
      );
    case 'ended':
      return or(isNotNull(delegations.ended_at), lt(delegations.ends_on, today));
  }
}

/**
 * One page of an organisation's delegations, latest first day first, and how many there are:
 * every one, or those naming `participantId` as delegator or delegate.
 */
export async function listDelegationPage(
  db: Executor,
  options: {
    organizationId: string;
    participantId?: string;
    status: DelegationFilter;
    today: string;
    page: number;
    perPage: number;
  },
): Promise<{ rows: DelegationRecord[]; total: number }> {
  const where = and(
    eq(delegations.organization_id, options.organizationId),
    options.participantId
      ? or(
          eq(delegations.delegator_id, options.participantId),
          eq(delegations.delegate_id, options.participantId),
        )
      : undefined,
    statusCondition(options.status, options.today),
  );
  const [rows, total] = await pipelined(db, [
    (on) =>
      selectRecords(on)
        .where(where)
        .orderBy(desc(delegations.starts_on), desc(delegations.created_at), desc(delegations.id))
        .limit(options.perPage)
        .offset((options.page - 1) * options.perPage),
    (on) => on.$count(delegations, where),
  ]);
  return { rows: rows.map(toRecord), total };
}

/** The conditions of a delegation that lets its delegate act on `today`. */
export function activeOn(today: string | Placeholder): SQL {
  return and(
    isNull(delegations.ended_at),
    lte(delegations.starts_on, today),
    gte(delegations.ends_on, today),
  ) as SQL;
}

/**
 * What a delegate holds on `today`: their own active delegations (never their delegators'
 * delegators: no chaining) from delegators who are still active, with each delegator's current
 * role, the earliest first. `lock` takes the delegation rows FOR SHARE to the transaction's end,
 * so a delegation ended meanwhile is either seen ended or waits for the answer to commit.
 */
export async function findGrantsOf(
  db: Executor,
  options: { organizationId: string; delegateId: string; today: string; lock?: boolean },
): Promise<DelegationGrant[]> {
  return grantsOfQueries[options.lock ? 1 : 0](db).execute(options);
}

/**
 * The statements of findGrantsOf, built once and prepared under names (issue 13): the pending
 * list of anyone who may act as a delegate reads one, and an answer to a step of another role than
 * the caller's the locking one. A delegate's few rows, read off their index whatever the values.
 */
function prepareGrantsOf(lock: boolean) {
  return preparedOnce((db: Executor) => {
    const query = db
      .select({
        delegator_id: delegations.delegator_id,
        delegator_name: users.fullname,
        delegator_role: users.role,
        starts_on: delegations.starts_on,
        ends_on: delegations.ends_on,
        ended_at: delegations.ended_at,
      })
      .from(delegations)
      .innerJoin(users, eq(users.id, delegations.delegator_id))
      .where(
        and(
          eq(delegations.organization_id, sql.placeholder('organizationId')),
          eq(delegations.delegate_id, sql.placeholder('delegateId')),
          activeOn(sql.placeholder('today')),
          isNull(users.deleted_at),
        ),
      )
      .orderBy(asc(delegations.starts_on), asc(delegations.created_at), asc(delegations.id));
    return lock
      ? query.for('share', { of: delegations }).prepare('grants_of_locked')
      : query.prepare('grants_of');
  });
}

/** [read, locked FOR SHARE]. */
const grantsOfQueries = [prepareGrantsOf(false), prepareGrantsOf(true)] as const;

/** A delegate who acts on `today` for a delegator holding one of some roles. */
export type ActingDelegate = {
  id: string;
  email: string;
  fullname: string;
  role: Role;
  is_locked: boolean;
  settings: string;
  organization_id: string;
  delegator_id: string;
  delegator_name: string;
  delegator_role: string;
};
