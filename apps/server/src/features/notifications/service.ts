/**
 * Who is told what when a request, retirement, account or delegation changes: the e-mails each
 * event queues in the transaction that made it. The daily runs are in daily.ts.
 */
import {
  notificationKey,
  requestDecisionKind,
  retirementDecisionKind,
  stepsToNotify,
} from '@imprest/domain/notifications.ts';
import { canActAsDelegate } from '@imprest/domain/delegations.ts';
import { todayIn } from '@imprest/domain/requests.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/client.ts';
import type { DrawnValue } from '../../db/drawn.ts';
import type { ActingDelegate } from '../delegations/queries.ts';
import {
  currentTransactionId,
  findLockReasons,
  findOrganizationNames,
  findPeopleNames,
  findRecipients,
  findRequestNotice,
  findReviewersToTell,
  type Recipient,
  type RequestNotice,
  type RetirementNotice,
} from './queries.ts';
import {
  accountLockEmail,
  delegationEmail,
  requestDecisionEmail,
  retirementAttachedEmail,
  retirementDecisionEmail,
  reviewRequestedEmail,
} from './templates.ts';
import { factsOf, loadRetirement, ownerNotice, queueNotices, type Notice } from './notices.ts';

/**
 * E-mails for a request or retirement that reached `step` of its chain: every active user of the
 * organisation with that step's role, never the owner, nor someone who already answered a step of
 * it (of a retirement: of its round), who may not answer another (docs/decisions/0019); at step 1 with
 * cascading_notification, every later step's reviewers too, told in advance
 * (docs/decisions/0011).
 */
async function reviewerNotices(
  context: AppContext,
  tx: Executor,
  options: {
    notice: RequestNotice | RetirementNotice;
    subject: 'request' | 'retirement';
    ownerId: string;
    step: number;
    keyOf: (step: number, kind: string, userId: string) => string;
  },
): Promise<Notice[]> {
  const { notice, subject } = options;
  const steps = stepsToNotify({
    step: options.step,
    stepCount: notice.chain.length,
    isCascading: notice.isCascading,
  });
  const roles = steps
    .map(({ step }) => notice.chain.find((link) => link.step === step)?.role)
    .filter((role): role is string => role !== undefined);
  // Delegation covers request steps only (docs/decisions/0019).
  const found = await findReviewersToTell(tx, {
    organizationId: notice.organizationId,
    roles,
    exceptUserId: options.ownerId,
    delegatesOn: subject === 'request' ? todayIn(context.config.orgTimezone) : undefined,
  });
  const people = found.holders;
  // One person answers one step of a request or of a retirement's round.
  const answered = new Set(notice.answeredBy);
  const delegates = delegatesToTell(found.delegates, { ownerId: options.ownerId, answered });
  return steps.flatMap(({ step, kind }) => {
    const role = notice.chain.find((link) => link.step === step)?.role;
    const holders = people.filter((person) => person.role === role && !answered.has(person.id));
    // One e-mail a person: someone who holds the role, or acts for two delegators, hears once.
    const told = new Set(holders.map((person) => person.id));
    const acting = delegates.filter((delegate) => {
      if (delegate.delegator_role !== role || told.has(delegate.id)) return false;
      told.add(delegate.id);
      return true;
    });
    const email = (recipientName: string, onBehalfOfName: string | null) =>
      reviewRequestedEmail({
        appUrl: context.config.appUrl,
        facts: factsOf(notice),
        recipientName,
        subject,
        step,
        role: role ?? '',
        isUpcoming: kind === 'review_upcoming',
        retirement:
          'retirementId' in notice
            ? {
                amountReceived: notice.amountReceived,
                amountSpent: notice.amountSpent,
                comments: notice.retirementComments ?? '',
              }
            : undefined,
        onBehalfOfName,
      });
    return [
      ...holders.map((recipient) => ({
        recipient,
        kind,
        key: options.keyOf(step, kind, recipient.id),
        email: email(recipient.fullname, null),
      })),
      ...acting.map((delegate) => ({
        recipient: delegate,
        kind,
        key: options.keyOf(step, kind, delegate.id),
        email: email(delegate.fullname, delegate.delegator_name),
      })),
    ];
  });
}

/**
 * Of the delegates acting today for a delegator holding one of the step's roles (issue 15), those
 * the review rules let answer: unlocked reviewers, neither they nor that delegator owning the
 * request, and not someone who already answered a step of it (one person, one step).
 */
function delegatesToTell(
  delegates: ActingDelegate[],
  options: {
    ownerId: string;
    /** Who answered a step of the request so far (requests.answered_by). */
    answered: ReadonlySet<string>;
  },
): ActingDelegate[] {
  const { ownerId, answered } = options;
  return delegates.filter(
    (delegate) =>
      canActAsDelegate(delegate) &&
      delegate.id !== ownerId &&
      delegate.delegator_id !== ownerId &&
      !answered.has(delegate.id),
  );
}

/**
 * A request as its e-mails describe it. The reviews service also reads it on a request's last
 * step, after the answer but before the approval number is drawn, so that the read does not wait
 * under the organisation's sequence lock (issue 13, then notifyRequestApproved).
 */
