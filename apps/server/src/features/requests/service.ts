import { changesBetween, requestAuditTerms } from '@imprest/domain/audit.ts';
import { randomUUID } from 'node:crypto';
import type {
  CreateRequestRequest,
  PendingListResponse,
  RequestListQuery,
  RequestListResponse,
  RequestResponse,
  ResubmitRequestRequest,
  SummaryResponse,
} from '@imprest/domain/api/requests.ts';
import { approvalRowFor } from '@imprest/domain/approval-matrix.ts';
import { roleLabels, type Role } from '@imprest/domain/enums.ts';
import { fitsMoney, rateFor, toBaseAmount } from '@imprest/domain/exchange-rates.ts';
import { messages } from '@imprest/domain/messages.ts';
import { canActAsDelegate, delegatorFor } from '@imprest/domain/delegations.ts';
import {
  expenditureDay,
  isBeforeToday,
  isTooFarAhead,
  nextReviewerRole,
  todayIn,
} from '@imprest/domain/requests.ts';
import type { AppContext } from '../../context.ts';
import type { SpreadsheetDownload } from '../../lib/attachment.ts';
import type { Executor, Transaction } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { recordAudit } from '../audit/record.ts';
import { AppError } from '../../lib/errors.ts';
import { findGrantsOf } from '../delegations/queries.ts';
import { checkAttachments } from '../files/service.ts';
import { lockBudgetWithRoom, type BudgetRow } from '../budgets/ledger.ts';
import { presentOutstandingRetirement } from '../retirements/presenter.ts';
import { listOwnerOutstandingWithTotal } from '../retirements/queries.ts';
import { insertReviewChain } from '../reviews/queries.ts';
import { notifyRequestSubmitted } from '../notifications/service.ts';
import { userOfOrganization } from '../users/visible.ts';
import {
  canListAllRequests,
  canReadRequest,
  canResubmitRequest,
  canSeeUserRequests,
  canSubmitRequest,
} from './policy.ts';
import { presentPendingItem, presentRequest, presentRequestItem } from './presenter.ts';
import { countOwnerRequests } from './counts.ts';
import { findRequestView } from './view.ts';
import { listRequestPage } from './list-queries.ts';
import { listPendingForRole } from './pending-queries.ts';
import { findSubmissionTerms, insertRequest, lockRequest, markSuperseded } from './queries.ts';
import { requestsWorkbook } from './spreadsheet.ts';

/** The fields of a submission, without the parent of a resubmission. */
type RequestFields = Omit<CreateRequestRequest, 'parent_request'>;

