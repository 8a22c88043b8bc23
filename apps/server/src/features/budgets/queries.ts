import { changesBetween, type AuditAction } from '@imprest/domain/audit.ts';
import { recordAudit } from '../audit/record.ts';
import { couldStartBudgetCode } from '@imprest/domain/budget-code.ts';
import { isVisibleDepartment, type BudgetChangeAction } from '@imprest/domain/budgets.ts';
import type { BudgetSnapshot } from '@imprest/domain/api/budgets.ts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  not,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { pipelined } from '../../db/pipelined.ts';
import { inConstants } from '../../db/constants.ts';
import {
  firstPageKeptCountsColumn,
  keptCountsOf,
  pageWithKeptCounts,
  readKeptCounts,
  totalOf,
  type StatusCounts,
} from '../../db/kept-counts.ts';
import { prepareNamed } from '../../db/named.ts';
import { isFirstPage, preparedPages, type PageWindow } from '../../db/first-page.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { containsPattern, startsWithPattern } from '../../db/like.ts';
import {
  budgetChanges,
  budgetDepartmentCounts,
  budgets,
  requests,
  retirements,
} from '../../db/schema.ts';
import { committingStatuses, type BudgetRow } from './ledger.ts';

/** A budget with its committed amount (NUMERIC text) and its number of requests. */
export type BudgetWithTotals = BudgetRow & { committed: string; request_total: number };
export type BudgetChangeRow = typeof budgetChanges.$inferSelect;

/**
 * Requests counted on a budget: the newest version of each (older versions are history), on
 * requests_budget_created_idx alone. Built with the query builder so the outer column stays
 * qualified; `is_latest` in the text, as the index's predicate, not sent as a parameter
 * (db/constants.ts): the named budget_by_code reads it.
 */
function requestCountQuery(db: Executor, budgetId: string | AnyPgColumn) {
  return db
    .select({ total: count() })
    .from(requests)
    .where(and(eq(requests.budget_id, budgetId), sql`${requests.is_latest}`));
}

function withTotals(db: Executor) {
  return {
    ...getTableColumns(budgets),
    committed: budgets.committed,
    request_total: sql<number>`(${requestCountQuery(db, budgets.id)})`.mapWith(Number),
  };
}

/** A budget of an organisation by its code, with totals. */
export async function findBudgetByCode(
  db: Executor,
  options: { organizationId: string; code: string },
): Promise<BudgetWithTotals | undefined> {
  const [row] = await budgetByCodeQuery(db).execute(options);
  return row;
}

/**
 * The statement of findBudgetByCode, built once and prepared under a name (issue 13): every budget
 * detail, balance check (the request form's) and download reads it. One row by the unique
 * (organisation, code).
 */
const budgetByCodeQuery = preparedOnce((db: Executor) =>
  db
    .select(withTotals(db))
    .from(budgets)
    .where(
      and(
        eq(budgets.organization_id, sql.placeholder('organizationId')),
        eq(budgets.code, sql.placeholder('code')),
      ),
    )
    .prepare('budget_by_code'),
);

/** A budget of an organisation by id, without totals. */
export async function findBudgetById(
  db: Executor,
  options: { organizationId: string; id: string },
): Promise<BudgetRow | undefined> {
  const [row] = await db
    .select()
    .from(budgets)
    .where(and(eq(budgets.organization_id, options.organizationId), eq(budgets.id, options.id)));
  return row;
}

/** Number of requests on a budget (see requestCountQuery). */
export async function countBudgetRequests(db: Executor, budgetId: string): Promise<number> {
  const [row] = await requestCountQuery(db, budgetId);
  return row?.total ?? 0;
}

/**
 * Whether an earlier version of some request is on the budget: a request returned for edits and
 * resubmitted on another budget leaves its first version here, in the request's history. Such a
 * budget has had requests (spec §4: its terms are frozen, and it cannot be deleted) although none
 * is counted on it. Reads requests_budget_history_idx.
 */
export async function hasEarlierRequestVersions(db: Executor, budgetId: string): Promise<boolean> {
  const rows = await db
    .select({ id: requests.id })
    .from(requests)
    .where(and(eq(requests.budget_id, budgetId), sql`NOT ${requests.is_latest}`))
    .limit(1);
  return rows.length > 0;
}

