-- Counts of each owner's newest versions by status (owner_request_counts in src/db/schema.ts), kept
-- by the triggers of migration 0006 in the same statements as request_status_counts: a staff list's
-- total and the Home counts read a few rows instead of counting the owner's requests (issue 13).
-- Writers wait until this migration commits, so the count below sees every committed write and
-- the triggers every later one.
LOCK TABLE "requests" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "owner_request_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"owner_id" uuid NOT NULL,
	"current_status" text NOT NULL,
	"requests" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "owner_request_counts_owner_idx" ON "owner_request_counts" USING btree ("owner_id","current_status");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "request_status_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_status_counts (organization_id, current_status, requests)
  SELECT organization_id, current_status, count(*) FROM inserted WHERE is_latest GROUP BY 1, 2;
  INSERT INTO owner_request_counts (owner_id, current_status, requests)
  SELECT request_owner_id, current_status, count(*) FROM inserted WHERE is_latest GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "request_status_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_status_counts (organization_id, current_status, requests)
  SELECT organization_id, current_status, sum(change)
  FROM (SELECT organization_id, current_status, -1 AS change FROM removed WHERE is_latest
        UNION ALL
        SELECT organization_id, current_status, 1 FROM inserted WHERE is_latest) AS changes
  GROUP BY 1, 2
  HAVING sum(change) <> 0;
  INSERT INTO owner_request_counts (owner_id, current_status, requests)
  SELECT request_owner_id, current_status, sum(change)
  FROM (SELECT request_owner_id, current_status, -1 AS change FROM removed WHERE is_latest
        UNION ALL
        SELECT request_owner_id, current_status, 1 FROM inserted WHERE is_latest) AS changes
  GROUP BY 1, 2
  HAVING sum(change) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "request_status_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO request_status_counts (organization_id, current_status, requests)
  SELECT organization_id, current_status, -count(*) FROM removed WHERE is_latest GROUP BY 1, 2;
  INSERT INTO owner_request_counts (owner_id, current_status, requests)
  SELECT request_owner_id, current_status, -count(*) FROM removed WHERE is_latest GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "request_status_counts_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM request_status_counts;
  DELETE FROM owner_request_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The requests already stored.
INSERT INTO "owner_request_counts" ("owner_id", "current_status", "requests")
SELECT "request_owner_id", "current_status", count(*) FROM "requests" WHERE "is_latest" GROUP BY 1, 2;
