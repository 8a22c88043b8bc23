-- Counts of each organisation's retirements by status (retirement_status_counts in
-- src/db/schema.ts), kept by statement triggers on retirements as migration 0006 keeps the
-- requests': an admin's retirement list reads a few rows for its total instead of counting the
-- organisation's retirements on every call (issue 13). Rows are deltas: a writer only inserts, so
-- no two writers wait on one counter row. Writers wait until this migration commits, so the count
-- below sees every committed write and the triggers every later one.
LOCK TABLE "retirements" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "retirement_status_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"status" text NOT NULL,
	"retirements" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "retirement_status_counts_org_idx" ON "retirement_status_counts" USING btree ("organization_id","status");--> statement-breakpoint
CREATE FUNCTION "retirement_status_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO retirement_status_counts (organization_id, status, retirements)
  SELECT organization_id, status, count(*) FROM inserted GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "retirement_status_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO retirement_status_counts (organization_id, status, retirements)
  SELECT organization_id, status, sum(change)
  FROM (SELECT organization_id, status, -1 AS change FROM removed
        UNION ALL
        SELECT organization_id, status, 1 FROM inserted) AS changes
  GROUP BY 1, 2
  HAVING sum(change) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "retirement_status_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO retirement_status_counts (organization_id, status, retirements)
  SELECT organization_id, status, -count(*) FROM removed GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "retirement_status_counts_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM retirement_status_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "retirements_count_insert" AFTER INSERT ON "retirements" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "retirement_status_counts_after_insert"();--> statement-breakpoint
CREATE TRIGGER "retirements_count_update" AFTER UPDATE ON "retirements" REFERENCING OLD TABLE AS removed NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "retirement_status_counts_after_update"();--> statement-breakpoint
CREATE TRIGGER "retirements_count_delete" AFTER DELETE ON "retirements" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "retirement_status_counts_after_delete"();--> statement-breakpoint
CREATE TRIGGER "retirements_count_truncate" AFTER TRUNCATE ON "retirements"
  FOR EACH STATEMENT EXECUTE FUNCTION "retirement_status_counts_after_truncate"();--> statement-breakpoint
-- The retirements already stored.
INSERT INTO "retirement_status_counts" ("organization_id", "status", "retirements")
SELECT "organization_id", "status", count(*) FROM "retirements" GROUP BY 1, 2;
