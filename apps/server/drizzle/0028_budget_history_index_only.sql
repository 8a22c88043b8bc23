-- A budget's monthly history (budgets/queries.ts) read each of the budget's newest versions from
-- the table (requests_budget_status_idx, then a heap page per request) and probed
-- retirements_approved_request_idx once for each of them for an approved retirement's spending:
-- for a budget of bench:load's seed with 105 requests (PostgreSQL 15), 433 of the statement's 436
-- buffer reads, 0.35 ms a call warm. requests_budget_status_idx now carries the request's
-- created_at and id (INCLUDE, which drizzle cannot declare; src/db/schema.ts says so) and the
-- budget's approved retirements have an index of their own carrying request_id and amount_spent,
-- so both are index-only scans joined by a hash: 35 buffers, 0.21 ms (bench/results.md). A
-- retirement's budget is its request's (retirements/service.ts copies it at attach time, and the
-- ledger of migration 0008 sums retirements by it). The index by request it replaces served the
-- history alone since 0027; a look-up by request reads retirements_request_key. The new index
-- holds only approved retirements, so a write adds an entry only when a retirement is approved.
-- Rebuilding requests_budget_status_idx reads the table once while writers wait (seconds at
-- 1,000,000 requests); the reads that use it keep its key and its condition.
DROP INDEX "retirements_approved_request_idx";--> statement-breakpoint
CREATE INDEX "retirements_budget_approved_idx" ON "retirements" USING btree ("budget_id") INCLUDE ("request_id","amount_spent") WHERE "retirements"."status" = 'approved';--> statement-breakpoint
DROP INDEX "requests_budget_status_idx";--> statement-breakpoint
CREATE INDEX "requests_budget_status_idx" ON "requests" USING btree ("budget_id","current_status","amount_requested") INCLUDE ("created_at","id") WHERE "requests"."is_latest";
