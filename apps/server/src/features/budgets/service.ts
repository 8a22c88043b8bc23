import {
  budgetDetailRequestLimit,
  budgetEditOf,
  type BalanceResponse,
  type BudgetCodesQuery,
  type BudgetCodesResponse,
  type BudgetDetailResponse,
  type BudgetListQuery,
  type BudgetListResponse,
  type BudgetResponse,
  type CreateBudgetRequest,
  type RemoveBudgetResponse,
  type UpdateBudgetRequest,
} from '@imprest/domain/api/budgets.ts';
import { budgetCode } from '@imprest/domain/budget-code.ts';
import {
  budgetChangeAction,
  type BudgetDepartment,
  frozenFieldsChanged,
  hasBalance,
  isAmountDecrease,
  visibleBudgetDepartments,
} from '@imprest/domain/budgets.ts';
import {
  type Branch,
  type BudgetCategory,
  type BudgetStatus,
  type Currency,
  type Department,
} from '@imprest/domain/enums.ts';
import { amountWithCurrency, toAmount } from '@imprest/domain/money.ts';
import { messages } from '@imprest/domain/messages.ts';
import type { AppContext } from '../../context.ts';
import type { SpreadsheetDownload } from '../../lib/attachment.ts';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import type { budgets } from '../../db/schema.ts';
import type { Actor } from '../../lib/authenticate.ts';
import { sqlState, sqlStateOf } from '../../lib/database-errors.ts';
import { assertIfMatch } from '../../lib/entity-tag.ts';
import { AppError } from '../../lib/errors.ts';
import { canListAllRequests } from '../requests/policy.ts';
import { requestsWorkbook } from '../requests/spreadsheet.ts';
import { availableOf, lockBudget, type BudgetRow } from './ledger.ts';
import { authorizeBudget } from './policy.ts';
import {
  budgetSnapshot,
  budgetVersion,
  presentBudget,
  presentBudgetChange,
  presentBudgetRequest,
  presentHistory,
} from './presenter.ts';
import {
  budgetChangelog,
  budgetHistory,
  budgetRequests,
  countBudgetRequests,
  hasEarlierRequestVersions,
  deleteBudgetRow,
  findBudgetById,
  findBudgetByCode,
  insertBudget,
  listActiveBudgets,
  listBudgets as listBudgetRows,
  recordBudgetChange,
  updateBudgetRow,
  type BudgetWithTotals,
} from './queries.ts';

type BudgetValues = Pick<
  typeof budgets.$inferInsert,
  'name' | 'description' | 'amount' | 'department' | 'currency' | 'category' | 'branch'
> & { code: string; cost_code: number };

/** Row values of a create or edit payload; the server computes the budget code (decisions §8). */
function budgetValues(input: CreateBudgetRequest): BudgetValues {
  const [category, branch] = input.meta_data;
  return {
    name: input.name,
    description: input.description || null,
    amount: input.amount.toFixed(2),
    department: input.department,
    currency: input.amount_currency,
    category,
    branch,
    code: budgetCode({ category, branch, costCode: input.code }),
    cost_code: input.code,
  };
}

/** A duplicate code answers 409; the unique index decides, so two racing creates cannot both win. */
function rethrowDuplicateCode(error: unknown, code: string): never {
  if (sqlStateOf(error) === sqlState.uniqueViolation) {
    throw new AppError('conflict', `A budget with code ${code} already exists.`);
  }
  throw error;
}

function noSuchBudget(): AppError {
  return new AppError('not_found', 'No such budget was found.');
}

/** A budget the actor may act on, by code; 404 when it is not there or not visible. */
async function visibleBudget(
  context: AppContext,
  options: { actor: Actor; code: string; action: 'read' | 'lookup' | 'download' },
): Promise<BudgetWithTotals> {
  const { actor, code, action } = options;
  // The role gate first: a refused user learns nothing about which codes exist.
  authorizeBudget(actor, action);
  const budget = await findBudgetByCode(context.db, {
    organizationId: actor.organization_id,
    code,
  });
  if (!budget) throw new AppError('not_found', `No budget with code ${code} was found.`);
  authorizeBudget(actor, action, budget);
  return budget;
}

