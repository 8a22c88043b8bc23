-- Counts of each organisation's newest versions by status, kept by statement triggers on requests
-- (see request_status_counts in src/db/schema.ts): an admin list's total reads a few rows instead
-- of counting hundreds of thousands. Rows are deltas: a writer only inserts, so no two writers wait
-- on one counter row and no order of locks can deadlock.
CREATE TABLE "request_status_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"current_status" text NOT NULL,
	"requests" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "request_status_counts_org_idx" ON "request_status_counts" USING btree ("organization_id","current_status");--> statement-breakpoint
CREATE FUNCTION "request_status_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_status_counts (organization_id, current_status, requests)
  SELECT organization_id, current_status, count(*) FROM inserted WHERE is_latest GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "request_status_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_status_counts (organization_id, current_status, requests)
  SELECT organization_id, current_status, sum(change)
  FROM (SELECT organization_id, current_status, -1 AS change FROM removed WHERE is_latest
        UNION ALL
        SELECT organization_id, current_status, 1 FROM inserted WHERE is_latest) AS changes
  GROUP BY 1, 2
  HAVING sum(change) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "request_status_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_status_counts (organization_id, current_status, requests)
  SELECT organization_id, current_status, -count(*) FROM removed WHERE is_latest GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "request_status_counts_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM request_status_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "requests_count_insert" AFTER INSERT ON "requests" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "request_status_counts_after_insert"();--> statement-breakpoint
CREATE TRIGGER "requests_count_update" AFTER UPDATE ON "requests" REFERENCING OLD TABLE AS removed NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "request_status_counts_after_update"();--> statement-breakpoint
CREATE TRIGGER "requests_count_delete" AFTER DELETE ON "requests" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "request_status_counts_after_delete"();--> statement-breakpoint
CREATE TRIGGER "requests_count_truncate" AFTER TRUNCATE ON "requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "request_status_counts_after_truncate"();--> statement-breakpoint
-- The requests already stored. CREATE TRIGGER above locked requests against writes until this
-- migration commits, so this count sees every committed write, and the triggers every later one.
INSERT INTO "request_status_counts" ("organization_id", "current_status", "requests")
SELECT "organization_id", "current_status", count(*) FROM "requests" WHERE "is_latest" GROUP BY 1, 2;--> statement-breakpoint
-- The list search (docs/decisions/0006): a purpose through requests_org_purpose_idx, an owner
-- through requests_owner_latest_idx, an approval number that contains the term through the trigrams
-- of requests_search_idx (newest versions only, the organisation in the same GIN index through
-- btree_gin), the start of an approval number through requests_approval_number_prefix_idx.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "requests_search_idx";--> statement-breakpoint
CREATE INDEX "requests_search_idx" ON "requests" USING gin ("organization_id",(lower("approval_number")) gin_trgm_ops) WHERE "requests"."is_latest" AND "requests"."approval_number" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "requests_org_purpose_idx" ON "requests" USING btree ("organization_id","purpose","created_at" DESC NULLS LAST) WHERE "requests"."is_latest";--> statement-breakpoint
CREATE INDEX "requests_approval_number_prefix_idx" ON "requests" USING btree ("organization_id","approval_number" text_pattern_ops) WHERE "requests"."is_latest" AND "requests"."approval_number" IS NOT NULL;
