-- requests.answered_by: everyone who has answered a step of the version (src/db/schema.ts), kept
-- by every review answer in the same UPDATE that moves the request's status (updateRequestStatus),
-- as next_reviewer_role is. The pending lists leave out a request whose step the caller already
-- answered (one person answers one step, issue 15); they probed reviews for that once per waiting
-- request, so a finance officer's queue of thousands cost a probe per row on every call (issue 13).
-- An answer is never taken back, so the array only grows. Only the lists of requests awaiting
-- review read it, so the backfill fills those alone: rewriting every request's row (and each of
-- its indexes) would hold writers off for minutes on a large organisation. Writers wait until this
-- migration commits, so the backfill sees every committed answer.
LOCK TABLE "requests", "reviews" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "answered_by" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
UPDATE "requests" r SET "answered_by" = answers.people
FROM (SELECT request_id, array_agg(DISTINCT reviewer_id ORDER BY reviewer_id) AS people
      FROM "reviews" WHERE status <> 'pending' AND reviewer_id IS NOT NULL
      GROUP BY request_id) AS answers
WHERE r.id = answers.request_id AND r.is_latest AND r.current_status IN ('pending', 'on_progress');