/** Refuses a budget the actor may not read, as its detail page would (the audit history). */
export async function assertBudgetReadable(
  context: AppContext,
  options: { actor: Actor; id: string },
): Promise<void> {
  authorizeBudget(options.actor, 'read');
  const budget = await findBudgetById(context.db, {
    organizationId: options.actor.organization_id,
    id: options.id,
  });
  if (!budget) throw new AppError('not_found', 'No such budget was found.');
  authorizeBudget(options.actor, 'read', budget);
}

/** One page of the budgets the actor may see (spec §6 department rule, enforced here). */
export async function listBudgets(
  context: AppContext,
  options: { actor: Actor; query: BudgetListQuery },
): Promise<BudgetListResponse> {
  const { actor, query } = options;
  authorizeBudget(actor, 'read');
  const { rows, total } = await listBudgetRows(context.db, {
    organizationId: actor.organization_id,
    departments: visibleBudgetDepartments(actor.role, actor.department as Department),
    department: query.department,
    search: query.search || undefined,
    page: query.page,
    perPage: query.per_page,
  });
  return {
    budget_codes: rows.map(presentBudget),
    page: query.page,
    per_page: query.per_page,
    total,
  };
}

/** A budget with its newest requests, its changelog (newest first) and its monthly history. */
export async function getBudget(
  context: AppContext,
  options: { actor: Actor; code: string },
): Promise<BudgetDetailResponse> {
  const budget = await visibleBudget(context, { ...options, action: 'read' });
  const { db } = context;
  const presented = presentBudget(budget);
  // One connection, the four statements sent at once (db/pipelined.ts).
  const [requestRows, changes, history, hasPriorRequests] = await pipelined(db, [
    // A budget's list of requests holds only those the caller may read (decisions §8): staff
    // see their own; admins every request of the organisation (spec §6).
    (on) =>
      budgetRequests(on, {
        budgetId: budget.id,
        limit: budgetDetailRequestLimit,
        ownerId: canListAllRequests(options.actor) ? undefined : options.actor.id,
      }),
    (on) => budgetChangelog(on, budget.id),
    (on) => budgetHistory(on, { budgetId: budget.id, timezone: context.config.orgTimezone }),
    (on) => hasHadRequests(on, budget.id, presented.requests.total),
  ]);
  return {
    data: {
      ...presented,
      requests: { ...presented.requests, data: requestRows.map(presentBudgetRequest) },
      has_prior_requests: hasPriorRequests,
      changelog: changes.map(presentBudgetChange),
      history: presentHistory(history, changes, presented.amount),
    },
  };
}

/**
 * Active budget codes with their available amounts, for the request form (any user): all of them,
 * or the few matching what is typed (`search`, `limit`).
 */
export async function listBudgetCodes(
  context: AppContext,
  options: { actor: Actor; query: BudgetCodesQuery },
): Promise<BudgetCodesResponse> {
  authorizeBudget(options.actor, 'lookup');
  const rows = await listActiveBudgets(context.db, {
    organizationId: options.actor.organization_id,
    search: options.query.search || undefined,
    limit: options.query.limit,
  });
  return {
    budget_codes: rows.map((row) => {
      const available = availableOf(toAmount(row.amount), toAmount(row.committed));
      const status = row.current_status as BudgetStatus;
      return {
        code: row.code,
        name: row.name,
        currency: row.currency as Currency,
        has_balance: hasBalance({ available, status }),
        available,
      };
    }),
  };
}

/**
 * Whether a budget can fund an amount (spec §7). `total` is the committed amount (decisions §8:
 * Remaining Balance = amount − total), with the amount and the available amount beside it.
 */
export async function checkBudgetBalance(
  context: AppContext,
  options: { actor: Actor; code: string; amount: number | undefined },
): Promise<BalanceResponse> {
  const budget = presentBudget(await visibleBudget(context, { ...options, action: 'lookup' }));
  return {
    has_balance: hasBalance({
      available: budget.available,
      amount: options.amount,
      status: budget.current_status,
    }),
    currency: budget.currency,
    total: budget.committed,
    amount: budget.amount,
    available: budget.available,
  };
}