export async function readRequestNotice(tx: Executor, requestId: string): Promise<RequestNotice> {
  const notice = await findRequestNotice(tx, requestId);
  if (!notice) throw new Error(`request ${requestId} not found for its notifications`);
  return notice;
}

/** Whose chain an item follows: what reviewerNotices needs besides the step. */
type ReviewTarget = Omit<Parameters<typeof reviewerNotices>[2], 'step'>;

function requestTarget(notice: RequestNotice): ReviewTarget {
  return {
    notice,
    subject: 'request',
    ownerId: notice.ownerId,
    keyOf: (step, kind, userId) => notificationKey('request', notice.id, kind, step, userId),
  };
}

function retirementTarget(notice: RetirementNotice): ReviewTarget {
  return {
    notice,
    subject: 'retirement',
    ownerId: notice.retirementOwnerId,
    keyOf: (step, kind, userId) =>
      notificationKey('retirement', notice.retirementId, 'round', notice.round, kind, step, userId),
  };
}

/** Queues the e-mails of an item reaching `step` (nothing when no step is left). */
async function queueReviewers(
  context: AppContext,
  tx: Executor,
  target: ReviewTarget,
  step: number | undefined,
): Promise<void> {
  if (step === undefined) return;
  await queueNotices(tx, await reviewerNotices(context, tx, { ...target, step }));
}

/** The first pending step of a chain, the one that waits now. */
function pendingStep(notice: RequestNotice): number | undefined {
  return notice.chain.find((link) => link.status === 'pending')?.step;
}

/** The comments of the last answered step: the decision's. */
function decisionComments(notice: RequestNotice): string {
  return notice.chain.filter((link) => link.status !== 'pending').at(-1)?.comments ?? '';
}

/**
 * For the requests service, inside the transaction that submitted or resubmitted a request: its
 * first step's reviewers (and, cascading, the whole chain's) hear of it.
 */
export async function notifyRequestSubmitted(
  context: AppContext,
  tx: Executor,
  options: { requestId: string },
): Promise<void> {
  const notice = await readRequestNotice(tx, options.requestId);
  await queueReviewers(context, tx, requestTarget(notice), 1);
}

const requestDecisions = {
  request_approved: 'approved',
  request_rejected: 'rejected',
  request_returned: 'returned',
} as const;

/**
 * For the reviews service, inside the transaction that answered a step: the next step's reviewers
 * while steps remain, otherwise the owner (approved with the approval number, rejected, returned).
 */
export async function notifyRequestReviewed(
  context: AppContext,
  tx: Executor,
  options: { requestId: string },
): Promise<void> {
  const notice = await readRequestNotice(tx, options.requestId);
  const decision = requestDecisionKind(notice.status);
  if (!decision) return queueReviewers(context, tx, requestTarget(notice), pendingStep(notice));
  await queueNotices(tx, decisionNotices(context, notice, decision));
}

/** The owner's e-mail of a request's decision (none once the owner is deleted). */
function decisionNotices(
  context: AppContext,
  notice: RequestNotice,
  decision: keyof typeof requestDecisions,
): Notice[] {
  return ownerNotice(notice.owner, () => ({
    kind: decision,
    key: notificationKey('request', notice.id, decision),
    email: requestDecisionEmail({
      appUrl: context.config.appUrl,
      facts: factsOf(notice),
      decision: requestDecisions[decision],
      comments: decisionComments(notice),
    }),
  }));
}

/**
 * For the reviews service, in the write that draws the approval number (docs/decisions/0054): the
 * owner hears that the request was approved, with the number PostgreSQL writes into the e-mail
 * where its marker is (the notice was read before the draw). The same e-mail
 * notifyRequestReviewed sends, one round trip sooner.
 */
export async function notifyRequestApproved(
  context: AppContext,
  tx: Executor,
  options: { notice: RequestNotice; approvalNumber: DrawnValue },
): Promise<void> {
  const { approvalNumber } = options;
  const notice = { ...options.notice, status: 'approved', approvalNumber: approvalNumber.marker };
  const notices = decisionNotices(context, notice, 'request_approved');
  await queueNotices(
    tx,
    notices.map((owned) => ({ ...owned, carries: approvalNumber })),
  );
}

/** For the retirements service, inside the attach transaction: the owner learns the due date. */
export async function notifyRetirementAttached(
  context: AppContext,
  tx: Executor,
  options: { retirementId: string },
): Promise<void> {
  const notice = await loadRetirement(tx, options.retirementId);
  await queueNotices(
    tx,
    ownerNotice(notice.owner, () => ({
      kind: 'retirement_attached',
      key: notificationKey('retirement', notice.retirementId, 'attached'),
      email: retirementAttachedEmail({
        appUrl: context.config.appUrl,
        facts: factsOf(notice),
        dueDate: notice.dueDate,
      }),
    })),
  );
}

/**
 * For the retirements service, inside the submit transaction (after the round is opened): the
 * first step's reviewers of the new round hear of it (cascading: the whole chain).
 */
