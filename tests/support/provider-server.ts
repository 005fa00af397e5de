// One local HTTP server standing in for the model providers and the market-data provider. POSTs are model
// calls, streamed in each provider's wire format (tests/support/llm-server.ts, scripted by the message text).
// GETs are the model listings (OpenAI, Anthropic, Gemini, OpenRouter, each with its real response shape and
// auth header) and the market-data provider's quote call (Finnhub); what they answer is decided by the key
// they are sent, so tests run in parallel without setup:
//   a key containing "invalid401" / "invalid403" -> that status (Gemini: its 400 API_KEY_INVALID for "invalid401")
//   "fail500" -> 500, "hang" -> never answers, "reset" -> the connection is destroyed, "garbage" -> 200 with
//   a body that is not JSON, "flaky" -> 500 the first time this server sees the key, then as a good key;
//   anything else -> 200 with the listing.
// It records every request (method, path, the key it carried) so tests can see what was sent.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createStreamHandler, type LlmRequest } from "./llm-server.ts";

export type ProviderServer = {
  url: string;
  /** The model calls (POSTs: tests/support/llm-server.ts) received, bodies parsed. */
  streams: LlmRequest[];
  /** Model calls the client closed before the answer was finished. */
  aborted(): number;
  /** The seam variables pointing every provider at this server. */
  env: Record<string, string>;
  requests: Array<{ method: string; path: string; key: string | null }>;
  close(): Promise<void>;
};

export const LISTINGS = {
  openai: ["gpt-4o", "gpt-4o-mini", "gpt-5", "gpt-5-mini", "gpt-5.1", "gpt-5.1-codex", "text-embedding-3-small", "dall-e-3"],
  anthropic: ["claude-3-5-haiku-20241022", "claude-opus-4-1-20250805", "claude-sonnet-4-20250514", "claude-sonnet-4-5-20250929"],
  gemini: ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-3-pro-preview"],
  openrouter: ["anthropic/claude-sonnet-4.5", "google/gemini-2.5-pro", "meta-llama/llama-3.3-70b-instruct", "openai/gpt-5"],
} as const;

/** What each provider's listing makes the default (MODEL_PREFERENCES applied to LISTINGS). */
export const EXPECTED_DEFAULTS = {
  openai: "gpt-5.1",
  anthropic: "claude-sonnet-4-5-20250929",
  gemini: "gemini-2.5-pro",
  openrouter: "anthropic/claude-sonnet-4.5",
} as const;

function keyOf(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7);
  const header = req.headers["x-api-key"] ?? req.headers["x-goog-api-key"] ?? req.headers["x-finnhub-token"];
  if (typeof header === "string") return header;
  return url.searchParams.get("key") ?? url.searchParams.get("token");
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

function listing(provider: keyof typeof LISTINGS): unknown {
  const ids = LISTINGS[provider];
  switch (provider) {
    case "openai":
      return { object: "list", data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "openai" })) };
    case "anthropic":
      return {
        data: ids.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
        has_more: false,
        first_id: ids[0],
        last_id: ids.at(-1),
      };
    case "gemini":
      return {
        models: [
          ...ids.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ["generateContent", "countTokens"] })),
          { name: "models/text-embedding-004", displayName: "Text Embedding 004", supportedGenerationMethods: ["embedContent"] },
        ],
      };
    case "openrouter":
      return { data: ids.map((id) => ({ id, name: id, context_length: 200_000, pricing: { prompt: "0.000003", completion: "0.000015" } })) };
  }
}

function refusal(provider: string, status: number): { status: number; body: unknown } {
  if (provider === "gemini" && status === 401) {
    return {
      status: 400,
      body: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }],
        },
      },
    };
  }
  if (provider === "anthropic") return { status, body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } } };
  if (provider === "finnhub") return { status, body: { error: "Invalid API key" } };
  return { status, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } };
}

export async function startProviderServer(): Promise<ProviderServer> {
  const requests: ProviderServer["requests"] = [];
  const seen = new Set<string>();
  const sockets = new Set<import("node:net").Socket>();
  const streams = createStreamHandler();
  const server = createServer((req, res) => {
    if (req.method === "POST") return void streams.handle(req, res);
    const url = new URL(req.url ?? "/", "http://stand-in");
    const key = keyOf(req, url);
    requests.push({ method: req.method ?? "GET", path: url.pathname, key });
    const provider = url.pathname.split("/")[1] ?? "";
    if (key?.includes("hang")) return; // never answers
    if (key?.includes("reset")) return req.socket.destroy();
    if (key?.includes("garbage")) {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end("<html>not json");
    }
    if (!key) return send(res, 401, refusal(provider, 401).body);
    for (const status of [401, 403] as const) {
      if (key.includes(`invalid${status}`)) {
        const r = refusal(provider, status);
        return send(res, r.status, r.body);
      }
    }
    const firstTime = !seen.has(key);
    seen.add(key);
    if (key.includes("fail500") || (key.includes("flaky") && firstTime)) return send(res, 500, { error: { message: "The server had an error" } });
    switch (url.pathname) {
      case "/openai/v1/models":
        return send(res, 200, listing("openai"));
      case "/anthropic/v1/models":
        return send(res, 200, listing("anthropic"));
      case "/gemini/v1beta/models":
        return send(res, 200, listing("gemini"));
      case "/openrouter/api/v1/models":
        return send(res, 200, listing("openrouter"));
      case "/openrouter/api/v1/key":
        return send(res, 200, { data: { label: `sk-or-v1-...${key.slice(-3)}`, usage: 0, limit: null, is_free_tier: false } });
      case "/finnhub/api/v1/quote":
        return send(res, 200, { c: 191.5, d: 0.75, dp: 0.39, h: 192.1, l: 190.2, o: 190.9, pc: 190.75, t: 1_705_700_000 });
      default:
        return send(res, 404, { error: "not found" });
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      OPENAI_BASE_URL: `${url}/openai/v1`,
      ANTHROPIC_BASE_URL: `${url}/anthropic/v1`,
      GEMINI_BASE_URL: `${url}/gemini/v1beta`,
      OPENROUTER_BASE_URL: `${url}/openrouter/api/v1`,
      MARKET_DATA_BASE_URL: `${url}/finnhub/api/v1`,
    },
    requests,
    streams: streams.requests,
    aborted: streams.aborted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
