// MODEL_PRICES (docs/configuration.md): the operator's prices of models, overriding the built-in table of
// lib/advisor/prices.ts (DESIGN.md section 9, "Metering"); parsed with the rest of the configuration.
import * as z from "zod/mini";

export type ModelPrice = Readonly<{ input: string; output: string; contextTokens: number }>;

export const CONTEXT_128K = 128_000;

const Decimal = z.string().check(z.regex(/^\d{1,6}(\.\d{1,10})?$/, "must be a decimal string of USD per million tokens, such as \"1.25\""));
const OverridesSchema = z.record(
  z.string().check(z.regex(/^(openai|anthropic|gemini|openrouter):[\w.:/@-]{1,200}$/, "must be provider:model, such as \"openai:gpt-5.1\"")),
  z.strictObject({ input: Decimal, output: Decimal, contextTokens: z.optional(z.int().check(z.minimum(1000), z.maximum(10_000_000))) }),
);

export type PriceOverrides = Readonly<Record<string, ModelPrice>>;

/** MODEL_PRICES parsed (`{"openai:gpt-5.1": {"input": "1.25", "output": "10", "contextTokens": 400000}}`), or why not. */
export function parseModelPrices(raw: string): { prices: PriceOverrides } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: 'must be JSON: {"provider:model": {"input": "1.25", "output": "10"}}' };
  }
  const parsed = OverridesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { error: `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}` };
  }
  return {
    prices: Object.freeze(
      Object.fromEntries(Object.entries(parsed.data).map(([k, v]) => [k, { input: v.input, output: v.output, contextTokens: v.contextTokens ?? CONTEXT_128K }])),
    ),
  };
}
