CREATE TABLE "retirement_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"retirement_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"step" integer NOT NULL,
	"reviewer_role" text NOT NULL,
	"reviewer_id" uuid,
	"reviewer_name" text,
	"reviewer_title" text,
	"comments" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"is_funds_returned" boolean DEFAULT false NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "committed" numeric(18, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
-- Every submission, rejection, return and retirement approval now rewrites its budget row: room on
-- each page lets those updates stay on the page (HOT), so the table does not spread as it ages.
ALTER TABLE "budgets" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "budget_id" uuid;--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "amount_received" numeric(18, 2);--> statement-breakpoint
-- Retirements attached before this migration take both from their request.
UPDATE "retirements" SET "budget_id" = r."budget_id", "amount_received" = r."amount_requested"
FROM "requests" r WHERE r."id" = "retirements"."request_id";--> statement-breakpoint
ALTER TABLE "retirements" ALTER COLUMN "budget_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "retirements" ALTER COLUMN "amount_received" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "is_funds_returned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "submissions" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "retirements" ADD COLUMN "next_reviewer_role" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "retirement_reviews" ADD CONSTRAINT "retirement_reviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retirement_reviews" ADD CONSTRAINT "retirement_reviews_retirement_id_retirements_id_fk" FOREIGN KEY ("retirement_id") REFERENCES "public"."retirements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retirement_reviews" ADD CONSTRAINT "retirement_reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "retirement_reviews_round_step_key" ON "retirement_reviews" USING btree ("retirement_id","round","step");--> statement-breakpoint
ALTER TABLE "retirements" ADD CONSTRAINT "retirements_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retirements_org_latest_idx" ON "retirements" USING btree ("organization_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "retirements_owner_latest_idx" ON "retirements" USING btree ("retirement_owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "retirements_next_reviewer_idx" ON "retirements" USING btree ("organization_id","next_reviewer_role","submitted_at") WHERE "retirements"."next_reviewer_role" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "retirements_outstanding_due_idx" ON "retirements" USING btree ("due_date","retirement_owner_id") WHERE "retirements"."status" IN ('pending', 'rejected');--> statement-breakpoint
-- The budget ledger (decisions §3, docs/decisions/0008): budgets.committed is the requested amount
-- of the newest versions that are pending, on_progress or approved, with an approved retirement's
-- spent amount in place of its request's. Each request row adds its requested amount while it is
-- live; each approved retirement adds (spent − received). Statement triggers apply the difference a
-- statement made, per budget, in the same transaction; the UPDATE of the budget row takes its row
-- lock, the lock that submission already holds, so concurrent writers are serialised per budget.
-- Writers lock the request or retirement first and the budget second, never the other way round.
CREATE FUNCTION "budget_ledger_apply"(deltas jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Lock in id order so two statements touching several budgets cannot deadlock each other.
  PERFORM 1 FROM budgets b
  WHERE b.id IN (SELECT (d->>'budget_id')::uuid FROM jsonb_array_elements(deltas) d)
  ORDER BY b.id FOR UPDATE;
  UPDATE budgets b SET committed = b.committed + (d->>'delta')::numeric
  FROM jsonb_array_elements(deltas) d
  WHERE b.id = (d->>'budget_id')::uuid;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_requests_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('budget_id', budget_id, 'delta', total)) INTO deltas
  FROM (SELECT budget_id, sum(change) AS total
        FROM (SELECT budget_id, amount_requested AS change FROM new_rows
              WHERE is_latest AND current_status IN ('pending', 'on_progress', 'approved')) AS changes
        GROUP BY budget_id HAVING sum(change) <> 0) AS per_budget;
  IF deltas IS NOT NULL THEN PERFORM budget_ledger_apply(deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_requests_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('budget_id', budget_id, 'delta', total)) INTO deltas
  FROM (SELECT budget_id, sum(change) AS total
        FROM (SELECT budget_id, amount_requested AS change FROM new_rows
              WHERE is_latest AND current_status IN ('pending', 'on_progress', 'approved')
              UNION ALL
              SELECT budget_id, -amount_requested AS change FROM old_rows
              WHERE is_latest AND current_status IN ('pending', 'on_progress', 'approved')) AS changes
        GROUP BY budget_id HAVING sum(change) <> 0) AS per_budget;
  IF deltas IS NOT NULL THEN PERFORM budget_ledger_apply(deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_requests_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('budget_id', budget_id, 'delta', total)) INTO deltas
  FROM (SELECT budget_id, sum(change) AS total
        FROM (SELECT budget_id, -amount_requested AS change FROM old_rows
              WHERE is_latest AND current_status IN ('pending', 'on_progress', 'approved')) AS changes
        GROUP BY budget_id HAVING sum(change) <> 0) AS per_budget;
  IF deltas IS NOT NULL THEN PERFORM budget_ledger_apply(deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_retirements_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('budget_id', budget_id, 'delta', total)) INTO deltas
  FROM (SELECT budget_id, sum(change) AS total
        FROM (SELECT budget_id, amount_spent - amount_received AS change FROM new_rows WHERE status = 'approved') AS changes
        GROUP BY budget_id HAVING sum(change) <> 0) AS per_budget;
  IF deltas IS NOT NULL THEN PERFORM budget_ledger_apply(deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_retirements_update"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('budget_id', budget_id, 'delta', total)) INTO deltas
  FROM (SELECT budget_id, sum(change) AS total
        FROM (SELECT budget_id, amount_spent - amount_received AS change FROM new_rows WHERE status = 'approved'
              UNION ALL
              SELECT budget_id, amount_received - amount_spent AS change FROM old_rows WHERE status = 'approved') AS changes
        GROUP BY budget_id HAVING sum(change) <> 0) AS per_budget;
  IF deltas IS NOT NULL THEN PERFORM budget_ledger_apply(deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_retirements_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('budget_id', budget_id, 'delta', total)) INTO deltas
  FROM (SELECT budget_id, sum(change) AS total
        FROM (SELECT budget_id, amount_received - amount_spent AS change FROM old_rows WHERE status = 'approved') AS changes
        GROUP BY budget_id HAVING sum(change) <> 0) AS per_budget;
  IF deltas IS NOT NULL THEN PERFORM budget_ledger_apply(deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- The committed amount recomputed from the rows: the backfill below, after a TRUNCATE, and what
-- the ledger's tests compare the kept figure with.
CREATE FUNCTION "budget_committed_recomputed"(budget uuid) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT sum(amount_requested) FROM requests
                   WHERE budget_id = budget AND is_latest
                     AND current_status IN ('pending', 'on_progress', 'approved')), 0)
       + coalesce((SELECT sum(amount_spent - amount_received) FROM retirements
                   WHERE budget_id = budget AND status = 'approved'), 0)
$$;--> statement-breakpoint
CREATE FUNCTION "budget_ledger_recompute_all"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE budgets SET committed = budget_committed_recomputed(id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "requests_ledger_insert" AFTER INSERT ON "requests" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_requests_insert"();--> statement-breakpoint
CREATE TRIGGER "requests_ledger_update" AFTER UPDATE ON "requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_requests_update"();--> statement-breakpoint
CREATE TRIGGER "requests_ledger_delete" AFTER DELETE ON "requests" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_requests_delete"();--> statement-breakpoint
CREATE TRIGGER "requests_ledger_truncate" AFTER TRUNCATE ON "requests"
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_recompute_all"();--> statement-breakpoint
CREATE TRIGGER "retirements_ledger_insert" AFTER INSERT ON "retirements" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_retirements_insert"();--> statement-breakpoint
CREATE TRIGGER "retirements_ledger_update" AFTER UPDATE ON "retirements" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_retirements_update"();--> statement-breakpoint
CREATE TRIGGER "retirements_ledger_delete" AFTER DELETE ON "retirements" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_retirements_delete"();--> statement-breakpoint
CREATE TRIGGER "retirements_ledger_truncate" AFTER TRUNCATE ON "retirements"
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_ledger_recompute_all"();--> statement-breakpoint
-- The figures of the budgets already stored. CREATE TRIGGER above locked both tables against
-- writes until this migration commits, so this sees every committed write and the triggers every later one.
UPDATE "budgets" SET "committed" = budget_committed_recomputed("id");
