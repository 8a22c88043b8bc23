import { changesBetween } from '@imprest/domain/audit.ts';
import type { RequestResponse } from '@imprest/domain/api/requests.ts';
import type {
  AttachRetirementRequest,
  PendingRetirementsQuery,
  PendingRetirementsResponse,
  RetirementEditRequest,
  RetirementListQuery,
  RetirementListResponse,
  RetirementResponse,
  ReviewRetirementRequest,
  SubmitRetirementRequest,
} from '@imprest/domain/api/retirements.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { messages } from '@imprest/domain/messages.ts';
import {
  firstPendingReview,
  isReviewerRole,
  nextReviewerRole,
  reviewerTitle,
  statusAfterReview,
  todayIn,
  type ReviewerRole,
} from '@imprest/domain/requests.ts';
import { amountWithCurrency, isMoreMoney } from '@imprest/domain/money.ts';
import { retirementDueDate } from '@imprest/domain/retirements.ts';
import type { AppContext } from '../../context.ts';
import type { SpreadsheetDownload } from '../../lib/attachment.ts';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { sqlState, sqlStateOf } from '../../lib/database-errors.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { checkAttachments } from '../files/service.ts';
import { lockRequest } from '../requests/queries.ts';
import { readRequest } from '../requests/service.ts';
import { findReviewsOf } from '../reviews/queries.ts';
import { releaseSystemLockIfClear } from '../jobs/service.ts';
import {
  notifyAccountLock,
  notifyRetirementAttached,
  notifyRetirementReviewed,
  notifyRetirementSubmitted,
} from '../notifications/service.ts';
import { userOfOrganization } from '../users/visible.ts';
import {
  canAttachRetirement,
  canListAllRetirements,
  canReadRetirement,
  canRequestRetirementEdit,
  canSeeUserRetirements,
  canSubmitRetirement,
  retirementReviewRefusal,
} from './policy.ts';
import { listRetirementPage } from './list-queries.ts';
import { listPendingReviewPage } from './pending-queries.ts';
import { presentRetirement, presentRetirementItem } from './presenter.ts';
import {
  answerPendingRetirementReview,
  answerRetirementStep,
  findRetirement,
  findRetirementOfRequest,
  findRetirementReviews,
  insertRetirement,
  insertRetirementReviewRound,
  lockRetirement,
  reopenRetirement,
  submitRetirementRound,
  type RetirementRow,
} from './queries.ts';
import { retirementsWorkbook } from './spreadsheet.ts';

export const retirementNotFound = "Error! Couldn't find the retirement.";

const alreadyRetired = 'This request already has a retirement.';

/** A second retirement for one request answers 409; the unique index decides, so racing attaches cannot both win. */
function rethrowDuplicateRetirement(error: unknown): never {
  if (sqlStateOf(error) === sqlState.uniqueViolation)
    throw new AppError('conflict', alreadyRetired);
  throw error;
}

/**
 * Finance attaches a retirement to an approved request that has none (decisions §4): status
 * pending, owned by the request's owner, due the later of the expenditure date and today (in the
 * organisation's time zone) plus 14 days. Checked and written in one transaction holding the
 * request row lock. Answers the request as `GET requests/request/{id}` does, with its retirement.
 */