/** Creates a budget and its changelog row in one transaction; publishes budget_updated after. */
export async function createBudget(
  context: AppContext,
  options: { actor: Actor; input: CreateBudgetRequest },
): Promise<BudgetResponse> {
  const { actor } = options;
  authorizeBudget(actor, 'create');
  const values = budgetValues(options.input);
  const row = await context.db.transaction(async (tx) => {
    const inserted = await insertBudget(tx, {
      ...values,
      organization_id: actor.organization_id,
      created_by: actor.id,
    }).catch((error: unknown) => rethrowDuplicateCode(error, values.code));
    await recordBudgetChange(tx, {
      organizationId: actor.organization_id,
      budgetId: inserted.id,
      code: inserted.code,
      action: 'create',
      actor,
      before: null,
      after: budgetSnapshot(inserted),
    });
    return inserted;
  });
  context.events.publish(actor.organization_id, 'budget_updated', { code: row.code });
  return presentBudget({ ...row, request_total: 0 });
}

/** The frozen terms of a budget row, in the names of the domain rule. */
function termsOf(row: Pick<BudgetRow, 'currency' | 'category' | 'branch' | 'cost_code'>) {
  return {
    currency: row.currency as Currency,
    category: row.category as BudgetCategory,
    branch: row.branch as Branch,
    costCode: row.cost_code,
  };
}

/** The values an update asks for: a new status, or the edited fields (and maybe a status). */
function updateValues(
  before: BudgetRow,
  input: UpdateBudgetRequest,
): Partial<BudgetValues> & Pick<BudgetRow, 'current_status'> {
  const edit = budgetEditOf(input);
  const current_status = input.current_status ?? before.current_status;
  if (!edit) return { current_status };
  const values = budgetValues({
    ...edit,
    // Left out of an edit, department and description keep their value.
    department: edit.department ?? (before.department as BudgetDepartment),
    description: edit.description === undefined ? before.description : edit.description,
  });
  return { ...values, current_status };
}

/**
 * Whether the budget has had requests (spec §4's "prior requests"): a newest version counted on it,
 * or an earlier version that a resubmission on another budget left here.
 */
async function hasHadRequests(
  tx: Executor,
  budgetId: string,
  requestTotal: number,
): Promise<boolean> {
  return requestTotal > 0 || (await hasEarlierRequestVersions(tx, budgetId));
}

/** Refuses an edit that spec §4 forbids: frozen terms on a used budget, or a lower amount. */
async function assertEditAllowed(
  tx: Executor,
  change: { before: BudgetRow; after: BudgetRow; requestTotal: number },
): Promise<void> {
  const { before, after } = change;
  const frozen = frozenFieldsChanged(termsOf(before), termsOf(after));
  if (frozen.length > 0 && (await hasHadRequests(tx, before.id, change.requestTotal))) {
    throw new AppError('bad_request', messages.priorRequestsBlockChange, {
      details: frozen.map((field) => ({ path: field, message: 'is frozen once requests exist' })),
    });
  }
  if (isAmountDecrease(toAmount(before.amount), toAmount(after.amount))) {
    const now = amountWithCurrency(toAmount(before.amount), before.currency);
    throw new AppError(
      'bad_request',
      `The amount of a budget can only be increased; it is ${now} now.`,
      {
        details: [{ path: 'amount', message: 'may not be lower than the current amount' }],
      },
    );
  }
}

/**
 * Edits, archives or re-activates a budget (spec §4): amounts only grow; currency, category,
 * branch and code are frozen once requests exist. Runs under the budget's row lock, so a request
 * submitted meanwhile cannot slip past the frozen-terms check, and writes the changelog row in the
 * same transaction. An update that changes nothing writes nothing and publishes nothing.
 */
