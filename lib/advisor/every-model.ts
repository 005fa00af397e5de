// Every provider's model call in this process with the SDK imported up front: for the one-Worker bundle of
// `wrangler dev` (functions/workers/all.ts). Node loads the SDK on the first turn instead
// (language-model.ts); in a Worker bundle that dynamic import would make esbuild wrap zod's modules in lazy
// initialisers that the rest of the bundle reaches before they run ("e is not a constructor" at start).
import type { ModelRunner } from "./model.ts";
import { runModel } from "./run-model.ts";
import { anthropicModel } from "./sdk/anthropic.ts";
import { geminiModel } from "./sdk/gemini.ts";
import { openaiModel } from "./sdk/openai.ts";

export function everyModelInProcess(fetcher: typeof fetch): ModelRunner {
  const runners: Record<string, ModelRunner> = {
    openai: runModel(openaiModel, fetcher),
    openrouter: runModel(openaiModel, fetcher),
    anthropic: runModel(anthropicModel, fetcher),
    gemini: runModel(geminiModel, fetcher),
  };
  return (call, callTool, signal) => runners[call.provider]!(call, callTool, signal);
}