export async function notifyRetirementSubmitted(
  context: AppContext,
  tx: Executor,
  options: { retirementId: string },
): Promise<void> {
  const notice = await loadRetirement(tx, options.retirementId);
  await queueReviewers(context, tx, retirementTarget(notice), 1);
}

/**
 * For the retirements service, inside the review transaction: the next step's reviewers while
 * steps remain, otherwise the owner (approved or rejected).
 */
export async function notifyRetirementReviewed(
  context: AppContext,
  tx: Executor,
  options: { retirementId: string },
): Promise<void> {
  const notice = await loadRetirement(tx, options.retirementId);
  const decision = retirementDecisionKind(notice.retirementStatus);
  if (!decision) return queueReviewers(context, tx, retirementTarget(notice), pendingStep(notice));
  await queueNotices(
    tx,
    ownerNotice(notice.owner, () => ({
      kind: decision,
      key: notificationKey('retirement', notice.retirementId, 'round', notice.round, decision),
      email: retirementDecisionEmail({
        appUrl: context.config.appUrl,
        facts: factsOf(notice),
        decision: decision === 'retirement_approved' ? 'approved' : 'rejected',
        comments: decisionComments(notice),
      }),
    })),
  );
}

/**
 * Inside the transaction that locked or unlocked users (the midnight job, a retirement submission
 * that cleared the owner, or finance's `POST users/restrict`): each hears of it, muted or not.
 * The transaction id tells one lock from the next, so a repeated call in it sends one e-mail.
 */
export async function notifyAccountLock(
  context: AppContext,
  tx: Executor,
  options: { userIds: string[]; isLocked: boolean; reason?: string | null },
): Promise<void> {
  if (options.userIds.length === 0) return;
  const people = await findRecipients(tx, options.userIds);
  const names = await findOrganizationNames(tx, [
    ...new Set(people.map((person) => person.organization_id)),
  ]);
  const transaction = await currentTransactionId(tx);
  const kind = options.isLocked ? 'account_locked' : 'account_unlocked';
  const lockReasons = await reasonsOf(tx, people, options);
  await queueNotices(
    tx,
    people.map((recipient) => ({
      recipient,
      kind,
      key: notificationKey('user', recipient.id, kind, transaction),
      email: accountLockEmail({
        appUrl: context.config.appUrl,
        organizationName: names.get(recipient.organization_id) ?? '',
        recipientName: recipient.fullname,
        isLocked: options.isLocked,
        reason: lockReasons.get(recipient.id) ?? null,
      }),
    })),
  );
}

/** A delegation as its e-mails need it (a row of `delegations`). */
export type DelegationNotice = {
  id: string;
  organization_id: string;
  delegator_id: string;
  delegate_id: string;
  starts_on: string;
  ends_on: string;
  note: string | null;
};

/**
 * Inside the transaction that named a delegation or ended it before its last day: the delegate
 * hears whose steps come to them and for which days, and the delegator too when someone else
 * acted (the director, or whoever changed one of the two). Whoever acted gets no e-mail, and a
 * deactivated person none (findRecipients leaves them out).
 */
export async function notifyDelegation(
  context: AppContext,
  tx: Executor,
  options: { event: 'named' | 'ended'; actor: { id: string }; delegation: DelegationNotice },
): Promise<void> {
  const { delegation, event, actor } = options;
  const sides = (
    [
      ['delegate', delegation.delegate_id],
      ['delegator', delegation.delegator_id],
    ] as const
  ).filter(([, id]) => id !== actor.id);
  const recipients = await findRecipients(
    tx,
    sides.map(([, id]) => id),
  );
  if (recipients.length === 0) return;
  const names = await findPeopleNames(tx, [
    delegation.delegator_id,
    delegation.delegate_id,
    actor.id,
  ]);
  const organizationNames = await findOrganizationNames(tx, [delegation.organization_id]);
  const facts = {
    organizationName: organizationNames.get(delegation.organization_id) ?? '',
    delegatorName: names.get(delegation.delegator_id) ?? '',
    delegateName: names.get(delegation.delegate_id) ?? '',
    actorName: names.get(actor.id) ?? '',
    actorIsDelegator: actor.id === delegation.delegator_id,
    startsOn: delegation.starts_on,
    endsOn: delegation.ends_on,
    note: delegation.note,
  };
  const kind = event === 'named' ? 'delegation_named' : 'delegation_ended';
  await queueNotices(
    tx,
    sides.flatMap(([side, id]) => {
      const recipient = recipients.find((person) => person.id === id);
      if (!recipient) return [];
      return [
        {
          recipient,
          kind,
          key: notificationKey('delegation', delegation.id, event, side),
          email: delegationEmail({ appUrl: context.config.appUrl, facts, event, recipient: side }),
        },
      ];
    }),
  );
}

/** Each locked user's recorded reason, unless the caller gave one. */
async function reasonsOf(
  tx: Executor,
  people: Recipient[],
  options: { isLocked: boolean; reason?: string | null },
): Promise<Map<string, string | null>> {
  if (!options.isLocked) return new Map();
  if (options.reason !== undefined)
    return new Map(people.map((person) => [person.id, options.reason ?? null]));
  return findLockReasons(
    tx,
    people.map((person) => person.id),
  );
}