type BudgetListFilter = {
  organizationId: string;
  departments: string[] | null;
  department: string | undefined;
  search: string | undefined;
  page: number;
  perPage: number;
};

/**
 * A page of budget ids ordered by code, and the budgets of that page with their totals (and
 * `extra` columns).
 */
function budgetPage<Extra extends Record<string, SQL>>(
  db: Executor,
  where: SQL | undefined,
  window: PageWindow,
  extra?: Extra,
) {
  const page = db
    .select({ id: budgets.id })
    .from(budgets)
    .where(where)
    .orderBy(asc(budgets.code))
    .limit(window.limit)
    .offset(window.offset)
    .as('page');
  return db
    .select({ ...withTotals(db), ...(extra as Extra) })
    .from(budgets)
    .innerJoin(page, eq(page.id, budgets.id))
    .orderBy(asc(budgets.code));
}

/**
 * The budget list without a search or a department chosen, built once per shape (issue 13):
 * every department (finance, the directors) or the caller's own and 'all' (staff). A first page
 * is named with its size in its text, so PostgreSQL plans it once per connection: its plan is the
 * walk of budgets_organization_code_key whatever the organisation (db/first-page.ts). A later
 * page is unnamed ('' is PostgreSQL's unnamed statement), planned for its organisation's size
 * each call.
 */
function prepareBudgetList(byDepartments: boolean) {
  const where = and(
    eq(budgets.organization_id, sql.placeholder('organizationId')),
    byDepartments
      ? sql`${budgets.department} = ANY(${sql.placeholder('departments')}::text[])`
      : undefined,
  );
  return preparedPages(
    `organization_budgets_page${byDepartments ? '_by_departments' : ''}`,
    (db, window, name) =>
      budgetPage(db, where, window, {
        // A first page carries the organisation's kept counts (docs/decisions/0045).
        kept_counts: firstPageKeptCountsColumn(
          departmentCounts,
          sql.placeholder('organizationId'),
          window,
        ),
      }).prepare(name),
    { laterPagesUnnamed: true },
  );
}

/** [every department, some departments]. */
const budgetListQueries = [prepareBudgetList(false), prepareBudgetList(true)] as const;

/**
 * How many budgets each department of an organisation has, as the triggers of migration 0022 keep
 * them (db/kept-counts.ts): the budget list's total without a search.
 */
const departmentCounts = keptCountsOf({
  table: budgetDepartmentCounts,
  key: budgetDepartmentCounts.organization_id,
  status: budgetDepartmentCounts.department,
  count: budgetDepartmentCounts.budgets,
  name: 'organization_budget_counts',
});

/** How many budgets of an organisation are in `departments` (null: in any), from the kept counts. */
async function countBudgetsIn(
  db: Executor,
  organizationId: string,
  departments: readonly string[] | null,
): Promise<number> {
  return budgetsIn(await readKeptCounts(db, departmentCounts, organizationId), departments);
}

/** How many of the kept counts' budgets are in `departments` (null: in any). */
function budgetsIn(counts: StatusCounts, departments: readonly string[] | null): number {
  if (departments === null) return totalOf(counts, 'all');
  return [...new Set(departments)].reduce((sum, department) => sum + (counts[department] ?? 0), 0);
}

/**
 * One page of an organisation's budgets ordered by code, with the total count: counted for a
 * search, otherwise read from the kept counts (migration 0022), which a first page carries
 * (decision 0045). `departments` null means every department (spec §6). The page is chosen first
 * and the totals are computed for its rows only, so a deep page never aggregates the rows it skips.
 */