export async function attachRetirement(
  context: AppContext,
  options: { actor: Actor; input: AttachRetirementRequest },
): Promise<RequestResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  if (!canAttachRetirement(actor))
    throw new AppError('forbidden', 'Only finance can request a retirement.');
  const attachDate = todayIn(context.config.orgTimezone);
  const retirement = await context.db
    .transaction(async (tx) => {
      const request = await lockRequest(tx, { organizationId, id: input.id });
      // Another organisation's request does not exist for this user (decisions §2).
      if (!request) throw new AppError('not_found', messages.requestNotFound);
      if (!request.is_latest) {
        throw new AppError(
          'conflict',
          'This version has been replaced by a newer one. Open the newest version to request its retirement.',
        );
      }
      if (request.current_status !== 'approved') {
        throw new AppError(
          'conflict',
          'Only an approved request can be retired. This request has not been approved.',
        );
      }
      if (await findRetirementOfRequest(tx, { organizationId, requestId: request.id }))
        throw new AppError('conflict', alreadyRetired);
      const attached = await insertRetirement(tx, {
        organization_id: organizationId,
        request_id: request.id,
        retirement_owner_id: request.request_owner_id,
        budget_id: request.budget_id,
        // amountReceived (decisions §4): the approved amount, in the request's currency.
        amount_received: request.amount_requested,
        status: 'pending',
        due_date: retirementDueDate(request.expenditure_date, attachDate),
        amount_currency: request.amount_currency,
        created_by: actor.id,
      });
      await notifyRetirementAttached(context, tx, { retirementId: attached.id });
      await recordAudit(tx, {
        organizationId,
        actor,
        action: 'retirement.attached',
        objectType: 'retirement',
        objectId: attached.id,
        changes: changesBetween(
          null,
          {
            request_id: attached.request_id,
            amount_received: attached.amount_received,
            due_date: attached.due_date,
          },
          ['request_id', 'amount_received', 'due_date'],
        ),
      });
      return attached;
    })
    .catch(rethrowDuplicateRetirement);

  context.events.publish(organizationId, 'retirement_updated', {
    retirement_id: retirement.id,
    request_id: retirement.request_id,
  });
  context.events.publish(organizationId, 'request_updated', { request_id: retirement.request_id });
  const request = await readRequest(context.db, { organizationId, id: retirement.request_id });
  if (!request) throw new Error(`request ${retirement.request_id} vanished after its retirement`);
  return request;
}

/**
 * Everything the API shows of one retirement: its request's fields and the reviews of every round.
 * The reviews go out with the retirement (db/pipelined.ts) and count only when it is the
 * organisation's.
 */