/** Everything the API shows of one request, or undefined when the organisation has no such request. */
export async function readRequest(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestResponse | undefined> {
  const view = await findRequestView(db, options);
  return view ? presentRequest(view) : undefined;
}

async function readPlaced(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestResponse> {
  const request = await readRequest(db, options);
  if (!request) throw new Error(`request ${options.id} not found where it was just written`);
  return request;
}

/** The calendar day of an expenditure date, refused when it lies before today (spec §5). */
function checkedExpenditureDay(context: AppContext, value: string): string {
  const timeZone = context.config.orgTimezone;
  const day = expenditureDay(value, timeZone);
  if (!day)
    throw new AppError(
      'bad_request',
      'expenditure_date must be a date as YYYY-MM-DD or an ISO date-time.',
    );
  if (isTooFarAhead(day))
    throw new AppError('bad_request', 'The expenditure date is too far in the future.');
  if (isBeforeToday(day, timeZone))
    throw new AppError('bad_request', 'The expenditure date cannot be before today.');
  return day;
}

/** Refuses a budget that cannot take a request: archived (spec §4) or in another currency (spec §5). */
function assertBudgetTakes(budget: BudgetRow, input: RequestFields): void {
  if (budget.current_status !== 'active') {
    throw new AppError(
      'bad_request',
      `Budget code ${budget.code} is archived and cannot take new requests.`,
    );
  }
  if (budget.currency !== input.amount_currency)
    throw new AppError('bad_request', messages.currencyDiffers);
}

type AuditedTerms = Record<(typeof requestAuditTerms)[number], unknown> & { version: number };

/**
 * Checks the budget and reserves the amount, then writes the request and its reviewer chain, all in
 * the caller's transaction, tells the first step's reviewers and reads the request back as the API
 * answers it. The balance is read before the budget row lock and again under it: an amount that
 * never fitted is invalid input (400); one that fitted until a concurrent submission took the room
 * is a conflict (409, decisions §2: "a budget that ran out meanwhile"). Only the check under the
 * lock decides, so concurrent submissions can never over-commit a budget.
 *
 * Statements that wait for no answer of another go out together (db/pipelined.ts): the terms'
 * read with the lock (PostgreSQL runs them in that order, the read's snapshot before the lock's
 * wait), then the request, its chain, its audit event, the reviewers' notice and the read back,
 * in that order, each after the rows the ones before it wrote.
 */
async function placeRequest(
  context: AppContext,
  tx: Transaction,
  options: {
    actor: Actor;
    input: RequestFields;
    day: string;
    /** The version resubmitted, with its terms as stored (the audit event's "from"). */
    previous?: { chainId: string; id: string; terms: AuditedTerms };
  },
): Promise<{ id: string; budgetCode: string; response: RequestResponse }> {
  const { actor, input, previous } = options;
  const organizationId = actor.organization_id;
  const budgetTerms = {
    organizationId,
    code: input.budget_code,
    amount: input.amount_requested,
  };
  const [terms, budget] = await pipelined(tx, [
    (on) => findSubmissionTerms(on, budgetTerms),
    (on) => lockBudgetWithRoom(on, budgetTerms),
  ]);
  if (!terms || !budget)
    throw new AppError('bad_request', `Budget code ${input.budget_code} does not exist.`);
  const found = terms.budget;
  assertBudgetTakes(found, input);
  // Decided in SQL numeric, not on doubles (docs/decisions/0013).
  if (!found.has_room) throw new AppError('bad_request', messages.amountExceedsBalance);
  assertBudgetTakes(budget, input);
  if (!budget.has_room) throw new AppError('conflict', messages.amountExceedsBalance);

  // Decisions §3: the matrix row is chosen by the amount in tzs at the organisation's current rate.
  const rate = rateFor(input.amount_currency, terms.rates);
  const amountBase = toBaseAmount(input.amount_requested, rate);
  if (!fitsMoney(amountBase)) throw new AppError('bad_request', 'Amount is too large');
  const row = approvalRowFor(terms.matrix, amountBase);
  if (!row) {
    throw new AppError(
      'conflict',
      'The approval matrix has no row for this amount. Ask a director to complete it.',
    );
  }

  const id = randomUUID();
  // The chain starts all pending, so the request waits for its first step's role.
  const chain = row.user_role.map((role, index) => ({
    step: index + 1,
    status: 'pending',
    reviewer_role: role,
  }));
  const version = previous ? previous.terms.version + 1 : 1;
  const [, , , , response] = await pipelined(tx, [
    (on) =>
      insertRequest(on, {
        id,
        organization_id: organizationId,
        chain_id: previous?.chainId ?? id,
        version,
        parent_request: previous?.id ?? null,
        is_latest: true,
        // The owner is the signed-in user, never the body (decisions §3).
        request_owner_id: actor.id,
        request_owner_name: actor.fullname,
        department: actor.department,
        purpose: input.purpose,
        mode_of_service: input.mode_of_service,
        name_of_establishment: input.name_of_establishment,
        expenditure_date: options.day,
        expenditure_justification: input.expenditure_justification,
        amount_requested: input.amount_requested.toFixed(2),
        amount_currency: input.amount_currency,
        exchange_rate: rate.toFixed(6),
        amount_base: amountBase.toFixed(2),
        budget_id: budget.id,
        budget_code: budget.code,
        payment_mode: input.payment_mode,
        tax_status: input.tax_status,
        comments: input.comments,
        current_status: 'pending',
        next_reviewer_role: nextReviewerRole('pending', chain),
        cascading_notification: row.cascading_notification,
        file_paths: input.file_paths,
      }),
    (on) =>
      insertReviewChain(on, {
        organizationId,
        requestId: id,
        roles: row.user_role,
        titleOf: (role) => roleLabels[role],
      }),
    (on) =>
      recordAudit(on, {
        organizationId,
        actor,
        action: previous ? 'request.resubmitted' : 'request.submitted',
        objectType: 'request',
        objectId: id,
        // A resubmission names the terms that changed from the version it replaces (decision 0019).
        changes: changesBetween<AuditedTerms>(
          previous?.terms ?? null,
          {
            version,
            amount_requested: input.amount_requested.toFixed(2),
            amount_currency: input.amount_currency,
            budget_code: budget.code,
            purpose: input.purpose,
            name_of_establishment: input.name_of_establishment,
            expenditure_date: options.day,
          },
          requestAuditTerms,
        ),
      }),
    (on) => notifyRequestSubmitted(context, on, { requestId: id }),
    (on) => readPlaced(on, { organizationId, id }),
  ]);
  return { id, budgetCode: budget.code, response };
}

function publishPlaced(
  context: AppContext,
  organizationId: string,
  placed: { id: string; budgetCode: string },
): void {
  context.events.publish(organizationId, 'request_updated', { request_id: placed.id });
  context.events.publish(organizationId, 'budget_updated', { code: placed.budgetCode });
}

/** Submits a request: checks and reserves the budget and creates the reviewer chain in one transaction. */
export async function submitRequest(
  context: AppContext,
  options: { actor: Actor; input: RequestFields },
): Promise<RequestResponse> {
  const { actor, input } = options;
  if (!canSubmitRequest(actor)) throw new AppError('forbidden', messages.lockedAccount);
  const day = checkedExpenditureDay(context, input.expenditure_date);
  const filePaths = await checkAttachments(context, context.db, { actor, names: input.file_paths });
  const placed = await context.db.transaction((tx) =>
    placeRequest(context, tx, { actor, input: { ...input, file_paths: filePaths }, day }),
  );
  publishPlaced(context, actor.organization_id, placed);
  return placed.response;
}

/**
 * Resubmits a request returned for edits as its next version (spec §4): same chain, a fresh
 * reviewer chain, the budget checked and reserved again; the previous version stops counting.
 */
export async function resubmitRequest(
  context: AppContext,
  options: { actor: Actor; input: ResubmitRequestRequest },
): Promise<RequestResponse> {
  const { actor, input } = options;
  const organizationId = actor.organization_id;
  if (!canSubmitRequest(actor)) throw new AppError('forbidden', messages.lockedAccount);
  const day = checkedExpenditureDay(context, input.expenditure_date);
  const placed = await context.db.transaction(async (tx) => {
    const previous = await lockRequest(tx, { organizationId, id: input.parent_request });
    if (!previous || !canReadRequest(actor, previous))
      throw new AppError('not_found', messages.requestNotFound);
    if (!canResubmitRequest(actor, previous))
      throw new AppError('forbidden', 'Only the owner of a request can resubmit it.');
    if (!previous.is_latest)
      throw new AppError('conflict', 'This version has already been resubmitted.');
    if (previous.current_status !== 'request_edit') {
      throw new AppError('conflict', 'Only a request returned for edits can be resubmitted.');
    }
    // Files the returned version held may stay; new ones must be the owner's own uploads.
    const filePaths = await checkAttachments(context, tx, {
      actor,
      names: input.file_paths,
      carried: previous.file_paths,
    });
    await markSuperseded(tx, previous.id);
    return placeRequest(context, tx, {
      actor,
      input: { ...input, file_paths: filePaths },
      day,
      previous: {
        chainId: previous.chain_id,
        id: previous.id,
        terms: Object.fromEntries(
          requestAuditTerms.map((field) => [field, previous[field]]),
        ) as AuditedTerms,
      },
    });
  });
  // The previous version changed too: it is no longer the latest.
  context.events.publish(organizationId, 'request_updated', { request_id: input.parent_request });
  publishPlaced(context, organizationId, placed);
  return placed.response;
}

/** One request with its reviews and version history: the owner's, or any for an admin (spec §6). */
export async function getRequest(
  context: AppContext,
  options: { actor: Actor; id: string },
): Promise<RequestResponse> {
  const { actor } = options;
  const view = await findRequestView(context.db, {
    organizationId: actor.organization_id,
    id: options.id,
  });
  // Another organisation's request, or one this user may not see, does not exist for them (decisions §2).
  if (!view || !canReadRequest(actor, view.record))
    throw new AppError('not_found', messages.requestNotFound);
  return presentRequest(view);
}

/**
 * Whose requests a list or download covers: `user` mode is one user's own (theirs, or any user's
 * for an admin); any other mode is admin mode, every request of the organisation.
 */
function ownerFilter(actor: Actor, mode: string, userId: string): string | undefined {
  if (mode === 'user') {
    if (!canSeeUserRequests(actor, userId))
      throw new AppError('forbidden', 'You can only see your own requests.');
    return userId;
  }
  if (!canListAllRequests(actor)) {
    throw new AppError(
      'forbidden',
      "Only admins can see everyone's requests. Use user to see your own.",
    );
  }
  return undefined;
}

/** A page of the newest versions, for staff mode (own requests) or admin mode (the organisation's). */
export async function listRequests(
  context: AppContext,
  options: { actor: Actor; mode: string; userId: string; query: RequestListQuery },
): Promise<RequestListResponse> {
  const { actor, query } = options;
  const ownerId = ownerFilter(actor, options.mode, options.userId);
  // Another organisation's user is not found (decisions §2), as for the summary and downloads.
  if (ownerId) await userOfOrganization(context.db, actor, ownerId);
  const { rows, total, capped } = await listRequestPage(context.db, {
    organizationId: actor.organization_id,
    ownerId,
    search: query.search || undefined,
    status: query.status,
    page: query.page,
    perPage: query.per_page,
  });
  const data = rows.map(presentRequestItem);
  return {
    data,
    requests: data,
    page: query.page,
    per_page: query.per_page,
    total,
    total_capped: capped,
  };
}

/** How many outstanding retirements the Home lists (summaryResponse: at most 10). */
const outstandingRetirementsShown = 10;

/** Home counts of a user's requests and the retirements they still owe: the user, or an admin. */
export async function summarizeRequests(
  context: AppContext,
  options: { actor: Actor; userId: string },
): Promise<SummaryResponse> {
  const { actor, userId } = options;
  if (!canSeeUserRequests(actor, userId))
    throw new AppError('forbidden', 'You can only see your own request counts.');
  await userOfOrganization(context.db, actor, userId);
  const owner = { organizationId: actor.organization_id, ownerId: userId };
  const [counts, outstanding] = await pipelined(context.db, [
    (on) => countOwnerRequests(on, userId),
    (on) => listOwnerOutstandingWithTotal(on, { ...owner, limit: outstandingRetirementsShown }),
  ]);
  return {
    pending: counts.pending,
    approved: counts.approved,
    rejected: counts.rejected,
    // The Home tile 'Unretired Requests': retirements the user still owes (pending or rejected).
    pending_retirement: outstanding.total,
    requests: counts.total,
    outstanding_retirements: outstanding.rows.map(presentOutstandingRetirement),
  };
}

/**
 * Requests whose next review is the caller's role, except the caller's own (spec §2 Home); for a
 * delegate also their active delegators' steps, each marked `delegated_from` (issue 15).
 */
export async function listPendingRequests(
  context: AppContext,
  options: { actor: Actor; role: Role; userId: string; page: number; perPage: number },
): Promise<PendingListResponse> {
  const { actor } = options;
  if (options.role !== actor.role || options.userId !== actor.id) {
    throw new AppError('forbidden', 'You can only list the requests waiting for your own role.');
  }
  const organizationId = actor.organization_id;
  const today = todayIn(context.config.orgTimezone);
  const queue = {
    organizationId,
    role: actor.role,
    excludeOwnerId: actor.id,
    page: options.page,
    perPage: options.perPage,
  };
  // The queue of the caller's own role goes out with the read of their delegations
  // (db/pipelined.ts): it is the whole answer unless they act for someone today, so the usual
  // call is one round trip, and a delegate's a second with their delegators' steps added.
  const [found, own] = await pipelined(context.db, [
    (on) =>
      canActAsDelegate(actor)
        ? findGrantsOf(on, { organizationId, delegateId: actor.id, today })
        : Promise.resolve([]),
    (on) => listPendingForRole(on, queue),
  ]);
  // Steps of the caller's own role are theirs in their own right.
  const grants = found.filter((grant) => grant.delegator_role !== actor.role);
  const { rows, total } =
    grants.length === 0
      ? own
      : await listPendingForRole(context.db, {
          ...queue,
          grants: grants.map((grant) => ({
            role: grant.delegator_role,
            delegatorId: grant.delegator_id,
          })),
        });
  return {
    data: rows.map((row) =>
      presentPendingItem(
        row,
        row.next_reviewer_role === actor.role
          ? null
          : delegatorFor({
              actor,
              stepRole: row.next_reviewer_role ?? '',
              ownerId: row.request_owner_id,
              grants,
              today,
            }),
      ),
    ),
    page: options.page,
    per_page: options.perPage,
    total,
  };
}

/** A spreadsheet of requests named after the user, streamed as it is written (spec §9). */
export async function downloadRequests(
  context: AppContext,
  options: { actor: Actor; mode: string; userId: string },
): Promise<SpreadsheetDownload> {
  const { actor } = options;
  const ownerId = ownerFilter(actor, options.mode, options.userId);
  const user = await userOfOrganization(context.db, actor, options.userId);
  return {
    fileName: `${user.fullname} requests.xlsx`,
    stream: requestsWorkbook(context.db, {
      organizationId: actor.organization_id,
      ownerId,
      timeZone: context.config.orgTimezone,
    }),
  };
}
