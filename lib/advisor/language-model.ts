// The model call in this process (Node, and `wrangler dev`'s single Worker): the AI SDK and the provider's
// package are loaded on the first turn, not at start, and only the conversation's provider.
import type { ModelFactory } from "./run-model.ts";
import type { ModelRunner } from "./model.ts";

const factories: Record<string, () => Promise<ModelFactory>> = {
  openai: async () => (await import("./sdk/openai.ts")).openaiModel,
  openrouter: async () => (await import("./sdk/openai.ts")).openaiModel,
  anthropic: async () => (await import("./sdk/anthropic.ts")).anthropicModel,
  gemini: async () => (await import("./sdk/gemini.ts")).geminiModel,
};

export function inProcessModel(fetcher: typeof fetch): ModelRunner {
  return async function* (call, callTool, signal) {
    const { runModel } = await import("./run-model.ts");
    const factory = await factories[call.provider]!();
    yield* runModel(factory, fetcher)(call, callTool, signal);
  };
}

