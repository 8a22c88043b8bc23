-- The earlier versions of requests on each budget (budgets/queries.ts, hasEarlierRequestVersions):
-- a request resubmitted on another budget leaves its first version on the first budget, whose
-- currency, categories, branch and code then stay frozen (spec §4) and which cannot be deleted.
-- Few rows: only the versions a resubmission replaced.
CREATE INDEX "requests_budget_history_idx" ON "requests" USING btree ("budget_id") WHERE NOT "requests"."is_latest";