async function readRetirement(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RetirementResponse> {
  const [record, reviews] = await pipelined(db, [
    (on) => findRetirement(on, options),
    (on) => findRetirementReviews(on, options.id),
  ]);
  if (!record) throw new Error(`retirement ${options.id} not found where it was just written`);
  return presentRetirement(record, reviews);
}

/** Tells the organisation about a retirement that changed and its request. */
function publishRetirement(
  context: AppContext,
  organizationId: string,
  retirement: RetirementResponse,
  options: { isApproved?: boolean } = {},
): RetirementResponse {
  context.events.publish(organizationId, 'retirement_updated', {
    retirement_id: retirement.id,
    request_id: retirement.request_id,
  });
  context.events.publish(organizationId, 'request_updated', { request_id: retirement.request_id });
  // An approved retirement puts its spent amount in place of the request's on the budget (decisions §3).
  if (options.isApproved)
    context.events.publish(organizationId, 'budget_updated', { code: retirement.budget_code });
  return retirement;
}

/** After a change: tells the organisation about the retirement and its request, answers the retirement. */
async function publishChanged(
  context: AppContext,
  options: { organizationId: string; id: string; isApproved?: boolean },
): Promise<RetirementResponse> {
  const retirement = await readRetirement(context.db, options);
  return publishRetirement(context, options.organizationId, retirement, options);
}

/** Locks a retirement the actor may read; another organisation's, or one they may not read, is 404. */
async function lockReadable(tx: Executor, actor: Actor, id: string): Promise<RetirementRow> {
  const retirement = await lockRetirement(tx, { organizationId: actor.organization_id, id });
  if (!retirement || !canReadRetirement(actor, retirement))
    throw new AppError('not_found', retirementNotFound);
  return retirement;
}

/** Why a retirement in this status cannot be submitted (only a pending one can, spec §4). */
function notSubmittable(status: string): string {
  if (status === 'on_progress')
    return 'This retirement has already been submitted and is under review.';
  if (status === 'approved') return 'This retirement has already been approved.';
  return 'This retirement was rejected. Ask to resubmit it before submitting it again.';
}

/** The amount spent must be in the retirement's currency and at most what was received. */
function assertSpendable(retirement: RetirementRow, input: SubmitRetirementRequest): void {
  if (input.amount_currency !== retirement.amount_currency) {
    const currency = retirement.amount_currency.toUpperCase();
    throw new AppError(
      'bad_request',
      `This retirement is in ${currency}: report the amount spent in ${currency}.`,
      { details: [{ path: 'amount_currency', message: `must be ${retirement.amount_currency}` }] },
    );
  }
  const received = Number(retirement.amount_received);
  // Compared in whole cents, exactly, not as doubles (docs/decisions/0013).
  if (isMoreMoney(input.amount_spent, retirement.amount_received)) {
    throw new AppError(
      'bad_request',
      `The amount spent can be at most ${amountWithCurrency(received, retirement.amount_currency)}, the amount received. Raise a new request for more.`,
      { details: [{ path: 'amount_spent', message: `must be at most ${received}` }] },
    );
  }
}

/**
 * The owner submits a pending retirement (spec §4: pending → on_progress), locked or not: the
 * amount spent in the retirement's currency, at most the amount received, comments and receipts
 * of their own uploading. One transaction holding the retirement row lock records it and opens the
 * next review round, a copy of the request's reviewer roles in step order.
 */
export async function submitRetirement(
  context: AppContext,
  options: { actor: Actor; input: SubmitRetirementRequest },
): Promise<RetirementResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  const submitted = await context.db.transaction(async (tx) => {
    const retirement = await lockReadable(tx, actor, input.id);
    if (!canSubmitRetirement(actor, retirement))
      throw new AppError('forbidden', 'Only the owner of a retirement can submit it.');
    if (retirement.status !== 'pending')
      throw new AppError('conflict', notSubmittable(retirement.status));
    assertSpendable(retirement, input);
    // Files a rejected submission held may stay; new ones must be the owner's own uploads.
    const filePaths = await checkAttachments(context, tx, {
      actor,
      names: input.file_paths,
      carried: retirement.file_paths,
    });
    const roles = (await findReviewsOf(tx, retirement.request_id))
      .map((review) => review.reviewer_role)
      .filter(isReviewerRole);
    const [first] = roles;
    if (!first) throw new Error(`request ${retirement.request_id} has no reviewer chain`);
    const round = retirement.submissions + 1;
    // A new round is judged afresh: Cash Returned marked in a rejected round spoke of its amount,
    // and whoever answered a step of it may answer any step of this one (decision 0019). The
    // writes go out together (db/pipelined.ts), each after the rows the ones before it wrote: the
    // reviewers' notice reads the round, and the lock's release finds this retirement submitted.
    const [, , , , isUnlocked, response] = await pipelined(tx, [
      (on) =>
        submitRetirementRound(on, {
          id: retirement.id,
          amountSpent: input.amount_spent.toFixed(2),
          comments: input.comments,
          filePaths,
          round,
          nextReviewerRole: first,
        }),
      (on) =>
        insertRetirementReviewRound(on, {
          organizationId,
          retirementId: retirement.id,
          round,
          roles,
          titleOf: (role) => roleLabels[role],
        }),
      (on) => notifyRetirementSubmitted(context, on, { retirementId: retirement.id }),
      (on) =>
        recordAudit(on, {
          organizationId,
          actor,
          action: 'retirement.submitted',
          objectType: 'retirement',
          objectId: retirement.id,
          changes: changesBetween(
            {
              status: retirement.status,
              amount_spent: retirement.amount_spent,
              submissions: retirement.submissions,
            },
            {
              status: 'on_progress',
              amount_spent: input.amount_spent.toFixed(2),
              submissions: round,
            },
            ['status', 'amount_spent', 'submissions'],
          ),
        }),
      // Decisions §4: locking exists to make owners retire, so a lock the midnight job set lifts
      // as soon as nothing of theirs is overdue any more, not at the next midnight.
      (on) =>
        releaseSystemLockIfClear(on, {
          organizationId,
          userId: retirement.retirement_owner_id,
          asOf: todayIn(context.config.orgTimezone),
        }),
      (on) => readRetirement(on, { organizationId, id: retirement.id }),
    ]);
    if (isUnlocked) {
      await notifyAccountLock(context, tx, {
        userIds: [retirement.retirement_owner_id],
        isLocked: false,
      });
      // The system's lock, lifted by the system: nothing of theirs is overdue any more.
      await recordAudit(tx, {
        organizationId,
        actor: null,
        action: 'user.unlocked',
        objectType: 'user',
        objectId: retirement.retirement_owner_id,
        changes: { is_locked: { from: true, to: false } },
      });
    }
    return { isUnlocked, response };
  });
  if (submitted.isUnlocked)
    context.events.publish(organizationId, 'update_user', { user_id: actor.id });
  return publishRetirement(context, organizationId, submitted.response);
}

