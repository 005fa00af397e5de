-- Images of playbooks (examples) and of daily journal entries, kept with trade screenshots in trade_images: a row
-- belongs to exactly one owner (a trade journal, a playbook, or an account's day).
ALTER TABLE "trade_images" ALTER COLUMN "journal_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "trade_images" ADD COLUMN "playbook_id" uuid;--> statement-breakpoint
ALTER TABLE "trade_images" ADD COLUMN "day_account_id" uuid;--> statement-breakpoint
ALTER TABLE "trade_images" ADD COLUMN "day" date;--> statement-breakpoint
ALTER TABLE "trade_images" ADD CONSTRAINT "trade_images_playbook_id_playbooks_id_fk" FOREIGN KEY ("playbook_id") REFERENCES "public"."playbooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_images" ADD CONSTRAINT "trade_images_day_fk" FOREIGN KEY ("day_account_id","day") REFERENCES "public"."day_journals"("account_id","day") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_images_playbook_idx" ON "trade_images" USING btree ("playbook_id","created_at");--> statement-breakpoint
CREATE INDEX "trade_images_day_idx" ON "trade_images" USING btree ("day_account_id","day","created_at");--> statement-breakpoint
ALTER TABLE "trade_images" ADD CONSTRAINT "trade_images_one_owner" CHECK (num_nonnulls("trade_images"."journal_id", "trade_images"."playbook_id", "trade_images"."day_account_id") = 1 and ("trade_images"."day_account_id" is null) = ("trade_images"."day" is null));