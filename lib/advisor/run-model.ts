// One model call through the AI SDK (`ai`): streamText with the SDK's own tool loop (at most call.maxSteps
// model calls), each tool answered by `callTool` where the journal is, the SDK's stream read into ModelParts.
// `modelFor` builds the provider's model (lib/advisor/sdk/*.ts): all three on Node, one per model Worker.
import { isStepCount, jsonSchema, streamText, tool, type LanguageModel, type ModelMessage } from "ai";
import { providerFailure, type CallTool, type ModelCall, type ModelPart, type ModelRunner } from "./model.ts";
import type { ToolOutput } from "./tools.ts";

export type ModelFactory = (call: ModelCall, fetcher: typeof fetch) => LanguageModel | Promise<LanguageModel>;

class ToolFailure extends Error {
  override name = "ToolFailure";
}

function sdkTools(call: ModelCall, callTool: CallTool) {
  if (!call.tools?.length) return undefined;
  return Object.fromEntries(
    call.tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema(t.inputSchema as never),
        execute: async (input: unknown) => {
          const answer = await callTool(t.name, input);
          if (!answer.ok) throw new ToolFailure(answer.message);
          return answer.output;
        },
        // What the model reads of a result: the data only; the summary is for the trader.
        toModelOutput: ({ output }: { output: ToolOutput }) => ({ type: "json" as const, value: output.data as never }),
      } as never),
    ]),
  );
}

export function runModel(modelFor: ModelFactory, fetcher: typeof fetch = (...a) => fetch(...a)): ModelRunner {
  return async function* (call, callTool, signal): AsyncIterable<ModelPart> {
    try {
      const tools = sdkTools(call, callTool);
      const result = streamText({
        model: await modelFor(call, fetcher),
        instructions: call.instructions,
        messages: call.messages as ModelMessage[],
        ...(tools ? { tools, stopWhen: isStepCount(call.maxSteps) } : {}),
        maxOutputTokens: call.maxOutputTokens,
        maxRetries: 1,
        abortSignal: signal,
        onError: () => {}, // read from the stream below; the SDK's default prints the request (the journal) to the console
      });
      for await (const part of result.stream) {
        switch (part.type) {
          case "text-delta":
            yield { type: "text", text: part.text };
            break;
          case "tool-call":
            yield { type: "tool-call", id: part.toolCallId, name: part.toolName, input: part.input };
            break;
          case "tool-result": {
            const output = part.output as ToolOutput;
            yield { type: "tool-result", id: part.toolCallId, name: part.toolName, summary: output.summary, dataChars: JSON.stringify(output.data).length };
            break;
          }
          case "tool-error": {
            const error = part.error as { message?: string };
            yield { type: "tool-error", id: part.toolCallId, name: part.toolName, message: error instanceof ToolFailure ? error.message : "The journal could not be read for this." };
            break;
          }
          case "finish-step":
            yield { type: "step", inputTokens: part.usage.inputTokens ?? 0, outputTokens: part.usage.outputTokens ?? 0 };
            break;
          case "finish":
            yield { type: "finish", finishReason: part.finishReason };
            break;
          case "error":
            // Some errors are survivable (a malformed chunk the SDK skipped); the turn fails only without a finish.
            yield { type: "error", failure: providerFailure(part.error) };
            break;
          default:
            break;
        }
        if (signal.aborted) return;
      }
    } catch (err) {
      if (!signal.aborted) yield { type: "error", failure: providerFailure(err) };
    }
  };
}
