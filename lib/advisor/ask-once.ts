// One question to the trader's own model, outside a conversation (the import mapping's suggestion, the weekly
// digest's reading): the stored key of that provider, its default model unless one is named, through the same
// seam as the advisor (deps.model), metered like a turn when billing is on (a hold placed for the most it may
// cost, settled with what it used, released when it used nothing).
import { placeHold, releaseHold, settleHold, type Hold } from "../billing/wallet.ts";
import { EnvelopeError } from "../crypto/envelope.ts";
import type { Deps } from "../deps.ts";
import { AppError } from "../errors.ts";
import { providerKeyWithModel } from "../keys/keys.ts";
import type { ModelCall, ProviderFailure } from "./model.ts";
import { creditsFor, priceOf } from "./prices.ts";
import { baseUrlOf, type ModelProvider } from "../providers/providers.ts";
import { PROVIDER_NAMES } from "../providers/schema.ts";

export type Question = {
  provider: ModelProvider;
  model?: string | undefined;
  instructions: string;
  text: string;
  maxOutputTokens: number;
  /** Stops the call (a timeout): what was answered so far is returned, with `finished` false. */
  signal: AbortSignal;
};

export type Answer = { text: string; model: string; finished: boolean; failure: ProviderFailure | null };

/**
 * Asks once. Throws 503 without the model seam, 409 PROVIDER_KEY_REQUIRED without a key of that provider, and
 * with billing on 409 MODEL_NOT_PRICED or 402 INSUFFICIENT_CREDITS as a turn does; a provider failure or an
 * aborted call is in the answer, not thrown.
 */
export async function askOnce(deps: Pick<Deps, "db" | "config" | "now" | "log" | "model">, userId: string, question: Question): Promise<Answer> {
  if (!deps.model) throw new AppError("SERVICE_UNAVAILABLE", "The advisor is not available on this server.");
  let key: { apiKey: string; defaultModel: string } | null;
  try {
    key = await providerKeyWithModel(deps, userId, question.provider);
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    deps.log.error("stored key does not decrypt", { provider: question.provider, reason: err.reason, keyId: err.keyId });
    key = null;
  }
  if (!key) throw new AppError("PROVIDER_KEY_REQUIRED", `Save your ${PROVIDER_NAMES[question.provider]} key in Settings > Advisor keys to ask your model.`);
  const model = question.model ?? key.defaultModel;
  const price = priceOf(deps.config.modelPrices, question.provider, model);
  if (deps.config.features.billing && !price) {
    throw new AppError("MODEL_NOT_PRICED", `The model ${model} has no price on this instance, so it cannot be metered. Pick another model.`);
  }
  const call: ModelCall = {
    provider: question.provider,
    model,
    baseURL: baseUrlOf(deps.config, question.provider),
    apiKey: key.apiKey,
    instructions: question.instructions,
    messages: [{ role: "user", content: question.text }],
    maxSteps: 1,
    maxOutputTokens: question.maxOutputTokens,
  };
  const holdId = crypto.randomUUID();
  let hold: Hold | null = null;
  if (deps.config.features.billing && price) {
    const inputTokens = Math.ceil((question.instructions.length + question.text.length) / 3);
    hold = await placeHold(deps, userId, holdId, creditsFor(price, inputTokens, question.maxOutputTokens, deps.config.PRICING_MARKUP));
  }
  const answer: Answer = { text: "", model, finished: false, failure: null };
  const usage = { input: 0, output: 0 };
  try {
    const noTools = async () => ({ ok: false as const, message: "No tools in this call." });
    for await (const part of deps.model(call, noTools, question.signal)) {
      if (part.type === "text") answer.text += part.text;
      else if (part.type === "step") {
        usage.input += part.inputTokens;
        usage.output += part.outputTokens;
      } else if (part.type === "finish") answer.finished = true;
      else if (part.type === "error") answer.failure ??= part.failure;
    }
  } catch (err) {
    // An aborted call (the timeout) ends the stream with an error: the answer so far stands, unfinished.
    if (!question.signal.aborted) throw err;
  } finally {
    if (hold && price) {
      const used = creditsFor(price, usage.input, usage.output, deps.config.PRICING_MARKUP);
      await (used > 0 ? settleHold(deps, holdId, used) : releaseHold(deps, holdId)).catch((err: unknown) =>
        deps.log.error("could not end the hold of a one-off model call", { error: err instanceof Error ? err.message : String(err) }),
      );
    }
  }
  return answer;
}
