-- Trade screenshots (trade_images): inline bytes or an object in storage, never both. The trigger that
-- queues a stored object's key when its row goes is in migrations/functions/trades.
CREATE TABLE "trade_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"data" "bytea",
	"storage_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_images_one_place" CHECK (("trade_images"."data" is null) <> ("trade_images"."storage_key" is null)),
	CONSTRAINT "trade_images_type" CHECK ("trade_images"."content_type" in ('image/png', 'image/jpeg', 'image/webp')),
	CONSTRAINT "trade_images_bytes" CHECK ("trade_images"."bytes" > 0)
);
--> statement-breakpoint
ALTER TABLE "trade_images" ADD CONSTRAINT "trade_images_position_id_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."positions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_images" ADD CONSTRAINT "trade_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trade_images_position_idx" ON "trade_images" USING btree ("position_id","created_at");--> statement-breakpoint
-- Images are compressed already: store them out of line without trying to compress them again.
ALTER TABLE "trade_images" ALTER COLUMN "data" SET STORAGE EXTERNAL;