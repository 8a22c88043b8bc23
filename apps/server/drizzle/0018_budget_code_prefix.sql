-- The request form's budget-code lookup (GET budget/codes?search=&limit=, decision 0025): active
-- codes starting with what is typed, read from a few index entries instead of filtering all of an
-- organisation's budgets (2,000 in the load benchmark, 5 ms a call). text_pattern_ops lets LIKE
-- 'prefix%' use the index in any collation (the default operator class needs the C collation).
CREATE INDEX "budgets_active_code_prefix_idx" ON "budgets" USING btree ("organization_id","code" text_pattern_ops) WHERE "budgets"."current_status" = 'active';