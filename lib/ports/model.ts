// The advisor's model call as a port (lib/deps.ts composes it; lib/advisor/model.ts and run-model.ts implement
// it): plain data both ways, so the call runs in this process (Node, `wrangler dev`) or in a model Worker of its
// own behind a service binding (docs/architecture.md, "The advisor Worker's size"). Types only.
import type { ModelProvider } from "../providers/providers.ts";

export type ModelCall = {
  provider: ModelProvider;
  model: string;
  baseURL: string;
  apiKey: string;
  instructions: string;
  messages: Array<{ role: "user" | "assistant"; content: string }>;
  /** JSON Schema of each tool's arguments; the tool runs where the journal is (callTool). */
  tools?: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  maxSteps: number;
  maxOutputTokens: number;
};

/** What a failed provider call means to the trader: a code and words (never the provider's request or the key). */
export type ProviderFailure = { code: string; message: string; keyRefused?: boolean };

export type ModelPart =
  | { type: "text"; text: string }
  | { type: "tool-call"; id: string; name: string; input: unknown }
  | { type: "tool-result"; id: string; name: string; summary: string; dataChars: number }
  | { type: "tool-error"; id: string; name: string; message: string }
  | { type: "step"; inputTokens: number; outputTokens: number }
  | { type: "finish"; finishReason: string }
  | { type: "error"; failure: ProviderFailure };

/** What a tool gives the model: a summary for the trader and the data for the model. */
export type ToolOutput = { summary: string; data: unknown };

export type ToolAnswer = { ok: true; output: ToolOutput } | { ok: false; message: string };
export type CallTool = (name: string, input: unknown) => Promise<ToolAnswer>;

/** Streams one model call (its tool loop included) as parts; stops when `signal` aborts. */
export type ModelRunner = (call: ModelCall, callTool: CallTool, signal: AbortSignal) => AsyncIterable<ModelPart>;
