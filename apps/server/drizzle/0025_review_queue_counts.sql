-- How many requests wait for each reviewer role (review_queue_counts) and, of those, how many each
-- person may not review: their own and those they answered a step of (review_queue_exclusions),
-- kept by statement triggers on requests like request_status_counts (migration 0006). A pending
-- list's total is the one less the other (issue 13): it was a count of the role's queue, a few
-- thousand index entries on every call. The waiting rows are those of requests_next_reviewer_idx's
-- count (requests/queries.ts, pendingWhere): newest versions, pending or on progress, with a next
-- reviewer role. Writers wait until this migration commits, so the counts below see every
-- committed write and the triggers every later one.
LOCK TABLE "requests" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "review_queue_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"next_reviewer_role" text NOT NULL,
	"requests" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_queue_exclusions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"person_id" uuid NOT NULL,
	"next_reviewer_role" text NOT NULL,
	"requests" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "review_queue_counts_org_idx" ON "review_queue_counts" USING btree ("organization_id","next_reviewer_role");--> statement-breakpoint
CREATE INDEX "review_queue_exclusions_person_idx" ON "review_queue_exclusions" USING btree ("person_id","next_reviewer_role");
--> statement-breakpoint
-- Who may not review a waiting request: its owner and everyone who answered a step of it, once each.
-- A plain SQL function, which PostgreSQL inlines into the queries below.
CREATE FUNCTION "review_queue_excluded"(answered_by uuid[], owner_id uuid) RETURNS SETOF uuid
  LANGUAGE sql IMMUTABLE AS $$ SELECT DISTINCT unnest(array_append(answered_by, owner_id)) $$;--> statement-breakpoint
CREATE FUNCTION "review_queue_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_queue_counts (organization_id, next_reviewer_role, requests)
  SELECT organization_id, next_reviewer_role, count(*) FROM inserted
  WHERE is_latest AND next_reviewer_role IS NOT NULL AND current_status IN ('pending', 'on_progress')
  GROUP BY 1, 2;
  INSERT INTO review_queue_exclusions (person_id, next_reviewer_role, requests)
  SELECT person.id, r.next_reviewer_role, count(*)
  FROM inserted r
  CROSS JOIN LATERAL review_queue_excluded(r.answered_by, r.request_owner_id) AS person(id)
  WHERE r.is_latest AND r.next_reviewer_role IS NOT NULL AND r.current_status IN ('pending', 'on_progress')
  GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "review_queue_counts_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_queue_counts (organization_id, next_reviewer_role, requests)
  SELECT organization_id, next_reviewer_role, sum(change)
  FROM (SELECT organization_id, next_reviewer_role, -1 AS change FROM removed WHERE is_latest AND next_reviewer_role IS NOT NULL AND current_status IN ('pending', 'on_progress')
        UNION ALL
        SELECT organization_id, next_reviewer_role, 1 FROM inserted WHERE is_latest AND next_reviewer_role IS NOT NULL AND current_status IN ('pending', 'on_progress')) AS changes
  GROUP BY 1, 2
  HAVING sum(change) <> 0;
  INSERT INTO review_queue_exclusions (person_id, next_reviewer_role, requests)
  SELECT person.id, changes.next_reviewer_role, sum(changes.change)
  FROM (SELECT r.answered_by, r.request_owner_id, r.next_reviewer_role, -1 AS change
        FROM removed r WHERE r.is_latest AND r.next_reviewer_role IS NOT NULL AND r.current_status IN ('pending', 'on_progress')
        UNION ALL
        SELECT r.answered_by, r.request_owner_id, r.next_reviewer_role, 1
        FROM inserted r WHERE r.is_latest AND r.next_reviewer_role IS NOT NULL AND r.current_status IN ('pending', 'on_progress')) AS changes
  CROSS JOIN LATERAL review_queue_excluded(changes.answered_by, changes.request_owner_id) AS person(id)
  GROUP BY 1, 2
  HAVING sum(changes.change) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "review_queue_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO review_queue_counts (organization_id, next_reviewer_role, requests)
  SELECT organization_id, next_reviewer_role, -count(*) FROM removed
  WHERE is_latest AND next_reviewer_role IS NOT NULL AND current_status IN ('pending', 'on_progress')
  GROUP BY 1, 2;
  INSERT INTO review_queue_exclusions (person_id, next_reviewer_role, requests)
  SELECT person.id, r.next_reviewer_role, -count(*)
  FROM removed r
  CROSS JOIN LATERAL review_queue_excluded(r.answered_by, r.request_owner_id) AS person(id)
  WHERE r.is_latest AND r.next_reviewer_role IS NOT NULL AND r.current_status IN ('pending', 'on_progress')
  GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "review_queue_counts_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM review_queue_counts;
  DELETE FROM review_queue_exclusions;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "requests_review_queue_insert" AFTER INSERT ON "requests" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "review_queue_counts_after_insert"();--> statement-breakpoint
CREATE TRIGGER "requests_review_queue_update" AFTER UPDATE ON "requests" REFERENCING OLD TABLE AS removed NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "review_queue_counts_after_update"();--> statement-breakpoint
CREATE TRIGGER "requests_review_queue_delete" AFTER DELETE ON "requests" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "review_queue_counts_after_delete"();--> statement-breakpoint
CREATE TRIGGER "requests_review_queue_truncate" AFTER TRUNCATE ON "requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "review_queue_counts_after_truncate"();--> statement-breakpoint
-- The requests already stored.
INSERT INTO "review_queue_counts" ("organization_id", "next_reviewer_role", "requests")
SELECT "organization_id", "next_reviewer_role", count(*) FROM "requests"
WHERE "is_latest" AND "next_reviewer_role" IS NOT NULL AND "current_status" IN ('pending', 'on_progress')
GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "review_queue_exclusions" ("person_id", "next_reviewer_role", "requests")
SELECT person.id, r."next_reviewer_role", count(*)
FROM "requests" r
CROSS JOIN LATERAL review_queue_excluded(r."answered_by", r."request_owner_id") AS person(id)
WHERE r."is_latest" AND r."next_reviewer_role" IS NOT NULL AND r."current_status" IN ('pending', 'on_progress')
GROUP BY 1, 2;
