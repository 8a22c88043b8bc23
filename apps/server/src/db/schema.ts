import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  modified_at: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
};

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  ...timestamps,
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    fullname: text('fullname').notNull(),
    email: text('email').notNull(),
    department: text('department').notNull(),
    role: text('role').notNull(),
    system_role: text('system_role').notNull(),
    is_locked: boolean('is_locked').notNull().default(false),
    /** Who set the lock: `finance` (stays until finance lifts it) or `system` (the midnight job). */
    locked_by: text('locked_by'),
    lock_reason: text('lock_reason'),
    locked_at: timestamp('locked_at', { withTimezone: true }),
    phone_number: text('phone_number'),
    settings: text('settings').notNull().default('{"mute_notification":false}'),
    password_hash: text('password_hash'),
    last_logged_in: timestamp('last_logged_in', { withTimezone: true }),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    // Sign-in is by e-mail alone, so an address names one account across organisations.
    uniqueIndex('users_email_key').on(sql`lower(${table.email})`),
    index('users_organization_idx').on(table.organization_id, table.role),
    // The users list searches names and e-mails anywhere in the text (docs/decisions/0010).
    index('users_search_idx')
      .using('gin', sql`(lower(${table.fullname} || ' ' || ${table.email})) gin_trgm_ops`)
      .where(sql`${table.deleted_at} IS NULL`),
    // A request list's search finds the requests of the organisation's users whose name contains
    // the term, former colleagues' too (requests/list-queries.ts, usersNamed; issue 13): trigrams of
    // the name with the organisation in the same index (btree_gin), as requests_search_idx.
    index('users_name_idx').using(
      'gin',
      table.organization_id,
      sql`(lower(${table.fullname})) gin_trgm_ops`,
    ),
  ],
);

/** Failed sign-ins, counted per account and per address to throttle guessing. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    address: text('address').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('sign_in_failures_email_idx').on(table.email, table.created_at),
    index('sign_in_failures_address_idx').on(table.address, table.created_at),
  ],
);

/**
 * One row per sign-in (docs/decisions/0012): tokens carry its id (`sid`). A session lives at most
 * `expires_at` (7 days from sign-in) however often its token is renewed, and ends early when
 * revoked: sign-out, a password change or reset, deactivation, a new position or a finance lock.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    /** Why it ended early: `sign_out`, `password`, `deactivated`, `position`, `locked`. */
    revoked_reason: text('revoked_reason'),
  },
  (table) => [
    index('sessions_live_user_idx')
      .on(table.user_id)
      .where(sql`${table.revoked_at} IS NULL`),
  ],
);

/**
 * Fixed-window counters of the rate limits on public calls, shared by every server process
 * (docs/decisions/0012). UNLOGGED in the migration: losing them in a crash only resets limits.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  reset_at: timestamp('reset_at', { withTimezone: true }).notNull(),
});

/** Secrets generated once and shared by every server process (the JWT key when none is set). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Money is NUMERIC, read as a string and never rounded through a float in the database. */
const money = (name: string) => numeric(name, { precision: 18, scale: 2 });

export const budgets = pgTable(
  'budgets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The budget code string, e.g. "6105" (category + branch + cost code, spec §3). */
    code: text('code').notNull(),
    cost_code: integer('cost_code').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    amount: money('amount').notNull(),
    department: text('department').notNull().default('all'),
    currency: text('currency').notNull(),
    category: text('category').notNull(),
    branch: text('branch').notNull(),
    current_status: text('current_status').notNull().default('active'),
    /**
     * The committed amount of decisions §3, kept by the statement triggers of migration 0008 on
     * requests and retirements in the same transaction as every change that moves it (submit,
     * resubmit, reject, return, retirement approved), so reading it costs the same with 10 or
     * 100,000 requests behind the budget. Never written by the application.
     */
    committed: money('committed').notNull().default('0'),
    created_by: uuid('created_by').references(() => users.id),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('budgets_organization_code_key').on(table.organization_id, table.code),
    index('budgets_organization_department_idx').on(table.organization_id, table.department),
    index('budgets_search_idx').using(
      'gin',
      sql`(lower(${table.name} || ' ' || ${table.code})) gin_trgm_ops`,
    ),
    // The request form's lookup: active codes starting with what is typed, in any collation.
    index('budgets_active_code_prefix_idx')
      .on(table.organization_id, table.code.op('text_pattern_ops'))
      .where(sql`${table.current_status} = 'active'`),
  ],
);

