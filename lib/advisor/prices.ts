// What a model costs (DESIGN.md section 9, "Metering"): USD per million input and output tokens, from a
// built-in table (the providers' list prices in late 2026) that MODEL_PRICES overrides. A model without a
// price cannot be used while metering is on (409 MODEL_NOT_PRICED). Credits: 1 credit = 0.01 USD of
// marked-up cost, a turn charged ceil(raw cost x PRICING_MARKUP x 100).
import { toUnits } from "../money.ts";
import { CONTEXT_128K, type ModelPrice, type PriceOverrides } from "../config/prices.ts";
import type { ModelProvider } from "../providers/providers.ts";

/** Families by provider, first match wins (decimal strings: USD per million tokens). */
const BUILT_IN: ReadonlyArray<readonly [ModelProvider, RegExp, ModelPrice]> = [
  ["openai", /^gpt-5(\.\d+)?(-\d{4}-\d{2}-\d{2})?$/, { input: "1.25", output: "10", contextTokens: 400_000 }],
  ["openai", /^gpt-5(\.\d+)?-mini/, { input: "0.25", output: "2", contextTokens: 400_000 }],
  ["openai", /^gpt-5(\.\d+)?-nano/, { input: "0.05", output: "0.4", contextTokens: 400_000 }],
  ["openai", /^gpt-4\.1$/, { input: "2", output: "8", contextTokens: 1_000_000 }],
  ["openai", /^gpt-4\.1-mini/, { input: "0.4", output: "1.6", contextTokens: 1_000_000 }],
  ["openai", /^gpt-4o$/, { input: "2.5", output: "10", contextTokens: CONTEXT_128K }],
  ["openai", /^gpt-4o-mini/, { input: "0.15", output: "0.6", contextTokens: CONTEXT_128K }],
  ["anthropic", /^claude-sonnet-4/, { input: "3", output: "15", contextTokens: 200_000 }],
  ["anthropic", /^claude-opus-4-[5-9]/, { input: "5", output: "25", contextTokens: 200_000 }],
  ["anthropic", /^claude-opus-4/, { input: "15", output: "75", contextTokens: 200_000 }],
  ["anthropic", /^claude-haiku-4/, { input: "1", output: "5", contextTokens: 200_000 }],
  ["anthropic", /^claude-3-5-haiku/, { input: "0.8", output: "4", contextTokens: 200_000 }],
  ["gemini", /^gemini-3(\.\d+)?-pro/, { input: "2", output: "12", contextTokens: 1_000_000 }],
  ["gemini", /^gemini-2\.5-pro/, { input: "1.25", output: "10", contextTokens: 1_000_000 }],
  ["gemini", /^gemini-2\.5-flash-lite/, { input: "0.1", output: "0.4", contextTokens: 1_000_000 }],
  ["gemini", /^gemini-2\.5-flash/, { input: "0.3", output: "2.5", contextTokens: 1_000_000 }],
  ["openrouter", /^anthropic\/claude-sonnet-4/, { input: "3", output: "15", contextTokens: 200_000 }],
  ["openrouter", /^openai\/gpt-5(\.\d+)?$/, { input: "1.25", output: "10", contextTokens: 400_000 }],
  ["openrouter", /^openai\/gpt-5(\.\d+)?-mini/, { input: "0.25", output: "2", contextTokens: 400_000 }],
  ["openrouter", /^google\/gemini-2\.5-pro/, { input: "1.25", output: "10", contextTokens: 1_000_000 }],
  ["openrouter", /^google\/gemini-2\.5-flash/, { input: "0.3", output: "2.5", contextTokens: 1_000_000 }],
];

/** The price of a model: an override, else the built-in table; null when it has none. */
export function priceOf(overrides: PriceOverrides, provider: ModelProvider, model: string): ModelPrice | null {
  const own = overrides[`${provider}:${model}`];
  if (own) return own;
  return BUILT_IN.find(([p, re]) => p === provider && re.test(model))?.[2] ?? null;
}

const SCALE = 10n ** 10n;

/**
 * Credits for a number of tokens: ceil(raw USD x markup x 100), exactly (decimal strings in units of
 * 10^-10). `markup` is PRICING_MARKUP.
 */
export function creditsFor(price: ModelPrice, inputTokens: number, outputTokens: number, markup: string): number {
  // USD x 10^10 per token x 10^6 (prices are per million tokens).
  const cost = BigInt(Math.max(0, Math.ceil(inputTokens))) * toUnits(price.input) + BigInt(Math.max(0, Math.ceil(outputTokens))) * toUnits(price.output);
  // cost / 10^6 USD-units; x markup (units) / 10^10; x 100 credits per USD; / 10^10 to whole credits.
  const numerator = cost * toUnits(markup) * 100n;
  const denominator = 1_000_000n * SCALE * SCALE;
  return Number((numerator + denominator - 1n) / denominator);
}