export async function updateBudget(
  context: AppContext,
  options: {
    actor: Actor;
    input: UpdateBudgetRequest;
    /** The `If-Match` header: the version of the budget the edit was made on (decision 0036). */
    ifMatch?: string | undefined;
  },
): Promise<BudgetResponse> {
  const { actor, input } = options;
  authorizeBudget(actor, 'update');
  const result = await context.db.transaction(async (tx) => {
    const before = await lockBudget(tx, {
      organizationId: actor.organization_id,
      budgetId: input.id,
    });
    if (!before) throw noSuchBudget();
    authorizeBudget(actor, 'update', before);
    assertIfMatch(
      options.ifMatch,
      budgetVersion(budgetSnapshot(before)),
      `The budget ${before.code} was changed by someone else after you opened it. Check it and save again.`,
    );
    const requestTotal = await countBudgetRequests(tx, before.id);
    const values = updateValues(before, input);
    const candidate = { ...before, ...values };
    const action = budgetChangeAction(budgetSnapshot(before), budgetSnapshot(candidate));
    let row = before;
    if (action) {
      await assertEditAllowed(tx, { before, after: candidate, requestTotal });
      row = await updateBudgetRow(tx, before.id, values).catch((error: unknown) =>
        rethrowDuplicateCode(error, candidate.code),
      );
      await recordBudgetChange(tx, {
        organizationId: actor.organization_id,
        budgetId: row.id,
        code: row.code,
        action,
        actor,
        before: budgetSnapshot(before),
        after: budgetSnapshot(row),
      });
    }
    // Both codes change when the code itself does, so screens showing the old one refresh too.
    const changedCodes = action ? [...new Set([before.code, row.code])] : [];
    return {
      budget: presentBudget({ ...row, request_total: requestTotal }),
      changedCodes,
    };
  });
  for (const code of result.changedCodes) {
    context.events.publish(actor.organization_id, 'budget_updated', { code });
  }
  return result.budget;
}

/** Deletes a budget that has no requests (spec §4); its changelog keeps a delete row. */
export async function removeBudget(
  context: AppContext,
  options: { actor: Actor; id: string },
): Promise<RemoveBudgetResponse> {
  const { actor } = options;
  authorizeBudget(actor, 'delete');
  const code = await context.db.transaction(async (tx) => {
    const budget = await lockBudget(tx, {
      organizationId: actor.organization_id,
      budgetId: options.id,
    });
    if (!budget) throw noSuchBudget();
    authorizeBudget(actor, 'delete', budget);
    const inUse = new AppError(
      'conflict',
      `The budget ${budget.code} has requests, so it can't be deleted. Archive it instead.`,
    );
    if (await hasHadRequests(tx, budget.id, await countBudgetRequests(tx, budget.id))) throw inUse;
    await recordBudgetChange(tx, {
      organizationId: actor.organization_id,
      budgetId: budget.id,
      code: budget.code,
      action: 'delete',
      actor,
      before: budgetSnapshot(budget),
      after: null,
    });
    // An older version of some request may still point here; the foreign key then refuses.
    await deleteBudgetRow(tx, budget.id).catch((error: unknown) => {
      throw sqlStateOf(error) === sqlState.foreignKeyViolation ? inUse : error;
    });
    return budget.code;
  });
  context.events.publish(actor.organization_id, 'budget_updated', { code });
  return { id: options.id, code };
}

/** Rows read per query while writing a download: bounded memory for any number of requests. */
export const downloadBatchSize = 1000;

/**
 * The requests of a budget as an xlsx file (finance only). Checks access before the first byte,
 * then streams the workbook as it is written; a failure midway ends the stream with an error.
 */
export async function downloadBudgetRequests(
  context: AppContext,
  options: { actor: Actor; code: string },
): Promise<SpreadsheetDownload> {
  const budget = await visibleBudget(context, { ...options, action: 'download' });
  // The columns of the requests download (features/requests/spreadsheet.ts), for one budget.
  const stream = requestsWorkbook(context.db, {
    organizationId: budget.organization_id,
    budgetId: budget.id,
    timeZone: context.config.orgTimezone,
    sheetName: `Budget ${budget.code}`,
    batchSize: downloadBatchSize,
  });
  return { fileName: `${budget.code}-requests.xlsx`, stream };
}
