-- A budget detail's page of requests (the newest 50 of the budget, budgets/queries.ts) read every
-- request of the budget through requests_budget_status_idx, a heap page each, and sorted them to
-- keep 50: for a budget of bench:load's seed with 136 requests, 140 buffers and a top-N sort a call.
-- The budget's requests are now indexed newest first, so the page is read off the index in order:
-- 54 buffers (50 heap pages, the requests shown), no sort, 7,800 → 17,000 statements a second at
-- 50 clients (pgbench, PostgreSQL 15, bench/results.md). INCLUDE (current_status,
-- amount_requested), which drizzle cannot declare (src/db/schema.ts says so), keeps what the index
-- it replaces served index-only: a budget's committed sum, its request count and its monthly
-- history, which filter the budget's entries by status instead of seeking to it. A write still
-- maintains one index of a request by budget. Building it reads the table once while writers wait
-- (seconds at 1,000,000 requests).
CREATE INDEX "requests_budget_created_idx" ON "requests" USING btree ("budget_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) INCLUDE ("current_status","amount_requested") WHERE "requests"."is_latest";--> statement-breakpoint
DROP INDEX "requests_budget_status_idx";
