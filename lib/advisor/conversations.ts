// Advisor conversations and their messages (DESIGN.md section 9), and the per-user data-sharing setting.
// Another user's conversation is answered exactly like one that does not exist (404).
import { decodeCursor, encodeCursor } from "../db/cursor.ts";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { AuthUser } from "../auth/session.ts";
import { advisorConversations, advisorMessages, advisorSettings, storedKeys } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { FALLBACK_MODELS } from "../providers/models.ts";
import { MARKET_DATA, isModelProvider, type ModelProvider } from "../providers/providers.ts";
import type { ConversationPatch, NewConversation } from "./schema.ts";

type ConversationRow = typeof advisorConversations.$inferSelect;
type MessageRow = typeof advisorMessages.$inferSelect;

export const DEFAULT_TITLE = "New conversation";

export type ToolCallRecord = { id: string; name: string; arguments: unknown; summary: string; ok: boolean };
export type Usage = { inputTokens: number; outputTokens: number; credits?: number };

export function toConversation(row: ConversationRow) {
  return {
    id: row.id,
    title: row.title,
    provider: row.provider as ModelProvider,
    model: row.model,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toMessage(row: MessageRow) {
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    toolCalls: (row.toolCalls as ToolCallRecord[]).map(({ id, name, arguments: args, summary }) => ({ id, name, arguments: args, summary })),
    ...(row.usage ? { usage: row.usage as Usage } : {}),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

const notFound = () => new AppError("NOT_FOUND", "No such conversation.");

export async function findConversation(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<ConversationRow> {
  const [row] = await deps.db
    .select()
    .from(advisorConversations)
    .where(and(eq(advisorConversations.id, id), eq(advisorConversations.userId, user.id)));
  if (!row) throw notFound();
  return row;
}

/** The provider and model a conversation uses: as asked, else the user's first stored key and its default model. */
async function providerAndModel(deps: Pick<Deps, "db">, user: AuthUser, provider: string | undefined, model: string | undefined) {
  const keys = await deps.db
    .select({ provider: storedKeys.provider, defaultModel: storedKeys.defaultModel })
    .from(storedKeys)
    .where(and(eq(storedKeys.userId, user.id), sql`${storedKeys.provider} <> ${MARKET_DATA}`))
    .orderBy(asc(storedKeys.createdAt));
  const key = provider ? keys.find((k) => k.provider === provider) : keys[0];
  if (!key || !isModelProvider(key.provider)) {
    throw new AppError(
      "PROVIDER_KEY_REQUIRED",
      provider
        ? `There is no ${provider} key stored: add one in Settings > Advisor keys, or choose a provider you have a key for.`
        : "Add a model provider key in Settings > Advisor keys before starting a conversation.",
    );
  }
  return { provider: key.provider, model: model ?? key.defaultModel ?? FALLBACK_MODELS[key.provider] };
}

export async function createConversation(deps: Pick<Deps, "db">, user: AuthUser, input: NewConversation) {
  const { provider, model } = await providerAndModel(deps, user, input.provider, input.model);
  const [row] = await deps.db
    .insert(advisorConversations)
    .values({ userId: user.id, title: input.title ?? DEFAULT_TITLE, provider, model })
    .returning();
  return toConversation(row!);
}

/** Newest first (by last activity), 20 at a time. */
export async function listConversations(deps: Pick<Deps, "db">, user: AuthUser, cursor: string | undefined) {
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await deps.db
    .select()
    .from(advisorConversations)
    .where(
      and(
        eq(advisorConversations.userId, user.id),
        after ? sql`(${advisorConversations.updatedAt}, ${advisorConversations.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(advisorConversations.updatedAt), desc(advisorConversations.id))
    .limit(21);
  const page = rows.slice(0, 20);
  const last = page.at(-1);
  return {
    conversations: page.map(toConversation),
    nextCursor: rows.length > 20 && last ? encodeCursor({ at: last.updatedAt.toISOString(), id: last.id }) : null,
  };
}

export async function getConversation(deps: Pick<Deps, "db">, user: AuthUser, id: string) {
  const conversation = await findConversation(deps, user, id);
  const messages = await deps.db
    .select()
    .from(advisorMessages)
    .where(eq(advisorMessages.conversationId, id))
    .orderBy(asc(advisorMessages.createdAt), asc(advisorMessages.id));
  return { conversation: toConversation(conversation), messages: messages.map(toMessage) };
}

/** PATCH: the title, and the provider and model the next turns use. */
export async function updateConversation(deps: Pick<Deps, "db">, user: AuthUser, id: string, patch: ConversationPatch) {
  const current = await findConversation(deps, user, id);
  const next =
    patch.provider !== undefined || patch.model !== undefined
      ? await providerAndModel(deps, user, patch.provider ?? current.provider, patch.model ?? (patch.provider ? undefined : current.model))
      : null;
  const [row] = await deps.db
    .update(advisorConversations)
    .set({ ...(patch.title !== undefined ? { title: patch.title } : {}), ...(next ?? {}), updatedAt: new Date() })
    .where(and(eq(advisorConversations.id, id), eq(advisorConversations.userId, user.id)))
    .returning();
  if (!row) throw notFound();
  return toConversation(row);
}

export async function deleteConversation(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<void> {
  const gone = await deps.db
    .delete(advisorConversations)
    .where(and(eq(advisorConversations.id, id), eq(advisorConversations.userId, user.id)))
    .returning({ id: advisorConversations.id });
  if (!gone[0]) throw notFound();
}

export async function getSettings(deps: Pick<Deps, "db">, user: AuthUser): Promise<{ shareJournal: boolean }> {
  const [row] = await deps.db.select().from(advisorSettings).where(eq(advisorSettings.userId, user.id));
  return { shareJournal: row?.shareJournal ?? false };
}

export async function saveSettings(deps: Pick<Deps, "db">, user: AuthUser, input: { shareJournal: boolean }) {
  await deps.db
    .insert(advisorSettings)
    .values({ userId: user.id, shareJournal: input.shareJournal })
    .onConflictDoUpdate({ target: advisorSettings.userId, set: { shareJournal: input.shareJournal, updatedAt: new Date() } });
  return { shareJournal: input.shareJournal };
}
