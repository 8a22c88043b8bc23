-- Counts of each organisation's budgets by department (budget_department_counts in
-- src/db/schema.ts), kept by triggers on budgets as migration 0006 keeps the requests' counts: the
-- budget list reads a few rows for its total instead of counting the organisation's budgets on
-- every call. Every request's ledger update rewrites its budget's row, so under writes that count
-- visited each budget's row in the table rather than the index alone (2,000 budgets: 2,415 heap
-- fetches a call, bench/results.md). Rows are deltas: a writer only inserts, so no two writers wait
-- on one counter row. Only a change of department (or organisation) moves a budget between counts:
-- the update trigger is a row trigger on those columns, so the ledger's updates never fire it.
-- Writers wait until this migration commits, so the count below sees every committed write and the
-- triggers every later one.
LOCK TABLE "budgets" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE TABLE "budget_department_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"department" text NOT NULL,
	"budgets" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "budget_department_counts_org_idx" ON "budget_department_counts" USING btree ("organization_id","department");--> statement-breakpoint
CREATE FUNCTION "budget_department_counts_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO budget_department_counts (organization_id, department, budgets)
  SELECT organization_id, department, count(*) FROM inserted GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_department_counts_after_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO budget_department_counts (organization_id, department, budgets)
  VALUES (OLD.organization_id, OLD.department, -1), (NEW.organization_id, NEW.department, 1);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_department_counts_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO budget_department_counts (organization_id, department, budgets)
  SELECT organization_id, department, -count(*) FROM removed GROUP BY 1, 2;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "budget_department_counts_after_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM budget_department_counts;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "budgets_count_insert" AFTER INSERT ON "budgets" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_department_counts_after_insert"();--> statement-breakpoint
CREATE TRIGGER "budgets_count_move" AFTER UPDATE OF "organization_id", "department" ON "budgets"
  FOR EACH ROW
  WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.department IS DISTINCT FROM NEW.department)
  EXECUTE FUNCTION "budget_department_counts_after_move"();--> statement-breakpoint
CREATE TRIGGER "budgets_count_delete" AFTER DELETE ON "budgets" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_department_counts_after_delete"();--> statement-breakpoint
CREATE TRIGGER "budgets_count_truncate" AFTER TRUNCATE ON "budgets"
  FOR EACH STATEMENT EXECUTE FUNCTION "budget_department_counts_after_truncate"();--> statement-breakpoint
-- The budgets already stored.
INSERT INTO "budget_department_counts" ("organization_id", "department", "budgets")
SELECT "organization_id", "department", count(*) FROM "budgets" GROUP BY 1, 2;
