// The model providers' streaming calls, in each one's wire format, for the providers' stand-in
// (tests/support/provider-server.ts, which serves these for every POST):
// OpenAI-style Chat Completions (OpenAI and OpenRouter: POST /openai/v1/chat/completions and
// /openrouter/api/v1/chat/completions), Anthropic Messages (POST /anthropic/v1/messages) and Gemini
// (POST /gemini/v1beta/models/<model>:streamGenerateContent?alt=sse). It also answers the model listings
// (tests/support/provider-server.ts does the same for key saves), so one server serves an advisor.
//
// What it answers is scripted by directives in the last user message's text, so tests in any process can
// drive it:
//   #tool:<name>:<json>  call that tool with those arguments; once the request carries its result, answer with
//                        "From your journal: " and the result's text (so the answer shows what the model got)
//   #slow:<ms>           wait that long between chunks        #chunks:<n>  answer n chunks of "word "
//   #status:<code>       answer that HTTP status (400 says the context is too long)
//   #hang                never answer          #hang-after:<n>  send n chunks, then nothing more
//   #malformed           a chunk that is not JSON in the middle of the stream
//   #reset               the connection destroyed before any answer   #reset-after:<n>  send n chunks, then reset
//   #garbage             200 with a body that is not the provider's stream at all
//   #cite                with #tool: also link every trade of the result, as the advisor is asked to:
//                        "[AAPL 2024-01-02](trade:ID)"
//   #answer:<base64url>  answer exactly that text (decoded), in three chunks (a test's scripted model answer)
// Otherwise: "Here is my answer." in four chunks. Usage: prompt tokens = request bytes / 4 (rounded down),
// completion tokens = 5 per chunk; a key containing "invalid401" is refused with 401.
import type { IncomingMessage, ServerResponse } from "node:http";

type Provider = "openai" | "openrouter" | "anthropic" | "gemini";

export type LlmRequest = { provider: Provider; path: string; key: string | null; body: Record<string, unknown>; at: number };

type Plan = {
  status?: number;
  hang?: boolean;
  hangAfter?: number;
  reset?: boolean;
  resetAfter?: number;
  garbage?: boolean;
  slowMs: number;
  malformed: boolean;
  chunks: string[];
  toolCall?: { name: string; args: unknown };
};

/** The text of the last user message, whatever the wire format. */
function lastUserText(provider: Provider, body: Record<string, unknown>): string {
  if (provider === "gemini") {
    const contents = (body.contents as Array<{ role: string; parts: Array<{ text?: string }> }>) ?? [];
    const user = [...contents].reverse().find((c) => c.role === "user" && c.parts.some((p) => typeof p.text === "string"));
    return user?.parts.map((p) => p.text ?? "").join("") ?? "";
  }
  const messages = (body.messages as Array<{ role: string; content: unknown }>) ?? [];
  for (const m of [...messages].reverse()) {
    if (m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content)) {
      const text = m.content.filter((p: { type?: string }) => p.type === "text").map((p: { text?: string }) => p.text ?? "").join("");
      if (text) return text;
    }
  }
  return "";
}

/** The tool result the request carries, as text, or null. */
function toolResult(provider: Provider, body: Record<string, unknown>): string | null {
  if (provider === "gemini") {
    for (const c of (body.contents as Array<{ parts: Array<{ functionResponse?: { response?: unknown } }> }>) ?? []) {
      for (const p of c.parts) if (p.functionResponse) return JSON.stringify(p.functionResponse.response);
    }
    return null;
  }
  for (const m of (body.messages as Array<{ role: string; content: unknown }>) ?? []) {
    if (m.role === "tool") return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
    if (m.role === "user" && Array.isArray(m.content)) {
      const r = m.content.find((p: { type?: string }) => p.type === "tool_result");
      if (r) return typeof r.content === "string" ? r.content : JSON.stringify(r.content);
    }
  }
  return null;
}

/** Markdown links to the trades a tool result lists ({trades: [{id, symbol, openedAt}]}). */
function citations(result: string): string[] {
  const trades = (JSON.parse(result) as { trades?: Array<{ id: string; symbol: string; openedAt: string }> }).trades ?? [];
  return trades.map((t) => `\n\nSee [${t.symbol} ${t.openedAt.slice(0, 10)}](trade:${t.id}).`);
}

