// The AI SDK model of a conversation's provider, pointed at the provider's base URL (the seams of DESIGN.md
// section 5) with the user's own key. OpenAI and OpenRouter speak Chat Completions; Anthropic its Messages
// API; Gemini its own. The SDK packages are loaded on the first turn, not at start.
import type { LanguageModel } from "ai";
import type { Config } from "../config/index.ts";
import { baseUrlOf, type ModelProvider } from "./providers.ts";

export async function languageModel(config: Config, fetcher: typeof fetch, provider: ModelProvider, model: string, apiKey: string): Promise<LanguageModel> {
  const baseURL = baseUrlOf(config, provider);
  switch (provider) {
    case "openai":
    case "openrouter": {
      const { createOpenAI } = await import("@ai-sdk/openai");
      return createOpenAI({ baseURL, apiKey, fetch: fetcher, name: provider }).chat(model);
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic");
      return createAnthropic({ baseURL, apiKey, fetch: fetcher })(model);
    }
    case "gemini": {
      const { createGoogleGenerativeAI } = await import("@ai-sdk/google");
      return createGoogleGenerativeAI({ baseURL, apiKey, fetch: fetcher })(model);
    }
  }
}
