CREATE TABLE "stored_keys" (
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"ciphertext" text NOT NULL,
	"key_id" text NOT NULL,
	"key_hint" text NOT NULL,
	"default_model" text,
	"verified" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_keys_user_id_provider_pk" PRIMARY KEY("user_id","provider"),
	CONSTRAINT "stored_keys_provider_known" CHECK ("stored_keys"."provider" in ('openai', 'anthropic', 'gemini', 'openrouter', 'market-data'))
);
--> statement-breakpoint
ALTER TABLE "stored_keys" ADD CONSTRAINT "stored_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_keys_key_id_idx" ON "stored_keys" USING btree ("key_id");