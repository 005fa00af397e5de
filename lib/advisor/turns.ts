// A turn of an advisor conversation (DESIGN.md section 9): refusals before any stream (404, 409
// PROVIDER_KEY_REQUIRED, 409 MODEL_NOT_PRICED, 409 TURN_IN_PROGRESS, 402 INSUFFICIENT_CREDITS), then the
// provider's answer streamed as events: start, delta, tool_call, tool_result, usage, done | error. One turn per
// conversation at a time (a claim in the database, so it holds across processes and Workers); the same
// clientMessageId replays the stored answer with no provider call or charge; a client that goes away stops
// the provider call, the partial answer is kept as incomplete and only what was used is charged; the whole
// turn has ADVISOR_TURN_BUDGET_MS (480 s). Metering, when billing is on: a hold of the turn's worst case before
// the call, generation stopped when the running cost reaches it, the cost charged and the rest released.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { track } from "../analytics/index.ts";
import { toJSONSchema } from "zod/mini";
import type { AuthUser } from "../auth/session.ts";
import { releaseHold, settleHold, placeHold, type Hold } from "../billing/wallet.ts";
import { databaseErrorForLog, pgError, UNIQUE_VIOLATION } from "../db/errors.ts";
import { advisorConversations, advisorMessages, storedKeys } from "../db/schema.ts";
import { rowsOf } from "../db/rows.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { EnvelopeError } from "../crypto/envelope.ts";
import { DEFAULT_TITLE, findConversation, getSettings, type ToolCallRecord, type Usage } from "./conversations.ts";
import { providerKeyOf } from "../keys/keys.ts";
import { providerFailure, type CallTool, type ModelCall, type ModelPart } from "./model.ts";
import type { ModelPrice } from "../config/prices.ts";
import { creditsFor, priceOf } from "./prices.ts";
import { PROVIDER_NAMES } from "../providers/schema.ts";
import type { TurnInput } from "./schema.ts";
import { accountsForPrompt, hasQuotes, journalTools, MAX_RESULT_CHARS } from "./tools.ts";
import { baseUrlOf } from "../providers/providers.ts";
import type { ModelProvider } from "../providers/providers.ts";

/** Model calls in one turn (tool rounds included), and the output tokens allowed per call. */
export const MAX_STEPS = 5;
export const MAX_OUTPUT_TOKENS = 1500;
/** The history is summarised once it would fill this share of the model's context window. */
const SUMMARY_THRESHOLD = 0.6;
/** Messages kept word for word after a summary. */
const KEEP_AFTER_SUMMARY = 4;

export type TurnEvent =
  | { event: "start"; data: { messageId: string; reservedCredits?: number } }
  | { event: "delta"; data: { text: string } }
  | { event: "tool_call"; data: { id: string; name: string; arguments: unknown } }
  | { event: "tool_result"; data: { id: string; name: string; ok: boolean; summary: string } }
  | { event: "usage"; data: Usage }
  | { event: "done"; data: { messageId: string; finishReason: string } }
  | { event: "error"; data: { code: string; message: string } };

type Conversation = typeof advisorConversations.$inferSelect;
type Message = typeof advisorMessages.$inferSelect;

export type PreparedTurn =
  | { kind: "replay"; events: TurnEvent[] }
  | {
      kind: "run";
      user: AuthUser;
      conversation: Conversation;
      replyId: string;
      text: string;
      apiKey: string;
      price: ModelPrice | null;
      hold: Hold | null;
      share: boolean;
      history: Message[];
    };

/** Roughly four characters a token: what the hold, the running cost and an interrupted step are estimated with. */
export const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** The stored answer to a clientMessageId, as the events that streamed it. */
function replayEvents(reply: Message): TurnEvent[] {
  const events: TurnEvent[] = [{ event: "start", data: { messageId: reply.id } }];
  for (const call of reply.toolCalls as ToolCallRecord[]) {
    events.push({ event: "tool_call", data: { id: call.id, name: call.name, arguments: call.arguments } });
    events.push({ event: "tool_result", data: { id: call.id, name: call.name, ok: call.ok, summary: call.summary } });
  }
  if (reply.text) events.push({ event: "delta", data: { text: reply.text } });
  if (reply.usage) events.push({ event: "usage", data: reply.usage as Usage });
  events.push(
    reply.status === "failed"
      ? { event: "error", data: { code: reply.finishReason ?? "PROVIDER_ERROR", message: "The answer to this message failed." } }
      : { event: "done", data: { messageId: reply.id, finishReason: reply.finishReason ?? "stop" } },
  );
  return events;
}