const alreadyAnswered = 'This review has already been answered.';

/**
 * Answers a step of a retirement's current review round (spec §4, decisions §3) in one transaction
 * holding the retirement row lock: the reviewer is the signed-in user, never the owner; steps act in
 * order; a review changes only while pending (a second answer gets 409). Any rejection rejects the
 * retirement, the last approval approves it, and the ledger trigger then moves the budget.
 */
export async function reviewRetirement(
  context: AppContext,
  options: { actor: Actor; input: ReviewRetirementRequest },
): Promise<RetirementResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  const reviewed = await context.db.transaction(async (tx) => {
    // The reviews go out with the lock and are read once it is granted (db/pipelined.ts); they
    // count only when the retirement is one the actor may read.
    const [retirement, reviews] = await pipelined(tx, [
      (on) => lockReadable(on, actor, input.id),
      (on) => findRetirementReviews(on, input.id),
    ]);
    const round = reviews.filter((review) => review.round === retirement.submissions);
    const review = round.find((candidate) => candidate.id === input.review_id);
    if (!review) {
      throw new AppError(
        'not_found',
        "This review does not belong to the retirement's current submission.",
      );
    }
    const refusal = retirementReviewRefusal(actor, retirement, review, round);
    if (refusal) throw new AppError('forbidden', refusal);
    if (retirement.status !== 'on_progress')
      throw new AppError('conflict', 'This retirement no longer awaits review.');
    if (review.status !== 'pending') throw new AppError('conflict', alreadyAnswered);
    const current = firstPendingReview(round);
    if (current && current.id !== review.id) {
      const role = roleLabels[current.reviewer_role as ReviewerRole];
      throw new AppError(
        'conflict',
        `It is not this review's turn yet: the ${reviewerTitle(current.step)} (${role}) answers first.`,
      );
    }
    // Something is left over only when less was spent than received, compared in whole cents.
    const hasLeftOver = isMoreMoney(retirement.amount_received, retirement.amount_spent ?? '0');
    if (input.is_funds_returned && !hasLeftOver) {
      throw new AppError(
        'bad_request',
        'Cash Returned applies only when less was spent than received; nothing is left to return.',
        { details: [{ path: 'is_funds_returned', message: 'must be false' }] },
      );
    }

    const next = statusAfterReview(round, input.status);
    const answeredRound = round.map((step) =>
      step.id === review.id ? { ...step, status: input.status } : step,
    );
    // The answer goes out with the writes that follow from it (db/pipelined.ts). A review
    // answered meanwhile updates no row: the transaction is then rolled back with everything
    // sent beside it.
    const [answered, , , , response] = await pipelined(tx, [
      (on) =>
        answerPendingRetirementReview(on, {
          id: review.id,
          status: input.status,
          comments: input.comments,
          isFundsReturned: input.is_funds_returned,
          reviewerId: actor.id,
          reviewerName: actor.fullname,
          reviewerTitle: roleLabels[actor.role],
        }),
      (on) =>
        answerRetirementStep(on, {
          id: retirement.id,
          status: next.status,
          nextReviewerRole: nextReviewerRole(next.status, answeredRound),
          answeredBy: actor.id,
          fundsReturned: input.is_funds_returned,
        }),
      (on) => notifyRetirementReviewed(context, on, { retirementId: retirement.id }),
      (on) =>
        recordAudit(on, {
          organizationId,
          actor,
          action:
            input.status === 'approved'
              ? 'retirement.review_approved'
              : 'retirement.review_rejected',
          objectType: 'retirement',
          objectId: retirement.id,
          changes: changesBetween<Record<string, unknown>>(
            { step: review.step, review: 'pending', status: retirement.status },
            {
              step: review.step,
              review: input.status,
              status: next.status,
              comments: input.comments || undefined,
              ...(input.is_funds_returned ? { is_funds_returned: true } : {}),
            },
            ['review', 'status', 'comments', 'is_funds_returned'],
          ),
        }),
      (on) => readRetirement(on, { organizationId, id: retirement.id }),
    ]);
    if (!answered) throw new AppError('conflict', alreadyAnswered);
    return { status: next.status, response };
  });
  return publishRetirement(context, organizationId, reviewed.response, {
    isApproved: reviewed.status === 'approved',
  });
}

