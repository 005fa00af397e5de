import { geminiModel } from "../../lib/advisor/sdk/gemini.ts";
import { modelEntrypoint, notFound } from "./model-entrypoint.ts";

// Model Worker for the advisor (functions/workers/model-entrypoint.ts): @ai-sdk/google only.
export const Model = modelEntrypoint(geminiModel);
export default notFound;