/** One row for every create, edit, archive, re-activate and delete of a budget (spec §3). */
export const budgetChanges = pgTable(
  'budget_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** No foreign key: the history of a deleted budget outlives it. */
    budget_id: uuid('budget_id').notNull(),
    budget_code: text('budget_code').notNull(),
    action: text('action').notNull(),
    actor_id: uuid('actor_id').references(() => users.id),
    actor_name: text('actor_name').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('budget_changes_budget_idx').on(table.budget_id, table.created_at)],
);

/** Approval matrix: the row whose [start_value, end_value) holds the amount gives the reviewer roles. */
export const approvalMatrixRows = pgTable(
  'approval_matrix_rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    start_value: money('start_value').notNull(),
    /** Null means no upper bound. */
    end_value: money('end_value'),
    description: text('description').notNull().default(''),
    /** Reviewer roles in order, first reviewer first. */
    user_role: text('user_role').array().notNull(),
    cascading_notification: boolean('cascading_notification').notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index('approval_matrix_rows_organization_idx').on(table.organization_id, table.start_value),
  ],
);

/** Units of the base currency (tzs) per unit of another currency, kept by finance. */
export const exchangeRates = pgTable(
  'exchange_rates',
  {
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    currency: text('currency').notNull(),
    rate: numeric('rate', { precision: 18, scale: 6 }).notNull(),
    modified_at: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.organization_id, table.currency] })],
);

/** Last approval number issued per organisation and year (AP-<year>-<5-digit sequence>). */
export const approvalSequences = pgTable(
  'approval_sequences',
  {
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    year: integer('year').notNull(),
    last_value: integer('last_value').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.organization_id, table.year] })],
);

