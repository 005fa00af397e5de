// The advisor's model call through the model Workers (functions/workers/model-*.ts), reached by service
// bindings: the call's data goes over Workers RPC with `callTool` as a callback stub, and the parts come back
// as a newline-delimited JSON stream (cancelled when the turn stops, which aborts the provider call there).
import { partsFromStream, type CallTool, type ModelCall, type ModelRunner } from "./model.ts";
import type { ModelProvider } from "../providers/providers.ts";

/** What a model Worker's `Model` entrypoint offers over RPC. */
export type ModelService = { stream(call: ModelCall, callTool: CallTool): Promise<ReadableStream<Uint8Array>> };

/** The binding of each provider's model Worker (OpenRouter is served by the OpenAI one: the same SDK package). */
export const MODEL_BINDINGS: Record<ModelProvider, string> = {
  openai: "MODEL_OPENAI",
  openrouter: "MODEL_OPENAI",
  anthropic: "MODEL_ANTHROPIC",
  gemini: "MODEL_GEMINI",
};

export function boundModel(env: Record<string, unknown>): ModelRunner {
  return async function* (call, callTool, signal) {
    const service = env[MODEL_BINDINGS[call.provider]] as ModelService | undefined;
    if (!service) throw new Error(`the ${MODEL_BINDINGS[call.provider]} service binding is missing`);
    yield* partsFromStream(await service.stream(call, callTool), signal);
  };
}
