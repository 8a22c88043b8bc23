-- The pending lists (listPendingForRole) filter on next_reviewer_role and current_status together.
-- A request has a next reviewer only while it is pending or on_progress, but the planner, which
-- treats columns as independent, multiplied the two selectivities and expected 48 of a finance
-- officer's 2,241 waiting requests (bench:load). It then read them all, sorted them and joined
-- every budget to keep 100 (12 ms), instead of reading the first 100 off requests_next_reviewer_idx
-- in order (0.7 ms). Multivariate MCV statistics give it the combined frequencies.
CREATE STATISTICS "requests_review_queue_stats" (mcv) ON "is_latest", "next_reviewer_role", "current_status" FROM "requests";--> statement-breakpoint
-- Statistics objects stay empty until the next ANALYZE of the table: fill it now.
ANALYZE "requests";
