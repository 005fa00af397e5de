import { openaiModel } from "../../lib/advisor/sdk/openai.ts";
import { modelEntrypoint, notFound } from "./model-entrypoint.ts";

// Model Worker for the advisor (functions/workers/model-entrypoint.ts): @ai-sdk/openai only (OpenAI and OpenRouter).
export const Model = modelEntrypoint(openaiModel);
export default notFound;