export async function listBudgets(
  db: Executor,
  options: BudgetListFilter,
): Promise<{ rows: BudgetWithTotals[]; total: number }> {
  const offset = (options.page - 1) * options.perPage;
  if (!options.department && !options.search) {
    const values = {
      organizationId: options.organizationId,
      departments: options.departments,
      limit: options.perPage,
      offset,
    };
    const { rows, counts } = await pageWithKeptCounts(
      db,
      departmentCounts,
      options.organizationId,
      {
        carriesCounts: isFirstPage(options),
        rows: () => budgetListQueries[options.departments ? 1 : 0](db, options).execute(values),
      },
    );
    return { rows, total: budgetsIn(counts, options.departments) };
  }
  const where = and(
    eq(budgets.organization_id, options.organizationId),
    options.departments ? inArray(budgets.department, options.departments) : undefined,
    options.department ? eq(budgets.department, options.department) : undefined,
    // Same expression as budgets_search_idx (trigram), so the index answers it.
    options.search ? sql`${budgetSearchText} LIKE ${containsPattern(options.search)}` : undefined,
  );
  const { department, departments } = options;
  // Without a search, one department is chosen: its kept count, or none if the caller cannot see it.
  const visible = department && isVisibleDepartment(departments, department);
  const [rows, total] = await pipelined(db, [
    (on) => budgetPage(on, where, { limit: options.perPage, offset }),
    (on) =>
      options.search
        ? on.$count(budgets, where)
        : countBudgetsIn(on, options.organizationId, visible ? [department] : []),
  ]);
  return { rows, total };
}

/** The searchable text of a budget: the expression of budgets_search_idx (trigram). */
const budgetSearchText = sql`lower(${budgets.name} || ' ' || ${budgets.code})`;

const budgetCodeColumns = {
  code: budgets.code,
  name: budgets.name,
  currency: budgets.currency,
  amount: budgets.amount,
  current_status: budgets.current_status,
  committed: budgets.committed,
};

/**
 * The request form's look-up of active codes, built once per shape (issue 13): all of them, those
 * starting with what is typed, and those whose name or code contains it but does not start with
 * it. Unnamed ('' is PostgreSQL's unnamed statement): a LIKE pattern must be seen to be planned on
 * budgets_active_code_prefix_idx or the trigram index. A null limit is no limit (LIMIT NULL).
 */
function prepareActiveCodes(condition: SQL | undefined) {
  return preparedOnce((db: Executor) =>
    db
      .select(budgetCodeColumns)
      .from(budgets)
      .where(
        and(
          eq(budgets.organization_id, sql.placeholder('organizationId')),
          eq(budgets.current_status, 'active'),
          condition,
        ),
      )
      .orderBy(asc(budgets.code))
      .limit(sql.placeholder('limit'))
      .prepare(''),
  );
}

const startsWithTyped = sql`${budgets.code} LIKE ${sql.placeholder('startsWith')}`;
const activeCodesQueries = {
  all: prepareActiveCodes(undefined),
  startingWith: prepareActiveCodes(startsWithTyped),
  containing: prepareActiveCodes(
    and(sql`${budgetSearchText} LIKE ${sql.placeholder('contains')}`, not(startsWithTyped)),
  ),
};

/**
 * Active budgets of an organisation with their committed amounts, ordered by code: all of them, or
 * those whose code or name contains `search`, at most `limit`. Codes starting with what is typed
 * come first, read on budgets_active_code_prefix_idx; the names containing it follow only when
 * those do not fill the answer.
 */
export async function listActiveBudgets(
  db: Executor,
  options: { organizationId: string; search?: string | undefined; limit?: number | undefined },
) {
  const { search, limit } = options;
  const values = { organizationId: options.organizationId, limit: limit ?? null };
  if (!search) return activeCodesQueries.all(db).execute(values);
  const patterns = { startsWith: startsWithPattern(search), contains: containsPattern(search) };
  const first = couldStartBudgetCode(search)
    ? await activeCodesQueries.startingWith(db).execute({ ...values, ...patterns })
    : [];
  if (limit !== undefined && first.length >= limit) return first;
  const rest = await activeCodesQueries.containing(db).execute({
    ...values,
    ...patterns,
    limit: limit === undefined ? null : limit - first.length,
  });
  return [...first, ...rest];
}

/** What a budget's page lists of each request (its download is the requests download's). */
const budgetRequestColumns = {
  id: requests.id,
  request_owner_name: requests.request_owner_name,
  purpose: requests.purpose,
  expenditure_date: requests.expenditure_date,
  amount_requested: requests.amount_requested,
  amount_currency: requests.amount_currency,
  current_status: requests.current_status,
  approval_number: requests.approval_number,
};

type BudgetRequestsOptions = {
  budgetId: string;
  limit: number;
  /** Only this owner's requests: a caller who may not read everyone's (decisions §8, §9). */
  ownerId?: string;
};

