CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "approval_matrix_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"start_value" numeric(18, 2) NOT NULL,
	"end_value" numeric(18, 2),
	"description" text DEFAULT '' NOT NULL,
	"user_role" text[] NOT NULL,
	"cascading_notification" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_sequences" (
	"organization_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"last_value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "approval_sequences_organization_id_year_pk" PRIMARY KEY("organization_id","year")
);
--> statement-breakpoint
CREATE TABLE "budget_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"budget_id" uuid NOT NULL,
	"budget_code" text NOT NULL,
	"action" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"code" text NOT NULL,
	"cost_code" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"amount" numeric(18, 2) NOT NULL,
	"department" text DEFAULT 'all' NOT NULL,
	"currency" text NOT NULL,
	"category" text NOT NULL,
	"branch" text NOT NULL,
	"current_status" text DEFAULT 'active' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"organization_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"rate" numeric(18, 6) NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_organization_id_currency_pk" PRIMARY KEY("organization_id","currency")
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chain_id" uuid NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"parent_request" uuid,
	"is_latest" boolean DEFAULT true NOT NULL,
	"request_owner_id" uuid NOT NULL,
	"request_owner_name" text NOT NULL,
	"department" text NOT NULL,
	"purpose" text NOT NULL,
	"mode_of_service" text,
	"name_of_establishment" text,
	"expenditure_date" date NOT NULL,
	"expenditure_justification" text DEFAULT '' NOT NULL,
	"amount_requested" numeric(18, 2) NOT NULL,
	"amount_currency" text NOT NULL,
	"exchange_rate" numeric(18, 6) DEFAULT '1' NOT NULL,
	"amount_base" numeric(18, 2) NOT NULL,
	"budget_id" uuid NOT NULL,
	"budget_code" text NOT NULL,
	"payment_mode" text NOT NULL,
	"tax_status" text NOT NULL,
	"comments" text,
	"current_status" text DEFAULT 'pending' NOT NULL,
	"approval_number" text,
	"file_paths" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"step" integer NOT NULL,
	"reviewer_role" text NOT NULL,
	"reviewer_id" uuid,
	"reviewer_name" text,
	"reviewer_title" text,
	"comments" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reviewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approval_matrix_rows" ADD CONSTRAINT "approval_matrix_rows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_sequences" ADD CONSTRAINT "approval_sequences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_changes" ADD CONSTRAINT "budget_changes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_changes" ADD CONSTRAINT "budget_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_request_owner_id_users_id_fk" FOREIGN KEY ("request_owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_matrix_rows_organization_idx" ON "approval_matrix_rows" USING btree ("organization_id","start_value");--> statement-breakpoint
CREATE INDEX "budget_changes_budget_idx" ON "budget_changes" USING btree ("budget_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_organization_code_key" ON "budgets" USING btree ("organization_id","code");--> statement-breakpoint
CREATE INDEX "budgets_organization_department_idx" ON "budgets" USING btree ("organization_id","department");--> statement-breakpoint
CREATE INDEX "budgets_search_idx" ON "budgets" USING gin ((lower("name" || ' ' || "code")) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "requests_approval_number_key" ON "requests" USING btree ("organization_id","approval_number");--> statement-breakpoint
CREATE UNIQUE INDEX "requests_chain_version_key" ON "requests" USING btree ("chain_id","version");--> statement-breakpoint
CREATE INDEX "requests_org_latest_idx" ON "requests" USING btree ("organization_id","created_at" DESC NULLS LAST) WHERE "requests"."is_latest";--> statement-breakpoint
CREATE INDEX "requests_owner_latest_idx" ON "requests" USING btree ("request_owner_id","created_at" DESC NULLS LAST) WHERE "requests"."is_latest";--> statement-breakpoint
CREATE INDEX "requests_budget_status_idx" ON "requests" USING btree ("budget_id","current_status") WHERE "requests"."is_latest";--> statement-breakpoint
CREATE INDEX "requests_search_idx" ON "requests" USING gin ((lower("purpose" || ' ' || "request_owner_name" || ' ' || coalesce("approval_number", ''))) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_request_step_key" ON "reviews" USING btree ("request_id","step");--> statement-breakpoint
CREATE INDEX "reviews_pending_role_idx" ON "reviews" USING btree ("organization_id","reviewer_role") WHERE "reviews"."status" = 'pending';