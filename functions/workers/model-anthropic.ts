import { anthropicModel } from "../../lib/advisor/sdk/anthropic.ts";
import { modelEntrypoint, notFound } from "./model-entrypoint.ts";

// Model Worker for the advisor (functions/workers/model-entrypoint.ts): @ai-sdk/anthropic only.
export const Model = modelEntrypoint(anthropicModel);
export default notFound;