async function replyTo(deps: Pick<Deps, "db">, conversationId: string, clientMessageId: string): Promise<Message | null | undefined> {
  const [asked] = await deps.db
    .select()
    .from(advisorMessages)
    .where(and(eq(advisorMessages.conversationId, conversationId), eq(advisorMessages.clientMessageId, clientMessageId)));
  if (!asked) return undefined;
  const [reply] = await deps.db.select().from(advisorMessages).where(eq(advisorMessages.replyTo, asked.id));
  return reply ?? null;
}

/** Why a model stops on its own (the AI SDK's finish reasons other than "error", "other" and the like). */
const MODEL_FINISH_REASONS = new Set(["stop", "length", "content-filter", "tool-calls"]);

/**
 * A conversation's claim is a lease of ADVISOR_CLAIM_LEASE_MS (a minute), renewed by its running turn every
 * half of it: a turn that ends without its closing writes, or whose process dies, frees the conversation
 * within a minute, not after the whole turn budget.
 */
const claimLeaseMs = (deps: Pick<Deps, "config">) => deps.config.ADVISOR_CLAIM_LEASE_MS;
const leaseFrom = (deps: Pick<Deps, "config" | "now">) => new Date(deps.now().getTime() + claimLeaseMs(deps));

const inProgress = () => new AppError("TURN_IN_PROGRESS", "This conversation is answering a message already. Wait for it, or stop it, and try again.");

function turnBudgetMs(deps: Pick<Deps, "config">): number {
  return deps.config.ADVISOR_TURN_BUDGET_MS;
}

/** The turn's worst case in credits: every step at the largest prompt it can reach and the most output. */
function worstCase(price: ModelPrice, promptChars: number, markup: string): number {
  const prompt = Math.ceil(promptChars / 3);
  let input = 0;
  for (let step = 0; step < MAX_STEPS; step++) input += prompt + step * Math.ceil(MAX_RESULT_CHARS / 3);
  return creditsFor(price, input, MAX_STEPS * MAX_OUTPUT_TOKENS, markup);
}

