// The advisor's conversations (docs/advisor.md). One of lib/db/schema.ts's files (a file per domain).
import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";

/** Advisor conversations; `turnId`/`turnUntil` hold the one turn allowed at a time (claimed by a conditional update). */
export const advisorConversations = pgTable(
  "advisor_conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    /** A summary of the messages before `summaryUntil`, sent instead of them once the history nears the context window. */
    summary: text("summary"),
    summaryUntil: timestamp("summary_until", { withTimezone: true }),
    turnId: uuid("turn_id"),
    turnUntil: timestamp("turn_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("advisor_conversations_user_idx").on(t.userId, t.updatedAt, t.id)],
);

export const advisorMessages = pgTable(
  "advisor_messages",
  {
    id: uuid("id").primaryKey(),
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => advisorConversations.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    text: text("text").notNull().default(""),
    /** [{id, name, arguments, summary, ok}] */
    toolCalls: jsonb("tool_calls").notNull().default(sql`'[]'::jsonb`),
    /** {inputTokens, outputTokens, credits?} */
    usage: jsonb("usage"),
    status: text("status", { enum: ["complete", "incomplete", "failed"] }).notNull(),
    finishReason: text("finish_reason"),
    /** The client's id of a user message: the same id sent again replays the answer (per conversation). */
    clientMessageId: uuid("client_message_id"),
    /** For an answer: the user message it answers. */
    replyTo: uuid("reply_to"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("advisor_messages_conversation_idx").on(t.conversationId, t.createdAt, t.id),
    uniqueIndex("advisor_messages_client_idx").on(t.conversationId, t.clientMessageId).where(sql`${t.clientMessageId} is not null`),
    check("advisor_messages_role_known", sql`${t.role} in ('user', 'assistant')`),
    check("advisor_messages_status_known", sql`${t.status} in ('complete', 'incomplete', 'failed')`),
  ],
);

/** Per-user advisor settings: whether journal data may be sent to the model provider (off until turned on). */
export const advisorSettings = pgTable("advisor_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  shareJournal: boolean("share_journal").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
