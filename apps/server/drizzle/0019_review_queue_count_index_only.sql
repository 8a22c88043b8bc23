-- The pending lists (listPendingForRole) count every request waiting for the caller's role on each
-- call. requests_next_reviewer_idx found them, but the filters that leave out the caller's own
-- requests and those they already answered (request_owner_id, answered_by, current_status) sat in
-- the table, so the count visited a heap page for nearly every waiting request: 846 pages and
-- 2.0 ms for a finance officer's 2,224 (bench:load, PostgreSQL 15), against 0.13 ms for the page
-- of rows. Carried in the index as INCLUDE columns, the count is an index-only scan (0.47 ms, no
-- heap fetches once vacuumed). The key, the partial predicate and the name stay, so the page of
-- rows reads it as before. drizzle cannot declare INCLUDE (src/db/schema.ts says so). The index
-- holds only requests awaiting review, so rebuilding it reads the table once (under a second at
-- 1,000,000 requests) while writers wait.
DROP INDEX IF EXISTS "requests_next_reviewer_idx";--> statement-breakpoint
CREATE INDEX "requests_next_reviewer_idx" ON "requests" USING btree ("organization_id","next_reviewer_role","created_at","id") INCLUDE ("current_status","request_owner_id","answered_by") WHERE "requests"."is_latest" AND "requests"."next_reviewer_role" IS NOT NULL;
