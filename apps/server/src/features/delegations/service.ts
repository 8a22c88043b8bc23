import type {
  CreateDelegationRequest,
  DelegationListQuery,
  DelegationListResponse,
  DelegationResponse,
} from '@imprest/domain/api/delegations.ts';
import { changesBetween } from '@imprest/domain/audit.ts';
import {
  delegateProblem,
  delegationPeriodProblem,
  delegationStatus,
  delegatorProblem,
  periodsOverlap,
} from '@imprest/domain/delegations.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { AppError } from '../../lib/errors.ts';
import { iso } from '../../lib/time.ts';
import { recordAudit } from '../audit/record.ts';
import { notifyDelegation } from '../notifications/service.ts';
import {
  canEndDelegation,
  canListAllDelegations,
  canReadDelegation,
  createDelegationRefusal,
} from './policy.ts';
import { presentDelegation } from './presenter.ts';
import {
  findDelegation,
  findLiveDelegationsOf,
  lockPeople,
  insertDelegation,
  listDelegationPage,
  lockDelegation,
  lockLiveDelegationsOf,
  markDelegationEnded,
  type DelegationRow,
} from './queries.ts';
import { userNotFound } from '../users/visible.ts';

const delegationNotFound = 'Delegation not found.';

/** Today in the organisation's time zone: the day delegation periods are read in. */
function today(context: AppContext): string {
  return todayIn(context.config.orgTimezone);
}

async function readDelegation(
  context: AppContext,
  options: { organizationId: string; id: string },
): Promise<DelegationResponse> {
  const record = await findDelegation(context.db, options);
  if (!record) throw new Error(`delegation ${options.id} vanished after commit`);
  return presentDelegation(record, today(context));
}

/**
 * Names a delegate for a delegator's review steps from `starts_on` to `ends_on` (issue 15;
 * docs/decisions/0019). In one transaction holding the delegator's row: the delegator reviews
 * requests, the delegate is an active, unlocked reviewer of the organisation, the period is valid
 * on today in ORG_TIMEZONE, and it overlaps none of the delegator's live delegations (409); the
 * audit trail records the creation.
 */
export async function createDelegation(
  context: AppContext,
  options: {
    actor: Actor;
    /** `delegator_id` names someone else only for the director (the policy). */
    input: CreateDelegationRequest;
  },
): Promise<DelegationResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  const delegatorId = input.delegator_id ?? actor.id;
  const refusal = createDelegationRefusal(actor, delegatorId);
  if (refusal) throw new AppError('forbidden', refusal);
  const day = today(context);
  const periodProblem = delegationPeriodProblem(input, day);
  if (periodProblem) throw new AppError('bad_request', periodProblem);

  const id = await context.db.transaction(async (tx) => {
    const people = await lockPeople(tx, {
      organizationId,
      ids: [delegatorId, input.delegate_id],
    });
    const delegator = people.find((person) => person.id === delegatorId);
    if (!delegator) throw new AppError('not_found', userNotFound);
    const delegatorRefusal = delegatorProblem(delegator);
    if (delegatorRefusal) throw new AppError('bad_request', delegatorRefusal);
    const delegate = people.find((person) => person.id === input.delegate_id);
    if (!delegate) throw new AppError('not_found', userNotFound);
    const delegateRefusal = delegateProblem(delegate, delegator);
    if (delegateRefusal) throw new AppError('bad_request', delegateRefusal);
    const live = await findLiveDelegationsOf(tx, { organizationId, delegatorId, today: day });
    const clash = live.find((other) => periodsOverlap(other, input));
    if (clash) {
      throw new AppError(
        'conflict',
        `${delegator.fullname} already has a delegation from ${clash.starts_on} to ${clash.ends_on}. End it or choose days that do not overlap.`,
      );
    }
    const row = await insertDelegation(tx, {
      organization_id: organizationId,
      delegator_id: delegator.id,
      delegate_id: delegate.id,
      starts_on: input.starts_on,
      ends_on: input.ends_on,
      note: input.note,
      created_by: actor.id,
    });
    await recordAudit(tx, {
      organizationId,
      actor: { id: actor.id, fullname: actor.fullname },
      action: 'delegation.created',
      objectType: 'delegation',
      objectId: row.id,
      changes: changesBetween(
        null,
        {
          delegator: { id: delegator.id, name: delegator.fullname },
          delegate: { id: delegate.id, name: delegate.fullname },
          starts_on: row.starts_on,
          ends_on: row.ends_on,
          note: row.note,
        },
        ['delegator', 'delegate', 'starts_on', 'ends_on', 'note'],
      ),
    });
    await notifyDelegation(context, tx, { event: 'named', actor, delegation: row });
    return row.id;
  });
  return readDelegation(context, { organizationId, id });
}

