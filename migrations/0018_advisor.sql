CREATE TABLE "advisor_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"summary" text,
	"summary_until" timestamp with time zone,
	"turn_id" uuid,
	"turn_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "advisor_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"usage" jsonb,
	"status" text NOT NULL,
	"finish_reason" text,
	"client_message_id" uuid,
	"reply_to" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "advisor_messages_role_known" CHECK ("advisor_messages"."role" in ('user', 'assistant')),
	CONSTRAINT "advisor_messages_status_known" CHECK ("advisor_messages"."status" in ('complete', 'incomplete', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "advisor_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"share_journal" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advisor_conversations" ADD CONSTRAINT "advisor_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advisor_messages" ADD CONSTRAINT "advisor_messages_conversation_id_advisor_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."advisor_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advisor_settings" ADD CONSTRAINT "advisor_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advisor_conversations_user_idx" ON "advisor_conversations" USING btree ("user_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "advisor_messages_conversation_idx" ON "advisor_messages" USING btree ("conversation_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "advisor_messages_client_idx" ON "advisor_messages" USING btree ("conversation_id","client_message_id") WHERE "advisor_messages"."client_message_id" is not null;