function selectBudgetRequests(db: Executor, where: SQL | undefined, limit: number | Placeholder) {
  return db
    .select(budgetRequestColumns)
    .from(requests)
    .where(where)
    .orderBy(desc(requests.created_at), desc(requests.id))
    .limit(limit);
}

/**
 * A budget detail's newest requests, everyone's or one owner's, built once per shape (issue 13).
 * Everyone's is prepared under a name: requests_budget_created_idx gives them in order, so one plan
 * serves a budget of a few requests and one of hundreds of thousands alike. One owner's is
 * unnamed, so each call is planned for its budget and owner: the budget's index or the owner's,
 * whichever holds fewer to pass over.
 */
function prepareBudgetRequests(byOwner: boolean) {
  return preparedOnce((db: Executor) =>
    selectBudgetRequests(
      db,
      and(
        eq(requests.budget_id, sql.placeholder('budgetId')),
        // In the text, as the index's predicate, not sent as a parameter (db/constants.ts).
        sql`${requests.is_latest}`,
        byOwner ? eq(requests.request_owner_id, sql.placeholder('ownerId')) : undefined,
      ),
      sql.placeholder('limit'),
    ).prepare(byOwner ? '' : 'budget_requests'),
  );
}

/** [everyone's, one owner's]. */
const budgetRequestsQueries = [prepareBudgetRequests(false), prepareBudgetRequests(true)] as const;

/** A budget's newest requests, newest first (the newest version of each). */
export async function budgetRequests(db: Executor, options: BudgetRequestsOptions) {
  return budgetRequestsQueries[options.ownerId ? 1 : 0](db).execute(options);
}

export type BudgetRequestRow = Awaited<ReturnType<typeof budgetRequests>>[number];

/** A budget's changelog, newest first. */
export async function budgetChangelog(db: Executor, budgetId: string): Promise<BudgetChangeRow[]> {
  return budgetChangelogQuery(db).execute({ budgetId });
}

/** The statement of budgetChangelog, built once and prepared under a name (issue 13). */
const budgetChangelogQuery = preparedOnce((db: Executor) =>
  db
    .select()
    .from(budgetChanges)
    .where(eq(budgetChanges.budget_id, sql.placeholder('budgetId')))
    .orderBy(desc(budgetChanges.created_at), desc(budgetChanges.id))
    .prepare('budget_changelog'),
);

/**
 * One month of a budget's history: its first day's month (`YYYY-MM`), when it ends (epoch
 * milliseconds, the next month's first instant in the organisation's time zone) and the running
 * totals up to its end (NUMERIC text).
 */
export type BudgetHistoryRow = { month: string; ends_at: number; committed: string; spent: string };

/**
 * The statement of budgetHistory, built once per pool and prepared under a name: it is raw SQL,
 * which Drizzle would send unnamed, so PostgreSQL planned it on every call (0.33 ms to plan, 0.5 ms
 * to run, bench/results.md). Its text holds constants only; the budget and the time zone are its
 * placeholders (decision 0026).
 */
