ALTER TABLE "requests" ADD COLUMN "next_reviewer_role" text;--> statement-breakpoint
CREATE INDEX "requests_org_status_idx" ON "requests" USING btree ("organization_id","current_status","created_at" DESC NULLS LAST) WHERE "requests"."is_latest";--> statement-breakpoint
CREATE INDEX "requests_next_reviewer_idx" ON "requests" USING btree ("organization_id","next_reviewer_role","created_at","id") WHERE "requests"."is_latest" AND "requests"."next_reviewer_role" IS NOT NULL;--> statement-breakpoint
UPDATE "requests" r SET "next_reviewer_role" = (SELECT v."reviewer_role" FROM "reviews" v WHERE v."request_id" = r."id" AND v."status" = 'pending' ORDER BY v."step" LIMIT 1) WHERE r."current_status" IN ('pending', 'on_progress');