/**
 * Ends a delegation now (its delegator or the director): the delegate stops acting at once. A
 * delegation that has already ended, early or by its last day passing, is a 409.
 */
export async function endDelegation(
  context: AppContext,
  options: { actor: Actor; id: string },
): Promise<DelegationResponse> {
  const { actor } = options;
  const organizationId = actor.organization_id;
  const day = today(context);
  await context.db.transaction(async (tx) => {
    const row = await lockDelegation(tx, { organizationId, id: options.id });
    // Another organisation's delegation, or one this user may not see, does not exist for them.
    if (!row || !canReadDelegation(actor, row)) throw new AppError('not_found', delegationNotFound);
    if (!canEndDelegation(actor, row)) {
      throw new AppError('forbidden', 'Only the delegator or the director can end a delegation.');
    }
    if (delegationStatus(row, day) === 'ended')
      throw new AppError('conflict', 'This delegation has already ended.');
    await endLockedDelegation(context, tx, { actor, row, today: day });
  });
  return readDelegation(context, { organizationId, id: options.id });
}

/**
 * Ends a live delegation whose row the transaction holds, with its `delegation.ended` row and the
 * e-mails that tell its delegate (and its delegator, when someone else ended it).
 */
async function endLockedDelegation(
  context: AppContext,
  tx: Executor,
  options: { actor: { id: string; fullname: string }; row: DelegationRow; today: string },
): Promise<void> {
  const { actor, row } = options;
  const ended = await markDelegationEnded(tx, { id: row.id, endedBy: actor.id });
  await recordAudit(tx, {
    organizationId: row.organization_id,
    actor: { id: actor.id, fullname: actor.fullname },
    action: 'delegation.ended',
    objectType: 'delegation',
    objectId: row.id,
    changes: changesBetween(
      { status: delegationStatus(row, options.today), ended_at: null },
      { status: 'ended', ended_at: iso(ended.ended_at) },
      ['status', 'ended_at'],
    ),
  });
  // A scheduled one too: its delegate was told of it when it was named.
  await notifyDelegation(context, tx, { event: 'ended', actor, delegation: row });
}

/**
 * Ends a user's live (active or scheduled) delegations, as delegator and as delegate, in the
 * caller's transaction, which already holds the user's row: a delegation hands over the steps of
 * the position its delegator held when naming it, so a new position or a deactivation ends it
 * rather than letting it follow the person (docs/decisions/0019). Each end writes its own
 * `delegation.ended` row, `actor` being who changed the user.
 */
export async function endDelegationsOfUser(
  context: AppContext,
  tx: Executor,
  options: { actor: { id: string; fullname: string }; organizationId: string; userId: string },
): Promise<void> {
  const day = today(context);
  const rows = await lockLiveDelegationsOf(tx, {
    organizationId: options.organizationId,
    userId: options.userId,
    today: day,
  });
  for (const row of rows)
    await endLockedDelegation(context, tx, { actor: options.actor, row, today: day });
}

/** A page of delegations: the caller's own as delegator or delegate; the director's, all. */
export async function listDelegations(
  context: AppContext,
  options: { actor: Actor; query: DelegationListQuery },
): Promise<DelegationListResponse> {
  const { actor, query } = options;
  const day = today(context);
  const { rows, total } = await listDelegationPage(context.db, {
    organizationId: actor.organization_id,
    participantId: canListAllDelegations(actor) ? undefined : actor.id,
    status: query.status,
    today: day,
    page: query.page,
    perPage: query.per_page,
  });
  return {
    data: rows.map((row) => presentDelegation(row, day)),
    total,
    page: query.page,
    per_page: query.per_page,
  };
}