/**
 * The owner of a rejected retirement asks to resubmit it (spec §4: rejected → pending). Amount,
 * comments and files stay, so the form opens filled in; the next submission opens a new round.
 */
export async function requestRetirementEdit(
  context: AppContext,
  options: { actor: Actor; input: RetirementEditRequest },
): Promise<RetirementResponse> {
  const { actor, input } = options;
  await context.db.transaction(async (tx) => {
    const retirement = await lockReadable(tx, actor, input.id);
    if (!canRequestRetirementEdit(actor, retirement))
      throw new AppError('forbidden', 'Only the owner of a retirement can ask to resubmit it.');
    if (retirement.status !== 'rejected')
      throw new AppError('conflict', 'Only a rejected retirement can be resubmitted.');
    await reopenRetirement(tx, retirement.id);
    await recordAudit(tx, {
      organizationId: actor.organization_id,
      actor,
      action: 'retirement.edit_requested',
      objectType: 'retirement',
      objectId: retirement.id,
      changes: { status: { from: 'rejected', to: 'pending' } },
    });
  });
  return publishChanged(context, { organizationId: actor.organization_id, id: input.id });
}

/**
 * Whose retirements a list or download covers: `user` mode is one user's own (theirs, or any
 * user's for an admin); the caller's own role is admin mode, every retirement of the organisation.
 */
function ownerFilter(actor: Actor, mode: string, userId: string): string | undefined {
  if (mode === 'user') {
    if (!canSeeUserRetirements(actor, userId))
      throw new AppError('forbidden', 'You can only see your own retirements.');
    return userId;
  }
  if (mode !== actor.role) {
    throw new AppError(
      'forbidden',
      `Use user for your own retirements, or your own role (${actor.role}) for all of them.`,
    );
  }
  if (!canListAllRetirements(actor)) {
    throw new AppError(
      'forbidden',
      "Only admins can see everyone's retirements. Use user to see your own.",
    );
  }
  return undefined;
}

/** A page of retirements, newest first: the caller's own (staff mode) or the organisation's (admin mode). */
export async function listRetirements(
  context: AppContext,
  options: { actor: Actor; query: RetirementListQuery },
): Promise<RetirementListResponse> {
  const { actor, query } = options;
  const { rows, total } = await listRetirementPage(context.db, {
    organizationId: actor.organization_id,
    ownerId: ownerFilter(actor, query.role, actor.id),
    search: query.search || undefined,
    status: query.status,
    page: query.page,
    perPage: query.per_page,
  });
  const data = rows.map(presentRetirementItem);
  return { data, retirements: data, page: query.page, per_page: query.per_page, total };
}

/**
 * The retirements waiting for the caller's review (Home's 'Retirements Pending Your Review'),
 * oldest submission first: exactly those whose current step the caller may answer. Anyone signed in
 * may ask; a role that reviews no step (staff) has none.
 */
export async function listPendingRetirements(
  context: AppContext,
  options: { actor: Actor; query: PendingRetirementsQuery },
): Promise<PendingRetirementsResponse> {
  const { actor, query } = options;
  const { rows, total } = await listPendingReviewPage(context.db, {
    organizationId: actor.organization_id,
    role: actor.role,
    callerId: actor.id,
    page: query.page,
    perPage: query.per_page,
  });
  return {
    data: rows.map(presentRetirementItem),
    page: query.page,
    per_page: query.per_page,
    total,
  };
}

/** A spreadsheet of retirements named after the user, streamed as it is written (spec §9). */
export async function downloadRetirements(
  context: AppContext,
  options: { actor: Actor; mode: string; userId: string },
): Promise<SpreadsheetDownload> {
  const { actor } = options;
  const ownerId = ownerFilter(actor, options.mode, options.userId);
  const user = await userOfOrganization(context.db, actor, options.userId);
  return {
    fileName: `${user.fullname} retirements.xlsx`,
    stream: retirementsWorkbook(context.db, {
      organizationId: actor.organization_id,
      ownerId,
      timeZone: context.config.orgTimezone,
    }),
  };
}
