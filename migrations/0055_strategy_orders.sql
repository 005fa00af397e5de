-- Option strategies by broker order (issue 53): fills keep the order they belong to (the legs of one multi-leg order make one strategy), and a strategy its playbook.
ALTER TABLE "fills" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "strategies" ADD COLUMN "playbook_id" uuid;--> statement-breakpoint
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_playbook_id_playbooks_id_fk" FOREIGN KEY ("playbook_id") REFERENCES "public"."playbooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fills_account_order_idx" ON "fills" USING btree ("account_id","order_id") WHERE "fills"."order_id" is not null;