export const requests = pgTable(
  'requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** The id of the first version; every version of one request shares it. */
    chain_id: uuid('chain_id').notNull(),
    version: integer('version').notNull().default(1),
    parent_request: uuid('parent_request'),
    /** Only the newest version of a chain counts in lists and budgets. */
    is_latest: boolean('is_latest').notNull().default(true),
    request_owner_id: uuid('request_owner_id')
      .notNull()
      .references(() => users.id),
    request_owner_name: text('request_owner_name').notNull(),
    department: text('department').notNull(),
    purpose: text('purpose').notNull(),
    mode_of_service: text('mode_of_service'),
    name_of_establishment: text('name_of_establishment'),
    expenditure_date: date('expenditure_date', { mode: 'string' }).notNull(),
    expenditure_justification: text('expenditure_justification').notNull().default(''),
    amount_requested: money('amount_requested').notNull(),
    amount_currency: text('amount_currency').notNull(),
    /** Base-currency units per unit of amount_currency at submission (decisions §3). */
    exchange_rate: numeric('exchange_rate', { precision: 18, scale: 6 }).notNull().default('1'),
    amount_base: money('amount_base').notNull(),
    budget_id: uuid('budget_id')
      .notNull()
      .references(() => budgets.id),
    budget_code: text('budget_code').notNull(),
    payment_mode: text('payment_mode').notNull(),
    tax_status: text('tax_status').notNull(),
    comments: text('comments'),
    current_status: text('current_status').notNull().default('pending'),
    /**
     * The role of the first pending review while the request awaits review (pending/on_progress),
     * null otherwise: kept by submission, resubmission and every review answer, so the pending
     * lists read requests_next_reviewer_idx instead of searching the reviews.
     */
    next_reviewer_role: text('next_reviewer_role'),
    /**
     * Everyone who has answered a step of this version, added by every review answer in the
     * UPDATE that moves the status (updateRequestStatus): one person answers one step, so a pending
     * list leaves out a request its caller appears in by reading the row, not by probing reviews
     * (issue 13). Migration 0017 filled it for the requests then awaiting review only.
     */
    answered_by: uuid('answered_by')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** The matrix row's cascading_notification at submission: every step's reviewers hear at once. */
    cascading_notification: boolean('cascading_notification').notNull().default(false),
    approval_number: text('approval_number'),
    file_paths: text('file_paths')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('requests_approval_number_key').on(table.organization_id, table.approval_number),
    uniqueIndex('requests_chain_version_key').on(table.chain_id, table.version),
    index('requests_org_latest_idx')
      .on(table.organization_id, table.created_at.desc())
      .where(sql`${table.is_latest}`),
    index('requests_owner_latest_idx')
      .on(table.request_owner_id, table.created_at.desc())
      .where(sql`${table.is_latest}`),
    // The owner's unretired total in the request view (requests/queries.ts): migration 0021 builds
    // it with INCLUDE (amount_base, id), which drizzle cannot declare, so the sum is an index-only
    // scan.
    index('requests_owner_approved_idx')
      .on(table.request_owner_id, table.organization_id)
      .where(sql`${table.is_latest} AND ${table.current_status} = 'approved'`),
    // The admin list's status filter and its count (bench/requests.ts).
    index('requests_org_status_idx')
      .on(table.organization_id, table.current_status, table.created_at.desc())
      .where(sql`${table.is_latest}`),
    // The pending lists: ordered oldest first (created_at, id), so the first page is read off the index.
    // Migration 0015 adds MCV statistics on (is_latest, next_reviewer_role, current_status), which
    // drizzle cannot declare: without them the planner underestimates a queue and sorts all of it.
    // Migration 0019 rebuilt it with INCLUDE (current_status, request_owner_id, answered_by), which
    // drizzle cannot declare either, so the lists' count is an index-only scan (issue 13).
    index('requests_next_reviewer_idx')
      .on(table.organization_id, table.next_reviewer_role, table.created_at, table.id)
      .where(sql`${table.is_latest} AND ${table.next_reviewer_role} IS NOT NULL`),
    // A budget's requests, newest first: its detail's page of them is read off the index in order,
    // with a heap page for each request shown and no sort (issue 13). Migration 0029 adds
    // INCLUDE (current_status, amount_requested), which drizzle cannot declare, so a budget's
    // committed sum (bench/budgets.ts), its request count and its monthly history read the index
    // alone.
    index('requests_budget_created_idx')
      .on(table.budget_id, table.created_at.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.is_latest}`),
    // The earlier versions on a budget (a request resubmitted on another budget leaves its first
    // version here): they freeze the budget's terms as its newest versions do (budgets/queries.ts).
    index('requests_budget_history_idx')
      .on(table.budget_id)
      .where(sql`NOT ${table.is_latest}`),
    // The list search (docs/decisions/0006): trigrams of the approval numbers of the newest
    // versions, with the organisation in the same index (btree_gin).
    index('requests_search_idx')
      .using('gin', table.organization_id, sql`(lower(${table.approval_number})) gin_trgm_ops`)
      .where(sql`${table.is_latest} AND ${table.approval_number} IS NOT NULL`),
    // A search that names a purpose reads the requests of that purpose here.
    index('requests_org_purpose_idx')
      .on(table.organization_id, table.purpose, table.created_at.desc())
      .where(sql`${table.is_latest}`),
    // A search for an approval number ('AP-2026-00012', or its start) reads this, not the trigrams
    // (every approval number shares 'ap-', '-20', '202', which makes a trigram scan slow).
    // Who may read a stored file: the requests that hold it (features/files).
    index('requests_file_paths_idx').using('gin', table.file_paths),
    index('requests_approval_number_prefix_idx')
      .on(table.organization_id, sql`${table.approval_number} text_pattern_ops`)
      .where(sql`${table.is_latest} AND ${table.approval_number} IS NOT NULL`),
  ],
);

/**
 * How many newest versions an organisation has in each status, kept by the statement triggers of
 * migration 0006 on requests: every insert, update or delete of requests adds one row here per
 * organisation and status it changed, in the same transaction, so the count is exact and no two
 * writers wait on one row. A status's count is the sum of its rows; foldRequestStatusCounts merges
 * them into one row each when they pile up.
 */
export const requestStatusCounts = pgTable(
  'request_status_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id').notNull(),
    current_status: text('current_status').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('request_status_counts_org_idx').on(table.organization_id, table.current_status),
  ],
);

/**
 * How many newest versions each owner has in each status, kept like request_status_counts by the
 * same statement triggers (migration 0016): a staff list's total and the Home counts read a few
 * rows instead of counting the owner's requests (issue 13). foldOwnerRequestCounts merges them.
 */
export const ownerRequestCounts = pgTable(
  'owner_request_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    owner_id: uuid('owner_id').notNull(),
    current_status: text('current_status').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
  },
  (table) => [index('owner_request_counts_owner_idx').on(table.owner_id, table.current_status)],
);

/**
 * How many retirements an organisation has in each status, kept like request_status_counts by
 * statement triggers on retirements (migration 0020): an admin's retirement list reads a few rows
 * for its total instead of counting the organisation's retirements (issue 13).
 * foldRetirementStatusCounts merges them.
 */
export const retirementStatusCounts = pgTable(
  'retirement_status_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id').notNull(),
    status: text('status').notNull(),
    retirements: bigint('retirements', { mode: 'number' }).notNull(),
  },
  (table) => [index('retirement_status_counts_org_idx').on(table.organization_id, table.status)],
);

/**
 * How many budgets an organisation has in each department, kept like request_status_counts by
 * triggers on budgets (migration 0022): the budget list reads a few rows for its total instead of
 * counting the organisation's budgets, whose rows every request's ledger update leaves for the
 * count to visit one by one (issue 13). readKeptCounts merges them.
 */
export const budgetDepartmentCounts = pgTable(
  'budget_department_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id').notNull(),
    department: text('department').notNull(),
    budgets: bigint('budgets', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('budget_department_counts_org_idx').on(table.organization_id, table.department),
  ],
);

/**
 * How many requests wait for each reviewer role in an organisation, kept like
 * request_status_counts by statement triggers on requests (migration 0025): the newest versions
 * awaiting review (pending or on progress) counted by their next reviewer role. A pending list's
 * total is this less the caller's review_queue_exclusions (issue 13): it read a few thousand index
 * entries on every call.
 */
export const reviewQueueCounts = pgTable(
  'review_queue_counts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id').notNull(),
    next_reviewer_role: text('next_reviewer_role').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('review_queue_counts_org_idx').on(table.organization_id, table.next_reviewer_role),
  ],
);

/**
 * Of the requests review_queue_counts counts, those each person may not review, by role: their own
 * and those they already answered a step of (one person answers one step; docs/decisions/0019),
 * each request once per person. Kept by the same triggers (migration 0025).
 */
export const reviewQueueExclusions = pgTable(
  'review_queue_exclusions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    person_id: uuid('person_id').notNull(),
    next_reviewer_role: text('next_reviewer_role').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('review_queue_exclusions_person_idx').on(table.person_id, table.next_reviewer_role),
  ],
);

/** One review per step of a request's chain, acted on in order (spec §4). */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    request_id: uuid('request_id')
      .notNull()
      .references(() => requests.id),
    step: integer('step').notNull(),
    reviewer_role: text('reviewer_role').notNull(),
    reviewer_id: uuid('reviewer_id').references(() => users.id),
    reviewer_name: text('reviewer_name'),
    reviewer_title: text('reviewer_title'),
    /** The delegator whose step a delegate answered (issue 15; docs/decisions/0019). */
    on_behalf_of_id: uuid('on_behalf_of_id').references(() => users.id),
    on_behalf_of_name: text('on_behalf_of_name'),
    comments: text('comments').notNull().default(''),
    status: text('status').notNull().default('pending'),
    reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('reviews_request_step_key').on(table.request_id, table.step),
    index('reviews_pending_role_idx')
      .on(table.organization_id, table.reviewer_role)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/** The retirement of an approved request: the owner accounts for the money spent (spec §3, decisions §4). */
export const retirements = pgTable(
  'retirements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    /** One retirement per request: the unique index settles two finance officers attaching at once. */
    request_id: uuid('request_id')
      .notNull()
      .references(() => requests.id),
    /** The request's budget, copied at attach time so the ledger trigger needs no join. */
    budget_id: uuid('budget_id')
      .notNull()
      .references(() => budgets.id),
    /** The request's owner, who submits the retirement. */
    retirement_owner_id: uuid('retirement_owner_id')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull().default('pending'),
    due_date: date('due_date', { mode: 'string' }).notNull(),
    /** `amountReceived` (decisions §4): the request's approved amount, in amount_currency. */
    amount_received: money('amount_received').notNull(),
    amount_spent: money('amount_spent'),
    amount_currency: text('amount_currency').notNull(),
    comments: text('comments'),
    file_paths: text('file_paths')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** A reviewer confirmed the unspent cash came back (spec §2: 'Cash Returned'). */
    is_funds_returned: boolean('is_funds_returned').notNull().default(false),
    /** How many times the owner has submitted it; each submission has its own review round. */
    submissions: integer('submissions').notNull().default(0),
    submitted_at: timestamp('submitted_at', { withTimezone: true }),
    /**
     * The role of the first pending review of the current round while it is on_progress, null
     * otherwise (like requests.next_reviewer_role), so reviewers' queues read an index.
     */
    next_reviewer_role: text('next_reviewer_role'),
    /**
     * Everyone who has answered a step of the current round, added by each answer in the UPDATE
     * that moves the retirement (answerRetirementStep); a new round starts it empty. The reviewers'
     * queue leaves out a retirement its caller appears in by reading the row, not by probing
     * retirement_reviews once per waiting retirement (docs/decisions/0039), as requests.answered_by
     * does for the requests' queue. Migration 0024 filled it for the retirements then under review.
     */
    answered_by: uuid('answered_by')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** The finance user who attached it. */
    created_by: uuid('created_by')
      .notNull()
      .references(() => users.id),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('retirements_request_key').on(table.request_id),
    // A budget's approved retirements, for its monthly history (budgets/queries.ts): migration 0028
    // builds it with INCLUDE (request_id, amount_spent), which drizzle cannot declare, so the
    // history reads them in one index-only scan and joins them to its requests by a hash.
    index('retirements_budget_approved_idx')
      .on(table.budget_id)
      .where(sql`${table.status} = 'approved'`),
    // The owner's approved retirements, for the owner's unretired total (requests/queries.ts):
    // migration 0027 builds it with INCLUDE (request_id), which drizzle cannot declare, so the
    // total reads them in one index-only scan and leaves their requests out by a hash.
    index('retirements_owner_approved_idx')
      .on(table.retirement_owner_id, table.organization_id)
      .where(sql`${table.status} = 'approved'`),
    index('retirements_organization_status_idx').on(table.organization_id, table.status),
    index('retirements_owner_status_idx').on(table.retirement_owner_id, table.status),
    index('retirements_file_paths_idx').using('gin', table.file_paths),
    index('retirements_org_latest_idx').on(table.organization_id, table.created_at.desc()),
    index('retirements_owner_latest_idx').on(table.retirement_owner_id, table.created_at.desc()),
    // The reviewers' queue (GET retirement/pending), oldest submission first. Migration 0024 built
    // it with INCLUDE (status, retirement_owner_id, answered_by), which drizzle cannot declare, so
    // the queue's count is an index-only scan (issue 13, docs/decisions/0039).
    index('retirements_next_reviewer_idx')
      .on(table.organization_id, table.next_reviewer_role, table.submitted_at, table.id)
      .where(sql`${table.next_reviewer_role} IS NOT NULL`),
    // The lock job (decisions §4) reads the overdue ones: pending or rejected, by due date.
    index('retirements_outstanding_due_idx')
      .on(table.due_date, table.retirement_owner_id)
      .where(sql`${table.status} IN ('pending', 'rejected')`),
  ],
);

/**
 * One review per step of a retirement's chain (spec §4): the request's reviewer roles, copied when
 * the owner submits. Each submission opens a new round; earlier rounds stay as history.
 */
export const retirementReviews = pgTable(
  'retirement_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    retirement_id: uuid('retirement_id')
      .notNull()
      .references(() => retirements.id),
    /** The submission this review belongs to (retirements.submissions at the time). */
    round: integer('round').notNull(),
    step: integer('step').notNull(),
    reviewer_role: text('reviewer_role').notNull(),
    reviewer_id: uuid('reviewer_id').references(() => users.id),
    reviewer_name: text('reviewer_name'),
    reviewer_title: text('reviewer_title'),
    comments: text('comments').notNull().default(''),
    status: text('status').notNull().default('pending'),
    is_funds_returned: boolean('is_funds_returned').notNull().default(false),
    reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('retirement_reviews_round_step_key').on(
      table.retirement_id,
      table.round,
      table.step,
    ),
  ],
);

/**
 * A file a user was given an upload policy for (decisions §6): the stored name is 7 random
 * alphanumerics and the sanitised original name, unique in the organisation; the object lives in
 * the file store (DATA_DIR/files or S3) under `<organization_id>/<name>`.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    original_name: text('original_name').notNull(),
    uploaded_by: uuid('uploaded_by')
      .notNull()
      .references(() => users.id),
    /** Set when the local store received the object (S3 is asked instead). */
    uploaded_at: timestamp('uploaded_at', { withTimezone: true }),
    size: bigint('size', { mode: 'number' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('files_organization_name_key').on(table.organization_id, table.name)],
);

/**
 * Password-reset and invitation tokens: only a SHA-256 of the token is kept; one use, an expiry
 * (an hour to reset, 7 days for an invitation — docs/decisions/0010).
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** `reset` (forgot password) or `invitation` (a user created without a password). */
    purpose: text('purpose').notNull().default('reset'),
    token_hash: text('token_hash').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('password_reset_tokens_hash_key').on(table.token_hash)],
);

/** Every e-mail Imprest sends, kept whether or not SMTP is configured (decisions §1). */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id').references(() => organizations.id),
    to_address: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('queued'),
    error: text('error'),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** One e-mail per event and recipient; also its Message-ID (docs/decisions/0011). */
    idempotency_key: text('idempotency_key')
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    /** What it announces (`NotificationKind`); `other` for e-mails queued before 0010. */
    kind: text('kind').notNull().default('other'),
    html: text('html'),
    /** Send attempts so far; a worker claims the row (`sending`, `claimed_at`) before each. */
    attempts: integer('attempts').notNull().default(0),
    claimed_at: timestamp('claimed_at', { withTimezone: true }),
  },
  (table) => [
    index('email_outbox_status_idx').on(table.status, table.created_at),
    uniqueIndex('email_outbox_idempotency_key').on(table.idempotency_key),
  ],
);

/**
 * The changelog of the exchange rates (docs/decisions/0013): one row for each rate a save actually
 * changed, written in the transaction of `PUT settings/exchange-rates`. `old_rate` is null while
 * the default rate applied.
 */
export const exchangeRateChanges = pgTable(
  'exchange_rate_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    currency: text('currency').notNull(),
    old_rate: numeric('old_rate', { precision: 18, scale: 6 }),
    new_rate: numeric('new_rate', { precision: 18, scale: 6 }).notNull(),
    actor_id: uuid('actor_id')
      .notNull()
      .references(() => users.id),
    actor_name: text('actor_name').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('exchange_rate_changes_organization_idx').on(
      table.organization_id,
      table.created_at.desc(),
      table.id.desc(),
    ),
  ],
);

/**
 * Idempotency keys (issue 14; docs/decisions/0018): one row per key a user sent with a write, inserted
 * in the write's own transaction, so the row exists exactly when the write committed. The answer
 * is added after commit; a repeat within 24 hours gets it back instead of a second write.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    user_id: uuid('user_id').notNull(),
    key: text('key').notNull(),
    organization_id: uuid('organization_id').notNull(),
    /** The method, route and a hash of the body: the same key with another body is refused. */
    fingerprint: text('fingerprint').notNull(),
    status_code: integer('status_code'),
    response_body: text('response_body'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.user_id, table.key] }),
    index('idempotency_keys_expires_idx').on(table.expires_at),
  ],
);

/**
 * Out-of-office delegation (issue 15; docs/decisions/0019): during [starts_on, ends_on], dates in
 * ORG_TIMEZONE, the delegate may answer the delegator's review steps. Ending early sets ended_at.
 */
export const delegations = pgTable(
  'delegations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organization_id: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    delegator_id: uuid('delegator_id')
      .notNull()
      .references(() => users.id),
    delegate_id: uuid('delegate_id')
      .notNull()
      .references(() => users.id),
    starts_on: date('starts_on', { mode: 'string' }).notNull(),
    ends_on: date('ends_on', { mode: 'string' }).notNull(),
    note: text('note'),
    created_by: uuid('created_by')
      .notNull()
      .references(() => users.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ended_at: timestamp('ended_at', { withTimezone: true }),
    ended_by: uuid('ended_by').references(() => users.id),
  },
  (table) => [
    index('delegations_delegate_idx').on(table.organization_id, table.delegate_id),
    index('delegations_delegator_idx').on(table.organization_id, table.delegator_id),
    check('delegations_period_check', sql`${table.starts_on} <= ${table.ends_on}`),
    check('delegations_not_self_check', sql`${table.delegator_id} <> ${table.delegate_id}`),
  ],
);

/**
 * The audit trail (issue 15; docs/decisions/0019): one row per change, written in the change's own
 * transaction; append-only (a trigger refuses UPDATE, DELETE and TRUNCATE). No foreign keys: the
 * trail outlives what it describes. Organisation null only for a failed sign-in of an unknown
 * e-mail; actor null for the system (the lock job).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organization_id: uuid('organization_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor_id: uuid('actor_id'),
    actor_name: text('actor_name').notNull(),
    action: text('action').notNull(),
    object_type: text('object_type').notNull(),
    object_id: text('object_id'),
    changes: jsonb('changes'),
    request_id: text('request_id'),
    ip: text('ip'),
  },
  // DESC NULLS FIRST is PostgreSQL's own DESC: the indexes give `ORDER BY at DESC, id DESC` as is.
  (table) => [
    index('audit_events_org_at_idx').on(
      table.organization_id,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('audit_events_actor_idx').on(
      table.organization_id,
      table.actor_id,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // A person and an action together: one range, even where the person never did that action
    // (the actor's index alone walks all of the person's events to find none).
    index('audit_events_actor_action_idx').on(
      table.organization_id,
      table.actor_id,
      table.action,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('audit_events_object_idx').on(
      table.organization_id,
      table.object_type,
      table.object_id,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('audit_events_action_idx').on(
      table.organization_id,
      table.action,
      table.at.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
  ],
);
