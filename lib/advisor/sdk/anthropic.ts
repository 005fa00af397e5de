// Anthropic: the Messages API.
import { createAnthropic } from "@ai-sdk/anthropic";
import type { ModelFactory } from "../run-model.ts";

export const anthropicModel: ModelFactory = (call, fetcher) => createAnthropic({ baseURL: call.baseURL, apiKey: call.apiKey, fetch: fetcher })(call.model);
