CREATE TABLE "exchange_rate_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"old_rate" numeric(18, 6),
	"new_rate" numeric(18, 6) NOT NULL,
	"actor_id" uuid NOT NULL,
	"actor_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exchange_rate_changes" ADD CONSTRAINT "exchange_rate_changes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_rate_changes" ADD CONSTRAINT "exchange_rate_changes_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_rate_changes_organization_idx" ON "exchange_rate_changes" USING btree ("organization_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);