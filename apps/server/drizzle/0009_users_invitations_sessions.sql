ALTER TABLE "password_reset_tokens" ADD COLUMN "purpose" text DEFAULT 'reset' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ((lower("fullname" || ' ' || "email")) gin_trgm_ops) WHERE "users"."deleted_at" IS NULL;