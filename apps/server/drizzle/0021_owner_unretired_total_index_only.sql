-- The owner's unretired total, which the request view (and so every write's answer) reads: the
-- owner's approved newest versions whose retirement is not approved, summed. It read every newest
-- version of the owner from the table (requests_owner_latest_idx, then a heap page per request) and
-- each retirement's row for its status: for an owner with 122 approved requests (bench:load's
-- seed, PostgreSQL 15) the whole view took 0.51-0.57 ms a call. With the approved ones in an index
-- of their own carrying amount_base and id (INCLUDE, which drizzle cannot declare; src/db/schema.ts
-- says so), and the approved retirements in one by request, both are index-only scans: 0.45-0.48
-- ms (without the total at all, 0.33-0.38 ms; bench/results.md). Both indexes hold only approved
-- rows, so a write adds an entry only when it approves. Building them reads each table once (under
-- a second at 1,000,000 requests) while writers wait.
CREATE INDEX "requests_owner_approved_idx" ON "requests" USING btree ("request_owner_id","organization_id") INCLUDE ("amount_base","id") WHERE "requests"."is_latest" AND "requests"."current_status" = 'approved';--> statement-breakpoint
CREATE INDEX "retirements_approved_request_idx" ON "retirements" USING btree ("request_id") WHERE "retirements"."status" = 'approved';
