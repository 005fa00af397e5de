// OpenAI and OpenRouter: Chat Completions (`POST {base}/chat/completions`, streamed, usage in the stream).
import { createOpenAI } from "@ai-sdk/openai";
import type { ModelFactory } from "../run-model.ts";

export const openaiModel: ModelFactory = (call, fetcher) => createOpenAI({ baseURL: call.baseURL, apiKey: call.apiKey, fetch: fetcher, name: call.provider }).chat(call.model);