/** Everything a turn checks before its stream opens; a refusal throws and leaves nothing behind. */
export async function prepareTurn(
  deps: Pick<Deps, "db" | "config" | "now" | "log">,
  user: AuthUser,
  conversationId: string,
  input: TurnInput,
): Promise<PreparedTurn> {
  const conversation = await findConversation(deps, user, conversationId);
  const earlier = await replyTo(deps, conversation.id, input.clientMessageId);
  if (earlier !== undefined) {
    if (!earlier || (conversation.turnId === earlier.id && conversation.turnUntil && conversation.turnUntil > deps.now())) throw inProgress();
    return { kind: "replay", events: replayEvents(earlier) };
  }
  const provider = conversation.provider as ModelProvider;
  let apiKey: string | null;
  try {
    apiKey = await providerKeyOf(deps, user.id, provider);
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    deps.log.error("stored key does not decrypt", { provider, reason: err.reason, keyId: err.keyId });
    apiKey = null;
  }
  if (!apiKey) {
    throw new AppError("PROVIDER_KEY_REQUIRED", `This conversation uses ${PROVIDER_NAMES[provider]}: save your ${PROVIDER_NAMES[provider]} key in Settings > Advisor keys.`);
  }
  const metered = deps.config.features.billing;
  const price = priceOf(deps.config.modelPrices, provider, conversation.model);
  if (metered && !price) {
    throw new AppError("MODEL_NOT_PRICED", `The model ${conversation.model} has no price on this instance, so it cannot be metered. Pick another model for this conversation.`);
  }
  const history = await deps.db
    .select()
    .from(advisorMessages)
    .where(
      and(
        eq(advisorMessages.conversationId, conversation.id),
        conversation.summaryUntil ? gt(advisorMessages.createdAt, conversation.summaryUntil) : undefined,
      ),
    )
    .orderBy(asc(advisorMessages.createdAt), asc(advisorMessages.id));
  const share = (await getSettings(deps, user)).shareJournal;

  const replyId = crypto.randomUUID();
  const claimed = await deps.db
    .update(advisorConversations)
    .set({ turnId: replyId, turnUntil: leaseFrom(deps) })
    .where(
      and(
        eq(advisorConversations.id, conversation.id),
        eq(advisorConversations.userId, user.id),
        sql`(${advisorConversations.turnId} is null or ${advisorConversations.turnUntil} < ${deps.now().toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: advisorConversations.id });
  if (!claimed[0]) throw inProgress();
  const release = () => releaseClaim(deps, conversation.id, replyId);

  let hold: Hold | null = null;
  try {
    if (metered && price) {
      const promptChars = history.reduce((n, m) => n + m.text.length, 0) + (conversation.summary?.length ?? 0) + input.text.length + 4000;
      hold = await placeHold(deps, user.id, replyId, worstCase(price, promptChars, deps.config.PRICING_MARKUP));
    }
    const now = deps.now();
    const askedId = crypto.randomUUID();
    await deps.db.insert(advisorMessages).values([
      { id: askedId, conversationId: conversation.id, role: "user", text: input.text, status: "complete", clientMessageId: input.clientMessageId, createdAt: now },
      { id: replyId, conversationId: conversation.id, role: "assistant", text: "", status: "incomplete", replyTo: askedId, createdAt: new Date(now.getTime() + 1) },
    ]);
    await renewClaim(deps, conversation.id, replyId);
  } catch (err) {
    // With the database gone these fail too: the hold then expires through the job and the lease lapses.
    if (hold) await releaseHold(deps, replyId).catch(logCleanup(deps, "release the hold"));
    await release().catch(logCleanup(deps, "release the conversation"));
    // The same clientMessageId raced in from another request: that one is answering it.
    if (pgError(err)?.code === UNIQUE_VIOLATION) throw inProgress();
    throw err;
  }
  return { kind: "run", user, conversation, replyId, text: input.text, apiKey, price, hold, share, history };
}

/** A clean-up that failed (the database gone, most likely): logged; the hold expires and the claim lapses. */
const logCleanup = (deps: Pick<Deps, "log">, what: string) => (err: unknown) =>
  deps.log.warn(`advisor turn could not ${what}`, { error: err instanceof Error ? err.name : "unknown", ...databaseErrorForLog(err) });

/** The claim's lease from now on, while it is still this turn's. */
async function renewClaim(deps: Pick<Deps, "db" | "config" | "now">, conversationId: string, replyId: string): Promise<void> {
  await deps.db
    .update(advisorConversations)
    .set({ turnUntil: leaseFrom(deps) })
    .where(and(eq(advisorConversations.id, conversationId), eq(advisorConversations.turnId, replyId)));
}

async function releaseClaim(deps: Pick<Deps, "db">, conversationId: string, replyId: string): Promise<void> {
  await deps.db
    .update(advisorConversations)
    .set({ turnId: null, turnUntil: null, updatedAt: new Date() })
    .where(and(eq(advisorConversations.id, conversationId), eq(advisorConversations.turnId, replyId)));
}

function systemPrompt(today: Date, accounts: Array<{ id: string; name: string; currency: string; timezone: string }>, share: boolean, summary: string | null): string {
  const lines = [
    "You are the advisor of a trading journal. You help one trader understand their own trading record, plainly and briefly.",
    `Today is ${today.toISOString().slice(0, 10)} (${today.toISOString()}).`,
    accounts.length
      ? `The trader's accounts:\n${accounts.map((a) => `- "${a.name}" (id ${a.id}): currency ${a.currency}, time zone ${a.timezone}`).join("\n")}`
      : "The trader has no accounts yet.",
  ];
  if (share) {
    lines.push(
      "Use the tools to read the trader's journal. Every figure you state (P&L, win rate, prices, counts, dates) must come from a tool result in this conversation: never compute, add up or estimate figures yourself; if no tool gives a figure, say so.",
      "Times in the journal are in each account's time zone; trading days are that zone's days.",
      "Amounts in different currencies are never added up: when the accounts use more than one currency, read the statistics per account or per currency (the tools' currency argument) and say which currency each figure is in.",
      "When you mention a trade, link it as [SYMBOL YYYY-MM-DD](trade:TRADE_ID) with the id from a tool result.",
    );
  } else {
    lines.push(
      "The trader has not allowed their journal data to be sent to the model provider, so you cannot see their trades, statistics or cash. Answer general questions about trading and journaling only; when a question needs their data, say that turning on \"Share my journal with the advisor\" on the advisor page lets you read it.",
    );
  }
  if (summary) lines.push(`Summary of the earlier part of this conversation:\n${summary}`);
  return lines.join("\n\n");
}

export { providerFailure };

type Tally = { input: number; output: number };

/** One model call without tools (the summary of a long conversation); its usage is the turn's. */
async function summarise(deps: Pick<Deps, "model">, base: Omit<ModelCall, "instructions" | "messages" | "tools">, messages: Message[], signal: AbortSignal, tally: Tally): Promise<string> {
  const transcript = messages.map((m) => `${m.role === "user" ? "Trader" : "Advisor"}: ${m.text}`).join("\n\n");
  const call: ModelCall = {
    ...base,
    instructions: "Summarise this conversation between a trader and their journal advisor in under 300 words. Keep every figure, date, symbol and trade id that was mentioned.",
    messages: [{ role: "user", content: transcript }],
    maxOutputTokens: 800,
  };
  let text = "";
  for await (const part of modelOf(deps)(call, noTools, signal)) {
    if (part.type === "text") text += part.text;
    else if (part.type === "step") {
      tally.input += part.inputTokens;
      tally.output += part.outputTokens;
    } else if (part.type === "error") throw new ProviderError(part.failure);
  }
  return text.trim();
}

class ProviderError extends Error {
  readonly failure: ReturnType<typeof providerFailure>;
  constructor(failure: ReturnType<typeof providerFailure>) {
    super(failure.message);
    this.failure = failure;
  }
}

const noTools: CallTool = async () => ({ ok: false, message: "No tools in this call." });

function modelOf(deps: Pick<Deps, "model">) {
  if (!deps.model) throw new AppError("SERVICE_UNAVAILABLE", "The advisor is not available on this server.");
  return deps.model;
}

/**
 * Runs a prepared turn, handing each event to `emit`. `signal` aborts when the client goes away. Always ends
 * the turn: the answer stored (complete, incomplete or failed), the hold settled, the claim released.
 */
export async function runTurn(
  deps: Pick<Deps, "db" | "config" | "now" | "log" | "fetch" | "model" | "analytics" | "defer">,
  turn: Extract<PreparedTurn, { kind: "run" }>,
  emit: (e: TurnEvent) => Promise<void>,
  clientGone: AbortSignal,
): Promise<void> {
  const { conversation, replyId, hold, price, user } = turn;
  const provider = conversation.provider as ModelProvider;
  const stop = new AbortController();
  let stopReason: "client" | "budget" | "credits" | null = null;
  const halt = (reason: "client" | "budget" | "credits") => {
    stopReason ??= reason;
    stop.abort();
  };
  const onGone = () => halt("client");
  clientGone.addEventListener("abort", onGone);
  const budget = setTimeout(() => halt("budget"), turnBudgetMs(deps));
  // The claim stays this turn's while it runs and stores its end; a renewal the database misses is logged
  // and the next one tries again.
  const renewal = setInterval(() => void renewClaim(deps, conversation.id, replyId).catch(logCleanup(deps, "renew the conversation's claim")), claimLeaseMs(deps) / 2);
  const send = async (e: TurnEvent) => {
    if (stopReason === "client") return;
    try {
      await emit(e);
    } catch {
      halt("client");
    }
  };

  let text = "";
  let stepText = 0;
  let stepPromptChars = 0;
  const tally: Tally = { input: 0, output: 0 };
  const calls: ToolCallRecord[] = [];
  let finishReason: string | null = null;
  let failure: ReturnType<typeof providerFailure> | null = null;
  const metered = hold !== null && price !== null;
  const running = () => (metered ? creditsFor(price!, tally.input + estimateTokens(stepPromptChars), tally.output + estimateTokens(stepText), deps.config.PRICING_MARKUP) : 0);

  try {
    await send({ event: "start", data: { messageId: replyId, ...(hold ? { reservedCredits: hold.amount } : {}) } });
    const base = { provider, model: conversation.model, baseURL: baseUrlOf(deps.config, provider), apiKey: turn.apiKey, maxSteps: MAX_STEPS, maxOutputTokens: MAX_OUTPUT_TOKENS };

    // A long conversation is summarised (one more call, metered like the rest) instead of failing.
    let history = turn.history;
    let summary = conversation.summary;
    const context = price?.contextTokens ?? 128_000;
    const historyTokens = estimateTokens(history.reduce((n, m) => n + m.text.length, 0) + (summary?.length ?? 0) + turn.text.length);
    if (historyTokens > context * SUMMARY_THRESHOLD && history.length > KEEP_AFTER_SUMMARY) {
      const older = history.slice(0, -KEEP_AFTER_SUMMARY);
      const kept = history.slice(-KEEP_AFTER_SUMMARY);
      const earlier = summary ? [{ role: "assistant", text: `(Earlier summary) ${summary}` } as Message, ...older] : older;
      summary = await summarise(deps, base, earlier, stop.signal, tally);
      await deps.db
        .update(advisorConversations)
        .set({ summary, summaryUntil: older.at(-1)!.createdAt })
        .where(eq(advisorConversations.id, conversation.id));
      history = kept;
    }

    const accounts = await accountsForPrompt(deps, user);
    const instructions = systemPrompt(deps.now(), accounts, turn.share, summary);
    const messages: ModelCall["messages"] = [
      ...history.filter((m) => m.text.trim() !== "").map((m) => ({ role: m.role, content: m.text })),
      { role: "user", content: turn.text },
    ];
    const tools = turn.share ? journalTools(deps, user, { quotes: await hasQuotes(deps, user.id) }) : undefined;
    const call: ModelCall = {
      ...base,
      instructions,
      messages,
      ...(tools ? { tools: Object.entries(tools).map(([name, t]) => ({ name, description: t.description, inputSchema: toJSONSchema(t.inputSchema) as Record<string, unknown> })) } : {}),
    };
    // Each tool runs here, on the journal, its arguments checked by its own schema.
    const callTool: CallTool = async (name, input) => {
      const t = tools?.[name];
      const args = t?.inputSchema.safeParse(input);
      if (!t || !args?.success) return { ok: false, message: `Could not read that: the arguments of ${name} are not valid.` };
      try {
        return { ok: true, output: await t.execute(args.data as never) };
      } catch (err) {
        if (err instanceof AppError) return { ok: false, message: `Could not read that: ${err.message}` };
        deps.log.error("advisor tool failed", { tool: name, error: err instanceof Error ? err.name : "unknown" });
        return { ok: false, message: "The journal could not be read for this." };
      }
    };
    const promptChars = instructions.length + JSON.stringify(messages).length + (tools ? 6000 : 0);
    stepPromptChars = promptChars;
    if (metered && running() >= hold!.amount) halt("credits");

    const parts: AsyncIterable<ModelPart> | ModelPart[] = stopReason ? [] : modelOf(deps)(call, callTool, stop.signal);
    for await (const part of parts) {
      switch (part.type) {
        case "text":
          text += part.text;
          stepText += part.text.length;
          await send({ event: "delta", data: { text: part.text } });
          if (metered && running() >= hold!.amount) halt("credits");
          break;
        case "tool-call":
          calls.push({ id: part.id, name: part.name, arguments: part.input, summary: "", ok: false });
          await send({ event: "tool_call", data: { id: part.id, name: part.name, arguments: part.input } });
          break;
        case "tool-result": {
          const record = calls.find((c) => c.id === part.id);
          if (record) Object.assign(record, { summary: part.summary, ok: true });
          stepPromptChars += part.dataChars;
          await send({ event: "tool_result", data: { id: part.id, name: part.name, ok: true, summary: part.summary } });
          break;
        }
        case "tool-error": {
          const record = calls.find((c) => c.id === part.id);
          if (record) Object.assign(record, { summary: part.message, ok: false });
          await send({ event: "tool_result", data: { id: part.id, name: part.name, ok: false, summary: part.message } });
          break;
        }
        case "step":
          tally.input += part.inputTokens;
          tally.output += part.outputTokens;
          stepText = 0;
          stepPromptChars = promptChars + calls.length * 1000;
          break;
        case "finish":
          finishReason = part.finishReason;
          break;
        case "error":
          failure = part.failure;
          deps.log.warn("provider stream error", { provider, code: failure.code });
          break;
      }
      if (stopReason) break;
    }
  } catch (err) {
    if (!stopReason) {
      failure = err instanceof ProviderError ? err.failure : err instanceof AppError ? { code: err.code, message: err.message } : providerFailure(err);
      deps.log.warn("advisor turn failed", { provider, error: err instanceof Error ? err.name : "unknown", code: failure.code });
    }
  } finally {
    clearTimeout(budget);
    clientGone.removeEventListener("abort", onGone);
  }

  // A stream that ended with nothing in it and no reason a model gives (a proxy's error page served with
  // 200 instead of the provider's stream) is a failure, not an empty answer.
  if (finishReason !== null && !stopReason && !text && calls.length === 0 && !MODEL_FINISH_REASONS.has(finishReason)) {
    deps.log.warn("provider stream unreadable", { provider, finishReason });
    failure ??= { code: "PROVIDER_ERROR", message: "The provider's answer could not be read. Try again in a moment." };
    finishReason = null;
  }
  // What the last, interrupted step used is estimated; finished steps report their own usage.
  // (A provider that refused the call outright charged nothing and is charged nothing.)
  if (stopReason !== null || (!finishReason && text.length > 0)) {
    tally.input += estimateTokens(stepPromptChars);
    tally.output += estimateTokens(stepText);
  }
  const used = metered ? Math.min(creditsFor(price!, tally.input, tally.output, deps.config.PRICING_MARKUP), hold!.amount) : undefined;
  const usage: Usage = { inputTokens: tally.input, outputTokens: tally.output, ...(used !== undefined ? { credits: used } : {}) };
  const completed = finishReason !== null && !stopReason;
  const status = completed ? "complete" : failure && !stopReason && !text ? "failed" : "incomplete";
  const ending = stopReason === "credits" ? "credit_limit" : stopReason === "budget" ? "TURN_TIMEOUT" : stopReason === "client" ? "client_disconnected" : completed ? finishReason! : (failure?.code ?? "PROVIDER_ERROR");

  let stored = true;
  try {
    await deps.db
      .update(advisorMessages)
      .set({ text, toolCalls: calls, usage, status, finishReason: ending })
      .where(eq(advisorMessages.id, replyId));
    if (conversation.title === DEFAULT_TITLE && turn.history.filter((m) => m.role === "user").length === 0) {
      const title = turn.text.replace(/\s+/g, " ").trim().slice(0, 60);
      await deps.db.update(advisorConversations).set({ title }).where(and(eq(advisorConversations.id, conversation.id), eq(advisorConversations.title, DEFAULT_TITLE)));
    }
    if (failure?.keyRefused) {
      await deps.db.update(storedKeys).set({ verified: false }).where(and(eq(storedKeys.userId, user.id), eq(storedKeys.provider, provider)));
    }
    if (hold) await settleHold(deps, replyId, used ?? 0);
  } catch (err) {
    // The database went away during the turn: an unsettled hold expires through the job (nothing charged),
    // the answer stays stored as it was when the turn began (incomplete) and the claim lapses.
    stored = false;
    deps.log.error("advisor turn could not be stored", { provider, error: err instanceof Error ? err.name : "unknown", ...databaseErrorForLog(err) });
  } finally {
    clearInterval(renewal);
    await releaseClaim(deps, conversation.id, replyId).catch(logCleanup(deps, "release the conversation"));
  }
  if (!stored) {
    await send({
      event: "error",
      data: { code: "SERVICE_UNAVAILABLE", message: "This answer could not be saved: the journal's database is unreachable. Credits set aside for it and not charged come back on their own; try again in a moment." },
    });
    return;
  }
  track(deps, "advisor turn", user.id, {
    provider,
    model: conversation.model,
    status,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    credits: used ?? null,
    toolCalls: calls.length,
  });

  await send({ event: "usage", data: usage });
  if (stopReason === "budget") {
    await send({ event: "error", data: { code: "TURN_TIMEOUT", message: "The answer took longer than the turn's time limit; what was written so far is kept." } });
  } else if (completed || stopReason === "credits" || (!failure && text)) {
    await send({ event: "done", data: { messageId: replyId, finishReason: ending } });
  } else {
    await send({ event: "error", data: failure ?? { code: "PROVIDER_ERROR", message: "The provider could not answer." } });
  }
}

/** Counts what a user's turns used (for tests and the admin console). */
export async function turnsOf(deps: Pick<Deps, "db">, userId: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await deps.db.execute(sql`select count(*)::int as n from advisor_messages m join advisor_conversations c on c.id = m.conversation_id
      where c.user_id = ${userId} and m.role = 'assistant'`),
  );
  return row?.n ?? 0;
}