function plan(provider: Provider, body: Record<string, unknown>): Plan {
  const text = lastUserText(provider, body);
  const directive = (name: string) => new RegExp(`#${name}(?::(\\S+))?`).exec(text);
  const p: Plan = { slowMs: Number(directive("slow")?.[1] ?? 0), malformed: Boolean(directive("malformed")), chunks: ["Here ", "is my ", "answer", "."] };
  const status = directive("status")?.[1];
  if (status) p.status = Number(status);
  if (/#hang(?!-)/.test(text)) p.hang = true;
  const after = directive("hang-after")?.[1];
  if (after) p.hangAfter = Number(after);
  if (/#reset(?!-)/.test(text)) p.reset = true;
  const resetAfter = directive("reset-after")?.[1];
  if (resetAfter) p.resetAfter = Number(resetAfter);
  if (directive("garbage")) p.garbage = true;
  const n = directive("chunks")?.[1];
  if (n) p.chunks = Array.from({ length: Number(n) }, () => "word ");
  const scripted = /#answer:([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (scripted) {
    const answer = Buffer.from(scripted, "base64url").toString("utf8");
    const third = Math.ceil(answer.length / 3);
    p.chunks = [answer.slice(0, third), answer.slice(third, 2 * third), answer.slice(2 * third)].filter((c) => c !== "");
  }
  const tool = /#tool:([a-z_]+):(\{.*?\})(?:\s|$)/.exec(text);
  if (tool) {
    const result = toolResult(provider, body);
    if (result === null) p.toolCall = { name: tool[1]!, args: JSON.parse(tool[2]!) };
    else {
      p.chunks = ["From your journal: ", result.slice(0, 2000)];
      if (directive("cite")) p.chunks.push(...citations(result));
    }
  }
  return p;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stream(res: ServerResponse, provider: Provider, model: string, p: Plan, promptTokens: number): Promise<void> {
  const completion = p.toolCall ? 12 : p.chunks.length * 5;
  const write = (event: string | null, data: unknown) => res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  const chunks = p.toolCall ? [] : p.chunks;
  if (provider === "anthropic") {
    write("message_start", { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, usage: { input_tokens: promptTokens, output_tokens: 1 } } });
  }
  if (p.toolCall) {
    const args = JSON.stringify(p.toolCall.args);
    if (provider === "anthropic") {
      write("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: p.toolCall.name, input: {} } });
      write("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: args } });
      write("content_block_stop", { type: "content_block_stop", index: 0 });
    } else if (provider === "gemini") {
      write(null, { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: p.toolCall.name, args: p.toolCall.args } }] }, index: 0 }] });
    } else {
      write(null, { id: "chatcmpl-1", object: "chat.completion.chunk", model, choices: [{ index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: p.toolCall.name, arguments: "" } }] }, finish_reason: null }] });
      write(null, { id: "chatcmpl-1", object: "chat.completion.chunk", model, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args } }] }, finish_reason: null }] });
    }
  } else if (provider === "anthropic") {
    write("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  }
  for (const [i, chunk] of chunks.entries()) {
    if (p.hangAfter !== undefined && i >= p.hangAfter) return; // never finishes
    if (p.resetAfter !== undefined && i >= p.resetAfter) return void res.socket?.destroy();
    if (p.slowMs) await sleep(p.slowMs);
    if (res.destroyed) return;
    if (p.malformed && i === 1) res.write("data: {not json at all\n\n");
    if (provider === "anthropic") write("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: chunk } });
    else if (provider === "gemini") write(null, { candidates: [{ content: { role: "model", parts: [{ text: chunk }] }, index: 0 }] });
    else write(null, { id: "chatcmpl-1", object: "chat.completion.chunk", model, choices: [{ index: 0, delta: { content: chunk }, finish_reason: null }] });
  }
  const finish = p.toolCall ? "tool" : "stop";
  if (provider === "anthropic") {
    if (!p.toolCall) write("content_block_stop", { type: "content_block_stop", index: 0 });
    write("message_delta", { type: "message_delta", delta: { stop_reason: finish === "tool" ? "tool_use" : "end_turn" }, usage: { output_tokens: completion } });
    write("message_stop", { type: "message_stop" });
  } else if (provider === "gemini") {
    write(null, {
      candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: completion, totalTokenCount: promptTokens + completion },
    });
  } else {
    write(null, { id: "chatcmpl-1", object: "chat.completion.chunk", model, choices: [{ index: 0, delta: {}, finish_reason: finish === "tool" ? "tool_calls" : "stop" }] });
    write(null, { id: "chatcmpl-1", object: "chat.completion.chunk", model, choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion } });
    write(null, "[DONE]");
  }
  res.end();
}

function keyOf(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7);
  const header = req.headers["x-api-key"] ?? req.headers["x-goog-api-key"];
  return typeof header === "string" ? header : null;
}

function errorBody(provider: Provider, status: number): unknown {
  const message = status === 400 ? "This model's maximum context length is 128000 tokens. Please reduce the length of the messages." : `stand-in error ${status}`;
  if (provider === "anthropic") return { type: "error", error: { type: status === 429 ? "rate_limit_error" : "api_error", message } };
  if (provider === "gemini") return { error: { code: status, message, status: "FAILED" } };
  return { error: { message, type: "invalid_request_error", code: status === 400 ? "context_length_exceeded" : null } };
}

export type StreamHandler = {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The model calls received, bodies parsed. */
  requests: LlmRequest[];
  /** Calls the client closed before the answer was finished (a disconnect reached the provider). */
  aborted(): number;
};

/** The model-call half of the providers' stand-in (tests/support/provider-server.ts serves it for POSTs). */
export function createStreamHandler(): StreamHandler {
  const requests: LlmRequest[] = [];
  let aborted = 0;
  return {
    requests,
    aborted: () => aborted,
    async handle(req, res) {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const url = new URL(req.url ?? "/", "http://stand-in");
      const provider = url.pathname.split("/")[1] as Provider;
      const key = keyOf(req);
      res.on("close", () => {
        if (!res.writableFinished) aborted += 1;
      });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(400, errorBody(provider, 400));
      }
      requests.push({ provider, path: url.pathname, key, body, at: Date.now() });
      if (key?.includes("invalid401")) return send(401, errorBody(provider, 401));
      const p = plan(provider, body);
      if (p.hang) return; // never answers
      if (p.reset) return void req.socket.destroy();
      if (p.garbage) {
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html><body>502 Bad Gateway (a proxy's page, not the provider's stream)</body></html>");
        return;
      }
      if (p.status) return send(p.status, errorBody(provider, p.status));
      const model = provider === "gemini" ? decodeURIComponent(url.pathname.split("/models/")[1]!.split(":")[0]!) : String(body.model);
      await stream(res, provider, model, p, Math.floor(raw.length / 4));
    },
  };
}