const budgetHistoryQuery = preparedOnce((db: Executor) => {
  const budgetId = sql.placeholder('budgetId');
  const timezone = sql.placeholder('timezone');
  const requestMonth = sql`date_trunc('month', ${requests.created_at} AT TIME ZONE ${timezone})`;
  const statement = sql`
    WITH months AS (
      SELECT generate_series(
               date_trunc('month', ${budgets.created_at} AT TIME ZONE ${timezone}),
               date_trunc('month', now() AT TIME ZONE ${timezone}),
               interval '1 month'
             ) AS start
      FROM ${budgets}
      WHERE ${budgets.id} = ${budgetId}
    ),
    spending AS (
      -- Decisions §3: an approved retirement's spent amount stands in for its request's amount.
      -- A request dated before the budget's first month (an import, the demo's back-dated rows) or
      -- after this one (a clock ahead) counts in the nearest month shown, so the last month's
      -- committed amount is the budget's own, as the balance panel beside the chart shows it.
      -- Both sides are index-only scans by budget, joined by a hash (requests_budget_created_idx
      -- and retirements_budget_approved_idx, migrations 0028 and 0029).
      SELECT least(greatest(${requestMonth}, (SELECT min(start) FROM months)),
                   (SELECT max(start) FROM months)) AS start,
             sum(coalesce(retired.amount_spent, ${requests.amount_requested})) FILTER (WHERE ${inConstants(requests.current_status, committingStatuses)}) AS committed,
             sum(coalesce(retired.amount_spent, ${requests.amount_requested})) FILTER (WHERE ${requests.current_status} = 'approved') AS spent
      FROM ${requests}
      LEFT JOIN (
        SELECT ${retirements.request_id} AS request_id, ${retirements.amount_spent} AS amount_spent
        FROM ${retirements}
        WHERE ${retirements.budget_id} = ${budgetId} AND ${retirements.status} = 'approved'
      ) AS retired ON retired.request_id = ${requests.id}
      WHERE ${requests.budget_id} = ${budgetId} AND ${requests.is_latest}
      GROUP BY 1
    )
    SELECT to_char(months.start, 'YYYY-MM') AS month,
           (extract(epoch FROM (months.start + interval '1 month') AT TIME ZONE ${timezone}) * 1000)::bigint AS ends_at,
           coalesce(sum(spending.committed) OVER running, 0)::text AS committed,
           coalesce(sum(spending.spent) OVER running, 0)::text AS spent
    FROM months
    LEFT JOIN spending ON spending.start = months.start
    WINDOW running AS (ORDER BY months.start)
    ORDER BY months.start
  `;
  return prepareNamed<BudgetHistoryRow>(db, 'budget_history', statement);
});

/**
 * The budget month by month since its creation, in the organisation's time zone: the running
 * totals of requests raised up to each month's end that are committed and spent (approved). One
 * SQL statement on indexed rows. The amount in force at each month's end comes from the changelog
 * the detail reads beside it (presentHistory): looking it up here, once a month, was a third of
 * the statement's cost (bench/results.md).
 */
export async function budgetHistory(
  db: Executor,
  options: { budgetId: string; timezone: string },
): Promise<BudgetHistoryRow[]> {
  return budgetHistoryQuery(db).execute(options);
}

/** Inserts a budget. */
export async function insertBudget(
  tx: Executor,
  values: typeof budgets.$inferInsert,
): Promise<BudgetRow> {
  const [row] = await tx.insert(budgets).values(values).returning();
  if (!row) throw new Error('budget insert returned nothing');
  return row;
}

/** Changes a budget row and stamps modified_at. */
export async function updateBudgetRow(
  tx: Executor,
  id: string,
  values: Partial<typeof budgets.$inferInsert>,
): Promise<BudgetRow> {
  const [row] = await tx
    .update(budgets)
    .set({ ...values, modified_at: sql`now()` })
    .where(eq(budgets.id, id))
    .returning();
  if (!row) throw new Error('budget update returned nothing');
  return row;
}

/** Deletes a budget row (its changelog stays). */
export async function deleteBudgetRow(tx: Executor, id: string): Promise<void> {
  await tx.delete(budgets).where(eq(budgets.id, id));
}

/** Writes one changelog row: who, when, before → after (spec §3). */
export async function recordBudgetChange(
  tx: Executor,
  change: {
    organizationId: string;
    budgetId: string;
    code: string;
    action: BudgetChangeAction;
    actor: { id: string; fullname: string };
    before: BudgetSnapshot | null;
    after: BudgetSnapshot | null;
  },
): Promise<void> {
  await tx.insert(budgetChanges).values({
    organization_id: change.organizationId,
    budget_id: change.budgetId,
    budget_code: change.code,
    action: change.action,
    actor_id: change.actor.id,
    actor_name: change.actor.fullname,
    before: change.before,
    after: change.after,
  });
  await recordAudit(tx, {
    organizationId: change.organizationId,
    actor: change.actor,
    action: budgetAuditActions[change.action],
    objectType: 'budget',
    objectId: change.budgetId,
    changes: changesBetween<BudgetSnapshot>(
      change.before,
      change.after,
      Object.keys(change.after ?? change.before ?? {}) as (keyof BudgetSnapshot & string)[],
    ),
  });
}

/** The budget changelog's actions in the audit trail's words (issue 15). */
const budgetAuditActions = {
  create: 'budget.created',
  edit: 'budget.updated',
  archive: 'budget.archived',
  reactivate: 'budget.reactivated',
  delete: 'budget.deleted',
} as const satisfies Record<BudgetChangeAction, AuditAction>;
