// Google Gemini: its own streaming API.
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { ModelFactory } from "../run-model.ts";

export const geminiModel: ModelFactory = (call, fetcher) => createGoogleGenerativeAI({ baseURL: call.baseURL, apiKey: call.apiKey, fetch: fetcher })(call.model);
