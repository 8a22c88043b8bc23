/**
 * One request's records and writes (submit, resubmit, answer a step, the approval number), the
 * owner's unretired total, and the downloads' batches. The lists are in list-queries.ts, the review
 * queue in pending-queries.ts.
 */
import type { ApprovalMatrixRow } from '@imprest/domain/approval-matrix.ts';
import type { ExchangeRates } from '@imprest/domain/exchange-rates.ts';
import {
  and,
  desc,
  eq,
  getTableColumns,
  lt,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias, type AnyPgColumn, type PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { equalsConstant } from '../../db/constants.ts';
import { DrawnValue } from '../../db/drawn.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import { preparedOnce } from '../../db/prepared.ts';
import {
  approvalMatrixRows,
  budgets,
  exchangeRates,
  requests,
  retirements,
} from '../../db/schema.ts';
import { jsonObjectOf, rowFromJson, type JsonRow } from '../../db/json-rows.ts';
import { approvalMatrixFrom } from '../approval-matrix/queries.ts';
import { budgetWithRoomColumns, type BudgetRow, type BudgetWithRoom } from '../budgets/ledger.ts';
import { exchangeRatesFrom } from '../settings/queries.ts';

export type RequestRow = typeof requests.$inferSelect;
export type RequestRecord = RequestRow & { budget_name: string };
export type NewRequest = typeof requests.$inferInsert;

export const recordColumns = { ...getTableColumns(requests), budget_name: budgets.name };

/**
 * Newest first, in the order of requests_org_latest_idx and requests_owner_latest_idx: they are
 * built `created_at DESC NULLS LAST`, and a plain `DESC` (NULLS FIRST) would not match them, so
 * PostgreSQL would sort every row of the organisation instead of reading the first page off the index.
 */
export const newestFirst = [sql`${requests.created_at} desc nulls last`, desc(requests.id)];

/** A budget of an organisation by its code string, e.g. "6105". */
export async function findBudgetByCode(
  db: Executor,
  options: { organizationId: string; code: string },
): Promise<BudgetRow | undefined> {
  const [row] = await db
    .select()
    .from(budgets)
    .where(
      and(eq(budgets.organization_id, options.organizationId), eq(budgets.code, options.code)),
    );
  return row;
}

/** What a submission is checked and placed by, read before the budget is locked. */
export type SubmissionTerms = {
  /** The budget by its code, and whether it covers the amount as of this read. */
  budget: BudgetWithRoom;
  rates: ExchangeRates;
  matrix: ApprovalMatrixRow[];
};

const rateColumns = { currency: exchangeRates.currency, rate: exchangeRates.rate };
const matrixColumns = {
  start_value: approvalMatrixRows.start_value,
  end_value: approvalMatrixRows.end_value,
  description: approvalMatrixRows.description,
  user_role: approvalMatrixRows.user_role,
  cascading_notification: approvalMatrixRows.cascading_notification,
};

/**
 * The statement of findSubmissionTerms, prepared under a name (issue 13): the budget by code with
 * the organisation's exchange rates and approval matrix as JSON in the same row, one round trip
 * where there were three in every submission. Neither the rates nor the matrix is locked, so
 * reading them with the budget, before its lock, decides the same as reading them after it.
 */
const submissionTermsQuery = preparedOnce((db: Executor) =>
  db
    .select({
      ...budgetWithRoomColumns,
      ratesJson: sql<JsonRow[]>`(${db
        .select({ rows: sql`coalesce(json_agg(${jsonObjectOf(rateColumns)}), '[]'::json)` })
        .from(exchangeRates)
        .where(eq(exchangeRates.organization_id, budgets.organization_id))})`,
      matrixJson: sql<JsonRow[]>`(${db
        .select({
          rows: sql`coalesce(json_agg(${jsonObjectOf(matrixColumns)} ORDER BY ${approvalMatrixRows.start_value}), '[]'::json)`,
        })
        .from(approvalMatrixRows)
        .where(eq(approvalMatrixRows.organization_id, budgets.organization_id))})`,
    })
    .from(budgets)
    .where(
      and(
        eq(budgets.organization_id, sql.placeholder('organizationId')),
        eq(budgets.code, sql.placeholder('code')),
      ),
    )
    .prepare('submission_terms'),
);

/**
 * A budget of an organisation by its code, whether it covers `amount` (decided in SQL numeric,
 * docs/decisions/0013), and the organisation's exchange rates and approval matrix; undefined when
 * the organisation has no such budget.
 */
export async function findSubmissionTerms(
  db: Executor,
  options: { organizationId: string; code: string; amount: number },
): Promise<SubmissionTerms | undefined> {
  const [row] = await submissionTermsQuery(db).execute({
    ...options,
    amount: options.amount.toFixed(2),
  });
  if (!row) return undefined;
  const { ratesJson, matrixJson, ...budget } = row;
  return {
    budget,
    rates: exchangeRatesFrom(
      ratesJson.map((json) => rowFromJson<{ currency: string; rate: string }>(rateColumns, json)),
    ),
    matrix: approvalMatrixFrom(
      matrixJson.map((json) =>
        rowFromJson<Parameters<typeof approvalMatrixFrom>[0][number]>(matrixColumns, json),
      ),
    ),
  };
}

/**
 * Locks a request row of an organisation for the rest of the transaction: reviews and
 * resubmissions of one request are serialised on it.
 */
export async function lockRequest(
  tx: Executor,
  options: { organizationId: string; id: string },
): Promise<RequestRow | undefined> {
  const [row] = await lockRequestQuery(tx).execute(options);
  return row;
}

/**
 * The statements of lockRequest and updateRequestStatus, prepared under names (issue 13): every
 * answer to a review sends both, and PostgreSQL planned each afresh on every call (decision 0026).
 */
const lockRequestQuery = preparedOnce((db: Executor) =>
  db
    .select()
    .from(requests)
    .where(
      and(
        eq(requests.id, sql.placeholder('id')),
        eq(requests.organization_id, sql.placeholder('organizationId')),
      ),
    )
    .for('update')
    .prepare('lock_request'),
);

const insertRequestRow = preparedInsert<NewRequest>(requests, 'insert_request');

/** Writes a new request row; its callers know every value, so nothing is read back. */
export async function insertRequest(db: Executor, values: NewRequest): Promise<void> {
  await insertRequestRow(db, [values]);
}

/** Marks a version as superseded, so it no longer counts in lists and budgets. */
export async function markSuperseded(db: Executor, id: string): Promise<void> {
  await db
    .update(requests)
    .set({ is_latest: false, modified_at: sql`now()` })
    .where(eq(requests.id, id));
}

/**
 * Sets a request's status and next reviewer role (and approval number once approved), and adds
 * who answered to answered_by.
 */
export async function updateRequestStatus(
  db: Executor,
  options: {
    id: string;
    status: string;
    nextReviewerRole: string | null;
    /** The number issued now, one drawn earlier in the transaction, or none (the row's stays). */
    approvalNumber: string | DrawnValue | null;
    /** Who answered the steps that moved it: added to answered_by (migration 0017). */
    answeredBy: readonly string[];
  },
): Promise<void> {
  const { approvalNumber } = options;
  const drawn = approvalNumber instanceof DrawnValue;
  await (drawn ? drawnStatusUpdate(approvalNumber) : statusUpdate)(db).execute({
    id: options.id,
    status: options.status,
    nextReviewerRole: options.nextReviewerRole,
    answeredBy: options.answeredBy,
    ...(drawn ? {} : { approvalNumber }),
  });
}

/** The UPDATE of a request's status, whose approval number is `approvalNumber`, prepared as `name`. */
const statusUpdateWith = (approvalNumber: SQL, name: string) =>
  preparedOnce((db: Executor) =>
    db
      .update(requests)
      .set({
        current_status: sql`${sql.placeholder('status')}`,
        next_reviewer_role: sql`${sql.placeholder('nextReviewerRole')}`,
        answered_by: sql`${requests.answered_by} || ${sql.placeholder('answeredBy')}::uuid[]`,
        approval_number: approvalNumber,
        modified_at: sql`now()`,
      })
      .where(eq(requests.id, sql.placeholder('id')))
      .prepare(name),
  );

// An approval number, once drawn, stays.
const statusUpdate = statusUpdateWith(
  sql`coalesce(${sql.placeholder('approvalNumber')}, ${requests.approval_number})`,
  'request_status',
);

/** The status UPDATE that writes the number drawn earlier in its transaction (one drawn value). */
const drawnStatusUpdates = new Map<DrawnValue, ReturnType<typeof statusUpdateWith>>();
function drawnStatusUpdate(number: DrawnValue): ReturnType<typeof statusUpdateWith> {
  let update = drawnStatusUpdates.get(number);
  if (!update) {
    update = statusUpdateWith(number.value, `request_status_drawn_${drawnStatusUpdates.size}`);
    drawnStatusUpdates.set(number, update);
  }
  return update;
}

/** The owner's requests, as a subquery of one request's view reads them. */
const owned = alias(requests, 'owned');

/**
 * The owner's approved newest versions whose retirement is not approved yet (none attached, or one
 * still pending, under review or rejected), summed in tzs: a scalar subquery correlated with the
 * enclosing request's owner columns (the request view, requests/view.ts). A retirement's owner is
 * its request's, so the owner's approved retirements are read once (retirements_owner_approved_idx,
 * migration 0027) and their requests left out by a hash, instead of a probe for each approved
 * request (`request_id` is never null, so NOT IN means NOT EXISTS here).
 */
export function ownerUnretiredTotalQuery(
  db: Executor,
  owner: { organizationId: AnyPgColumn; ownerId: AnyPgColumn },
) {
  return db
    .select({ total: sql<string>`coalesce(sum(${owned.amount_base}), 0)` })
    .from(owned)
    .where(
      and(
        eq(owned.request_owner_id, owner.ownerId),
        eq(owned.organization_id, owner.organizationId),
        // Constants in the text, so the request view's named statement is planned once
        // (db/constants.ts).
        sql`${owned.is_latest}`,
        equalsConstant(owned.current_status, 'approved'),
        notInArray(
          owned.id,
          db
            .select({ id: retirements.request_id })
            .from(retirements)
            .where(
              and(
                eq(retirements.retirement_owner_id, owner.ownerId),
                eq(retirements.organization_id, owner.organizationId),
                equalsConstant(retirements.status, 'approved'),
              ),
            ),
        ),
      ),
    );
}

/**
 * Rows after a keyset position in newest-first order (created_at, then id, both descending): the
 * next batch of a download. The position is created_at as PostgreSQL prints it, to the
 * microsecond: a Date keeps only milliseconds, and rows of the boundary row's millisecond that
 * are older than it would be skipped. `created_at <= position` comes first, on its own, so the
 * created_at index starts the scan at the position: written as `created_at < position or
 * (created_at = position and id < …)` alone, every batch read the rows of all the batches
 * before it again (bench:download, 100,000 rows: 10–12 s, now 3 s).
 */
export function olderThan(
  table: { created_at: PgColumn; id: PgColumn },
  after: { position: string; id: string },
): SQL {
  const position = sql`${after.position}::timestamptz`;
  return and(
    lte(table.created_at, position),
    or(lt(table.created_at, position), lt(table.id, after.id)),
  ) as SQL;
}

/** A row's created_at to the microsecond, to continue a download's batches from (olderThan). */
export function keysetPosition(table: { created_at: PgColumn }) {
  return sql<string>`${table.created_at}::text`;
}

/** Which rows a download's next batch reads: an organisation's, or one owner's, after a keyset position. */
export type BatchOptions = {
  organizationId: string;
  ownerId?: string;
  /** Only the requests on this budget (a budget's download). */
  budgetId?: string;
  after?: { position: string; id: string };
  limit: number;
};

/**
 * The columns of the requests spreadsheet and its keyset, and no others: a download reads every
 * newest version of an organisation, and each column more is a value parsed and mapped per row
 * (issue 13: reading every column made a 100,000-row download allocate about 460 MB).
 */
const sheetColumns = {
  id: requests.id,
  position: keysetPosition(requests),
  request_owner_name: requests.request_owner_name,
  department: requests.department,
  purpose: requests.purpose,
  name_of_establishment: requests.name_of_establishment,
  expenditure_date: requests.expenditure_date,
  amount_requested: requests.amount_requested,
  amount_currency: requests.amount_currency,
  amount_base: requests.amount_base,
  budget_code: requests.budget_code,
  payment_mode: requests.payment_mode,
  current_status: requests.current_status,
  approval_number: requests.approval_number,
  expenditure_justification: requests.expenditure_justification,
  created_at: requests.created_at,
};
export type RequestSheetRow = Awaited<ReturnType<typeof requestBatch>>[number];

/** The next batch of newest versions for a download, newest first, after a keyset position. */
export async function requestBatch(db: Executor, options: BatchOptions) {
  const conditions: SQL[] = [
    eq(requests.organization_id, options.organizationId),
    eq(requests.is_latest, true),
  ];
  if (options.ownerId) conditions.push(eq(requests.request_owner_id, options.ownerId));
  if (options.budgetId) conditions.push(eq(requests.budget_id, options.budgetId));
  if (options.after) conditions.push(olderThan(requests, options.after));
  return db
    .select(sheetColumns)
    .from(requests)
    .where(and(...conditions))
    .orderBy(...newestFirst)
    .limit(options.limit);
}
