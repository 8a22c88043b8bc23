-- retirements.answered_by: everyone who has answered a step of the current round (src/db/schema.ts),
-- kept by every review answer in the same UPDATE that moves the retirement (updateRetirement) and
-- emptied by each new submission, as next_reviewer_role is set. The reviewers' queue
-- (GET retirement/pending, docs/decisions/0039) leaves out a retirement whose step the caller
-- already answered (one person answers one step of a round, decision 0019); it probed
-- retirement_reviews for that once per waiting retirement, so a finance officer's queue of
-- thousands cost a probe per row on every call: 113 calls a second at bench:load's scale 1, with
-- 14.7 ms of PostgreSQL's CPU each (issue 13). Only the queue reads it, so the backfill fills the
-- retirements under review alone. Writers wait until this migration commits, so the backfill sees
-- every committed answer.
LOCK TABLE "retirements", "retirement_reviews" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "answered_by" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
UPDATE "retirements" r SET "answered_by" = answers.people
FROM (SELECT v.retirement_id, array_agg(DISTINCT v.reviewer_id ORDER BY v.reviewer_id) AS people
      FROM "retirement_reviews" v JOIN "retirements" t ON t.id = v.retirement_id
      WHERE v.round = t.submissions AND v.status <> 'pending' AND v.reviewer_id IS NOT NULL
      GROUP BY v.retirement_id) AS answers
WHERE r.id = answers.retirement_id AND r.status = 'on_progress';--> statement-breakpoint
-- The queue counts every retirement waiting for the caller's role on each call: with the filters
-- that leave out the caller's own and those they answered carried as INCLUDE columns (which
-- drizzle cannot declare), the count is an index-only scan, and the id in the key gives the page's
-- order (oldest submission, then id) off the index. It holds only retirements under review.
DROP INDEX "retirements_next_reviewer_idx";--> statement-breakpoint
CREATE INDEX "retirements_next_reviewer_idx" ON "retirements" USING btree ("organization_id","next_reviewer_role","submitted_at","id") INCLUDE ("status","retirement_owner_id","answered_by") WHERE "retirements"."next_reviewer_role" IS NOT NULL;
